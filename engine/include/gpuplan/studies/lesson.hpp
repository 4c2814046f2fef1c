// Lessons: the four-layer model of AI compute taught on the simulator. A lesson is a
// scenario, a screen of explanation and one or two "try this" steps, each a change of the
// scenario (values set by JSON pointer, as a sweep sets them) with the effect it has stated as
// numbers. The text a learner reads and the test that proves the claim read the same numbers
// from the lesson file, so they cannot drift apart.
//
// A lesson file (presets/lessons/*.json):
//   {"format": "gpuplan-lesson", "formatVersion": 1, "id": "3.3", "part": "3. Scheduling",
//    "title": "Pack vs spread", "scenario": "scenarios/3.3-pack-vs-spread.json",
//    "claim": "…", "lookAt": "…", "explanation": "…",
//    "steps": [{"title": "…", "how": "…", "set": {"/scheduler/placement": "spread"},
//               "effects": [{"kpi": "fragmentation_ratio_mean", "unit": "%",
//                            "before": 5, "after": 40, "tolerance": 5,
//                            "says": "fragmentation rises from {before} to {after}"}]}]}
// An effect measures a run KPI, one explicit job ("job": NAME, "measure": "wait" | "start" |
// "end" | "mfu", its MFU on the GPU of its last binding, Results::mfuOn) or one team ("team": NAME,
// "measure": "wait_p50" | "wait_p95" | "allocation_share" | "gpu_hours" | "completed" |
// "borrowed_gpus" | "preemptions"), or the run's demand forecast a series over the run ("series":
// "pending_gpus{provisioning}", "measure": "mean" | "max"),
// ("forecast": "reserved_gpus" | "trend_gpus_per_day", with "season": "day" | "week",
// "horizonDays" and, for the reservation, "usdPerGpuHour": {"reserved", "on-demand"}; see
// demand_forecast.hpp), in a display unit ("%" of a fraction, "h", "min", "s" of seconds, "$"
// of a cost in dollars, or "" as the engine has it).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/economics/demand_forecast.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan {

enum class LessonJobMeasure { None, WaitS, StartS, EndS, Mfu };
enum class LessonForecastMeasure { None, ReservedGpus, TrendGpusPerDay };
enum class LessonTeamMeasure {
    None,
    WaitP50S,
    WaitP95S,
    AllocationShare,
    GpuHours,
    Completed,
    BorrowedGpus,
    Preemptions
};

struct LessonEffect {
    std::string kpi;  ///< a run KPI's name; empty when it measures a job or a team
    std::string job;  ///< an explicit job's name
    LessonJobMeasure measure = LessonJobMeasure::None;
    std::string team;  ///< a team's name (Results::teamKpis)
    LessonTeamMeasure teamMeasure = LessonTeamMeasure::None;
    std::string series;      ///< a series' name (Results::series)
    bool seriesMax = false;  ///< its largest sample, else its mean over the samples
    LessonForecastMeasure forecast = LessonForecastMeasure::None;
    DemandForecastOptions forecastOptions;
    double usdPerGpuHourReserved = 0, usdPerGpuHourOnDemand = 0;
    std::string unit;              ///< "%", "h", "min", "s", "$" or "" (the KPI's own)
    double before = 0, after = 0;  ///< what the lesson claims, in `unit`
    double tolerance = 0;          ///< how far a run may be from each, in `unit`
    std::string says;              ///< the claim in words, with {before}, {after} and {change}
};

struct LessonStep {
    std::string title;  ///< "Spread instead of pack"
    std::string how;    ///< the application's control: "Toolbar ▸ Placement: spread"
    /// Values set into the lesson's scenario: (JSON pointer, JSON text), as a sweep point.
    std::vector<std::pair<std::string, std::string>> set;
    std::vector<LessonEffect> effects;
};

struct Lesson {
    std::string file;  ///< the lesson file, for messages
    std::string id;    ///< the chapter, "3.3"
    std::string part;  ///< "3. Scheduling"
    std::string title;
    std::filesystem::path scenarioFile;  ///< resolved against the lesson file's folder
    std::string claim;                   ///< what the chapter claims, in a sentence
    std::string lookAt;                  ///< where on screen to look
    std::string explanation;             ///< the screen of text
    std::vector<LessonStep> steps;       ///< one or two
};

/// Reads a lesson file strictly: unknown keys, bad pointers, missing steps or effects, a
/// tolerance that does not separate before from after, are InputErrors with file and pointer.
Lesson loadLesson(const std::filesystem::path& file);
Lesson parseLesson(std::string_view text, const std::string& sourceName,
                   const std::filesystem::path& baseDir);
/// Every lesson file of a folder, in chapter order ("0.2" before "0.10"). Throws InputError
/// for the first bad one.
std::vector<Lesson> loadLessons(const std::filesystem::path& folder);

/// The lesson's scenario as it starts.
Scenario lessonScenario(const Lesson& lesson, const Catalog& catalog, const LoadOptions& options);
/// `start` (the lesson's scenario, or the document a learner has changed since) with step
/// `step`'s values set, read by the scenario reader's rules.
Scenario lessonStepScenario(const Lesson& lesson, std::size_t step, const Scenario& start,
                            const Catalog& catalog, const LoadOptions& options);

/// An effect's value in a run, in the effect's unit; nullopt when the run lacks it (no such
/// KPI, the job never started).
std::optional<double> measureEffect(const LessonEffect& effect, const Results& results);
/// The effect's `says` with {before}, {after} (the claimed numbers) and {change} filled in,
/// "fragmentation rises from 5 % to 40 %".
std::string effectText(const LessonEffect& effect);
/// A number in an effect's unit: "40 %", "3.5 h", "12 min".
std::string formatEffectValue(double value, const std::string& unit);

/// What a run before and after a step showed against the claim: empty when every effect
/// holds (each measurement within its tolerance of the claimed number, and moving the claimed
/// way), else a line per effect that does not.
std::vector<std::string> checkLessonStep(const Lesson& lesson, std::size_t step,
                                         const Results& before, const Results& after);

}  // namespace gpuplan
