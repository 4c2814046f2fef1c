// libFuzzer target: bytes → a lesson file (parseLesson, as if in presets/lessons, so the
// seeds' "scenarios/…" name the preset lesson scenarios) → its scenario, read from the file it
// names → each step's scenario (lessonStepScenario: a sweep point's rules) → bounded runs
// before and after the step → the checks and texts gpuplan-cli lesson run and the Lessons
// dock show (checkLessonStep, effectText, measureEffect).
// Expected outcome for bad bytes: an InputError, from the lesson or from its scenario or a
// step the scenario cannot hold (both reported with the file and the key). Anything else that
// escapes (another exception, a sanitizer report, a hang, unbounded memory) is a finding.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "checkout_paths.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "gpuplan/studies/lesson.hpp"

namespace {

using gpuplan::Scenario;

/// Runs far below a second each (fuzz_scenario's budget): a lesson scenario over it is read
/// and its steps built, but not run.
gpuplan::RunBudget fuzzBudget() {
    gpuplan::RunBudget b;
    b.memoryBytes = 256.0 * (1 << 20);
    b.workOps = 1e7;
    return b;
}

const gpuplan::Catalog& catalog() {
    static const gpuplan::Catalog c = gpuplan::loadCatalog(
        (gpuplan::checkout::presetsDir() / "catalog" / "catalog.json").string());
    return c;
}

bool boundedForFuzzing(const Scenario& s) {
    return gpuplan::budgetExcess(gpuplan::estimateRunCost(s, gpuplan::Fleet::build(s)),
                                 fuzzBudget())
        .empty();
}

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_lesson: %s: %s\n", what, detail.c_str());
    std::abort();
}

gpuplan::RunOptions runOptions() {
    gpuplan::RunOptions run;
    run.checkInvariants = false;  // fuzz_scenario checks them; here the lesson side is fuzzed
    return run;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    gpuplan::Lesson lesson;
    try {
        lesson = gpuplan::parseLesson(text, "fuzz-lesson.json",
                                      (gpuplan::checkout::presetsDir() / "lessons").string());
    } catch (const gpuplan::InputError&) {
        return 0;  // refused with a file, a place and a reason
    }
    if (text.find('\0') != std::string_view::npos)
        finding("a lesson with a NUL byte was accepted", std::string(text.substr(0, 200)));
    if (lesson.scenarioFile.string().find('\0') != std::string::npos)
        finding("a scenario path with a NUL byte was accepted", lesson.scenarioFile.string());
    // The texts the Lessons dock shows, for every effect, before any run.
    for (const gpuplan::LessonStep& step : lesson.steps)
        for (const gpuplan::LessonEffect& effect : step.effects)
            (void)gpuplan::effectText(effect);

    // Read with the real budget, as gpuplan-cli lesson run reads; run only when cheap.
    const gpuplan::LoadOptions options;
    Scenario start;
    try {
        start = gpuplan::lessonScenario(lesson, catalog(), options);
    } catch (const gpuplan::InputError&) {
        return 0;  // the scenario it names is missing, unreadable or malformed
    }
    std::optional<gpuplan::Results> before;
    if (boundedForFuzzing(start)) before = gpuplan::simulate(start, runOptions());
    for (std::size_t step = 0; step < lesson.steps.size(); ++step) {
        Scenario after;
        try {
            after = gpuplan::lessonStepScenario(lesson, step, start, catalog(), options);
        } catch (const gpuplan::InputError& e) {
            // A step the scenario cannot hold names the lesson and the step.
            if (std::string(e.what()).find("fuzz-lesson.json (step ") == std::string::npos)
                finding("a step's refusal does not name the lesson and the step", e.what());
            continue;
        }
        if (!before || !boundedForFuzzing(after)) continue;
        // Validated, so it must run: any exception here is a validator gap.
        const gpuplan::Results results = gpuplan::simulate(after, runOptions());
        for (const gpuplan::LessonEffect& effect : lesson.steps[step].effects) {
            (void)gpuplan::measureEffect(effect, *before);
            (void)gpuplan::measureEffect(effect, results);
        }
        (void)gpuplan::checkLessonStep(lesson, step, *before, results);
    }
    return 0;
}
