// gpuplan-cli lesson: the lessons of presets/lessons (gpuplan/studies/lesson.hpp) without the GUI,
// so an instructor can prepare: list them, or run one and see each step's effect before and after.
#include <cstdio>

#include "cli_common.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "gpuplan/studies/lesson.hpp"

namespace gpuplan::cli {

const char* const kLessonUsage =
    "usage: gpuplan-cli lesson list [--lessons DIR]\n"
    "       gpuplan-cli lesson run ID [--lessons DIR]\n"
    "\n"
    "list  every lesson by part and chapter, with its steps\n"
    "run   runs lesson ID's scenario and, for each \"try this\" step, the scenario with the step\n"
    "      applied; prints each effect the lesson claims, what the runs show, and whether the\n"
    "      claim holds (exit 1 when one does not), then the KPIs before and after.\n"
    "  --lessons DIR  the lesson files (default: PRESETS/lessons)\n"
    "  --data-dir, --presets, --catalog, --budget-gb, --budget-ops  as for validate\n";

namespace {

/// Exit code when a lesson's claim does not show in its runs (not bad input, not a crash).
constexpr int kClaimDoesNotHold = 1;

void listLessons(const std::vector<Lesson>& lessons) {
    std::string part;
    for (const Lesson& l : lessons) {
        if (l.part != part) std::printf("%s%s\n", part.empty() ? "" : "\n", l.part.c_str());
        part = l.part;
        std::printf("  %-5s %s\n", l.id.c_str(), l.title.c_str());
        for (const LessonStep& s : l.steps)
            std::printf("          try: %s\n", s.title.c_str());
    }
}

int runLesson(const Lesson& lesson, const CommonOptions& common) {
    const Catalog catalog = loadCatalogFor(common);
    const LoadOptions options = loadOptionsFor(common);
    const Scenario start = lessonScenario(lesson, catalog, options);
    const Results before = simulate(start, RunOptions{});
    std::printf("%s %s (%s)\nclaim: %s\nlook at: %s\n", lesson.id.c_str(), lesson.title.c_str(),
                lesson.part.c_str(), lesson.claim.c_str(), lesson.lookAt.c_str());
    bool allHold = true;
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& step = lesson.steps[i];
        const Results after =
            simulate(lessonStepScenario(lesson, i, start, catalog, options), RunOptions{});
        std::printf("\nstep %zu: %s\n  how: %s\n", i + 1, step.title.c_str(), step.how.c_str());
        const std::vector<std::string> problems = checkLessonStep(lesson, i, before, after);
        for (const LessonEffect& e : step.effects) {
            const auto b = measureEffect(e, before), a = measureEffect(e, after);
            std::printf("  claims: %s\n  runs:   %s → %s\n", effectText(e).c_str(),
                        b ? formatEffectValue(*b, e.unit).c_str() : "-",
                        a ? formatEffectValue(*a, e.unit).c_str() : "-");
        }
        for (const std::string& p : problems)
            std::printf("  DOES NOT HOLD: %s\n", p.c_str());
        if (problems.empty()) std::printf("  holds\n");
        allHold = allHold && problems.empty();
        std::printf("  %-28s %14s %14s\n", "kpi", "before", "after");
        for (const Kpi& k : before.kpis) {
            const Kpi* other = after.findKpi(k.name);
            std::printf("  %-28s %14s %14s\n", k.name.c_str(), formatKpi(k.value, k.unit).c_str(),
                        other ? formatKpi(other->value, other->unit).c_str() : "-");
        }
    }
    return allHold ? kOk : kClaimDoesNotHold;
}

}  // namespace

int lessonCommand(Args& args) {
    if (args.done()) throw UsageError{"say list or run ID"};
    const std::string what = args.take();
    if (what != "list" && what != "run")
        throw UsageError{"unknown lesson command \"" + what + "\" (list or run)"};
    CommonOptions common;
    std::optional<std::filesystem::path> folder;
    std::optional<std::string> id;
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--lessons")) {
            folder = args.value("--lessons");
        } else if (what == "run" && !id && !args.peek().empty() && args.peek()[0] != '-') {
            id = args.take();
        } else {
            args.unknown();
        }
    }
    const std::vector<Lesson> lessons =
        loadLessons(folder ? *folder : presetsDirFor(common) / "lessons");
    if (what == "list") {
        listLessons(lessons);
        return kOk;
    }
    if (!id) throw UsageError{"lesson run needs the lesson's ID (see lesson list)"};
    for (const Lesson& l : lessons)
        if (l.id == *id) return runLesson(l, common);
    throw UsageError{"no lesson \"" + *id + "\" (see lesson list)"};
}

}  // namespace gpuplan::cli
