// Lessons: every lesson under presets/lessons is run before and after each of its
// steps, and every effect its text claims must show in the runs, within the lesson's
// tolerance and in the claimed direction: the text and this test read the same numbers.
// Then the lesson reader's refusals, each with the file and the place.
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/studies/lesson.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::inputErrorOf;

namespace {

const Catalog& catalog() {
    return test::presetCatalog();
}

const std::vector<Lesson>& lessons() {
    static const std::vector<Lesson> l = loadLessons(test::presetsDir() / "lessons");
    return l;
}

/// A valid lesson's text with one piece replaced (it must occur).
std::string lessonWith(const std::string& from, const std::string& to) {
    std::string text = readTextFile(test::presetsDir() / "lessons" / "3.3-pack-vs-spread.json");
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

InputError lessonError(const std::string& text) {
    return inputErrorOf([&] { parseLesson(text, "lesson.json", test::presetsDir() / "lessons"); });
}

}  // namespace

TEST_CASE("lessons: every claimed effect shows in the runs", "[lesson]") {
    REQUIRE(!lessons().empty());
    for (const Lesson& lesson : lessons()) {
        INFO("lesson " << lesson.id << " (" << lesson.file << ")");
        const Scenario start = lessonScenario(lesson, catalog(), {});
        const Results before = test::run(start);
        for (std::size_t step = 0; step < lesson.steps.size(); ++step) {
            const Results after = test::run(lessonStepScenario(lesson, step, start, catalog(), {}));
            const std::vector<std::string> problems = checkLessonStep(lesson, step, before, after);
            for (const std::string& p : problems)
                FAIL_CHECK(p);
            CHECK(problems.empty());
        }
    }
}

TEST_CASE("lessons: chapters are listed in order and the text shows the claimed numbers",
          "[lesson]") {
    // Chapter order, part by part as numbers: 0.2 before 1.2 before 3.3 before 6.4.
    REQUIRE(lessons().size() >= 2);
    auto key = [](const std::string& id) {
        const auto dot = id.find('.');
        return std::pair{std::stoi(id),
                         dot == std::string::npos ? 0 : std::stoi(id.substr(dot + 1))};
    };
    for (std::size_t i = 1; i < lessons().size(); ++i)
        CHECK(key(lessons()[i - 1].id) < key(lessons()[i].id));
    LessonEffect e;
    e.unit = "h";
    e.before = 0;
    e.after = 4.84;
    e.says = "waits {after} instead of {before} ({change})";
    CHECK(effectText(e) == "waits 4.84 h instead of 0 h (+4.84 h)");
    CHECK(formatEffectValue(12.5, "%") == "12.5 %");
    CHECK(formatEffectValue(1234.4, "min") == "1234 min");
    CHECK(formatEffectValue(3, "") == "3");
    // Dollars: a leading sign, thousands grouped, cents kept only where they are given.
    CHECK(formatEffectValue(22533, "$") == "$22,533");
    CHECK(formatEffectValue(1234567, "$") == "$1,234,567");
    CHECK(formatEffectValue(2.41, "$") == "$2.41");
    CHECK(formatEffectValue(3.2, "$") == "$3.20");
    CHECK(formatEffectValue(-4883, "$") == "-$4,883");
    CHECK(formatEffectValue(999, "$") == "$999");
    CHECK(formatEffectValue(-0.001, "$") == "$0.00");
}

TEST_CASE("lessons: effects measure KPIs, jobs and teams in their display units", "[lesson]") {
    Results r;
    r.kpis.push_back({"allocation_mean", 0.4028, "fraction", ""});
    r.kpis.push_back({"wait_s_p95", 5400, "s", ""});
    GroupKpis team;
    team.name = "product";
    team.waitP95S = 1800;
    team.borrowedGpusMean = 12.5;
    r.teamKpis.push_back(team);
    LessonEffect e;
    e.kpi = "allocation_mean";
    e.unit = "%";
    CHECK(*measureEffect(e, r) == Approx(40.28));  // a fraction × 100
    e.kpi = "wait_s_p95";
    e.unit = "h";
    CHECK(*measureEffect(e, r) == Approx(1.5));  // 5400 s ÷ 3600
    e.unit = "$";
    CHECK(!measureEffect(e, r));  // seconds are no dollars
    r.kpis.push_back({"usd_per_useful_gpu_h", 2.41, "usd_per_gpu_h", ""});
    e.kpi = "usd_per_useful_gpu_h";
    CHECK(*measureEffect(e, r) == Approx(2.41));  // any cost measure, as it is
    e.kpi = "wait_s_p95";
    e.unit = "%";
    CHECK(!measureEffect(e, r));  // seconds are no percentage
    e.kpi.clear();
    e.team = "product";
    e.teamMeasure = LessonTeamMeasure::WaitP95S;
    e.unit = "min";
    CHECK(*measureEffect(e, r) == Approx(30));  // 1800 s ÷ 60
    e.teamMeasure = LessonTeamMeasure::BorrowedGpus;
    e.unit = "";
    CHECK(*measureEffect(e, r) == Approx(12.5));
    e.team = "nobody";
    CHECK(!measureEffect(e, r));
    // A series: the mean of its samples, or the largest: (0 + 6 + 6 + 0) / 4 = 3.
    r.series.push_back({"pending_gpus{scheduling}", "gpus", {0, 6, 6, 0}});
    e.team.clear();
    e.series = "pending_gpus{scheduling}";
    CHECK(*measureEffect(e, r) == Approx(3));
    e.seriesMax = true;
    CHECK(*measureEffect(e, r) == Approx(6));
}

TEST_CASE("lessons: a step sets its values by the scenario reader's rules", "[lesson]") {
    const Lesson& lesson = lessons().front();
    const Scenario start = lessonScenario(lesson, catalog(), {});
    const Scenario after = lessonStepScenario(lesson, 0, start, catalog(), {});
    CHECK(after != start);
    // A value the scenario may not hold is refused with the scenario's place.
    Lesson bad = lesson;
    bad.steps[0].set = {{"/scheduler/placement", "\"sideways\""}};
    const InputError e = inputErrorOf([&] { lessonStepScenario(bad, 0, start, catalog(), {}); });
    CHECK(e.place() == "/scheduler/placement");
    CHECK_THAT(e.message(), Catch::Contains("step 1"));
}

TEST_CASE("lessons: malformed lesson files are refused with the place", "[lesson]") {
    SECTION("a tolerance as wide as the effect proves nothing") {
        const InputError e = lessonError(lessonWith(R"("tolerance": 1.5)", R"("tolerance": 3)"));
        CHECK(e.file() == "lesson.json");
        CHECK(e.place() == "/steps/0/effects/0/tolerance");
        CHECK_THAT(e.message(), Catch::Contains("does not tell 0 from 5"));
    }
    SECTION("words that do not show the numbers") {
        const InputError e = lessonError(
            lessonWith("\"big-train waits {after} instead of {before} for its 8 whole nodes\"",
                       "\"big-train waits longer\""));
        CHECK(e.place() == "/steps/0/effects/0/says");
    }
    SECTION("a unit the effects do not know") {
        const InputError e = lessonError(lessonWith(R"("unit": "h")", R"("unit": "days")"));
        CHECK(e.place() == "/steps/0/effects/0/unit");
    }
    SECTION("a value set at something that is not a pointer") {
        const InputError e = lessonError(lessonWith(R"("/scheduler/placement": "spread")",
                                                    R"("scheduler/placement": "spread")"));
        CHECK(e.place() == "/steps/0/set/scheduler~1placement");
        CHECK_THAT(e.message(), Catch::Contains("not a JSON pointer"));
    }
    SECTION("an effect that measures nothing") {
        const InputError e =
            lessonError(lessonWith(R"("job": "big-train", "measure": "wait", )", ""));
        CHECK(e.place() == "/steps/0/effects/0");
    }
    SECTION("a chapter that is not one") {
        const InputError e = lessonError(lessonWith(R"("id": "3.3")", R"("id": "3..3")"));
        CHECK(e.place() == "/id");
    }
    SECTION("an unknown key") {
        const InputError e = lessonError(lessonWith(R"("claim":)", R"("claims": "x", "claim":)"));
        CHECK(e.place() == "/claims");
    }
}
