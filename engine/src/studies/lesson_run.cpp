// A lesson's scenarios, its effects measured in runs and checked against the claim, and the
// claim in words (gpuplan/studies/lesson.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <tuple>

#include "gpuplan/io/text_files.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/studies/lesson.hpp"
#include "gpuplan/studies/sweep.hpp"

namespace gpuplan {

namespace {

/// How many of the effect's unit one of the engine's: a fraction is 100 %, a second 1/60 min.
std::optional<double> unitScale(const std::string& effectUnit, const std::string& engineUnit) {
    if (effectUnit.empty()) return 1.0;
    if (effectUnit == "%") return engineUnit == "fraction" ? std::optional(100.0) : std::nullopt;
    // Dollars of any cost measure: "usd", "usd_per_h", "usd_per_gpu_h".
    if (effectUnit == "$") return engineUnit.starts_with("usd") ? std::optional(1.0) : std::nullopt;
    if (engineUnit != "s") return std::nullopt;
    if (effectUnit == "h") return 1 / 3600.0;
    if (effectUnit == "min") return 1 / 60.0;
    return 1.0;  // "s"
}

/// A team's measure and the engine's unit of it; nullopt when the run lacks it.
std::optional<std::pair<double, std::string>> teamMeasure(const LessonEffect& e,
                                                          const Results& results) {
    for (const GroupKpis& g : results.teamKpis) {
        if (g.name != e.team) continue;
        switch (e.teamMeasure) {
            case LessonTeamMeasure::WaitP50S:
                return std::pair{g.waitP50S, std::string("s")};
            case LessonTeamMeasure::WaitP95S:
                return std::pair{g.waitP95S, std::string("s")};
            case LessonTeamMeasure::AllocationShare:
                return std::pair{g.allocationShare, std::string("fraction")};
            case LessonTeamMeasure::GpuHours:
                return std::pair{g.gpuHours, std::string("gpu_h")};
            case LessonTeamMeasure::Completed:
                return std::pair{double(g.completed), std::string("jobs")};
            case LessonTeamMeasure::BorrowedGpus:
                return std::pair{g.borrowedGpusMean, std::string("gpus")};
            case LessonTeamMeasure::Preemptions:
                return std::pair{double(g.preemptions), std::string("jobs")};
            case LessonTeamMeasure::None:
                break;
        }
    }
    return std::nullopt;
}

std::string describe(const LessonEffect& e) {
    if (!e.kpi.empty()) return e.kpi;
    if (!e.team.empty()) return "team " + e.team + "'s measure";
    if (e.forecast != LessonForecastMeasure::None) return "the demand forecast's measure";
    if (!e.series.empty()) return "series " + e.series;
    const char* what = e.measure == LessonJobMeasure::WaitS    ? "wait"
                       : e.measure == LessonJobMeasure::StartS ? "start"
                       : e.measure == LessonJobMeasure::Mfu    ? "MFU"
                                                               : "end";
    return "job " + e.job + "'s " + what;
}

void replaceAll(std::string& text, const std::string& token, const std::string& by) {
    for (std::size_t at = text.find(token); at != std::string::npos;
         at = text.find(token, at + by.size()))
        text.replace(at, token.size(), by);
}

}  // namespace

Scenario lessonScenario(const Lesson& lesson, const Catalog& catalog, const LoadOptions& options) {
    // Read as loadScenario reads, a file that cannot be read reported at the lesson's key.
    return parseScenario(readTextFile(lesson.scenarioFile, FileNamedBy{lesson.file, "/scenario"}),
                         lesson.scenarioFile.string(), catalog, options,
                         folderOf(lesson.scenarioFile));
}

Scenario lessonStepScenario(const Lesson& lesson, std::size_t step, const Scenario& start,
                            const Catalog& catalog, const LoadOptions& options) {
    // One sweep point: the same rule for setting values as a sweep's, and the reader's checks.
    SweepSpec spec;
    spec.sourceName = lesson.file + " (step " + std::to_string(step + 1) + ")";
    spec.scenarioFile = lesson.scenarioFile;
    spec.scenarioJson = scenarioToJson(start);
    std::vector<std::string> values;
    for (const auto& [pointer, value] : lesson.steps.at(step).set) {
        spec.pointers.push_back(pointer);
        values.push_back(value);
    }
    spec.points.push_back(std::move(values));
    return scenarioAtPoint(spec, spec.scenarioJson, 0, catalog, options);
}

std::optional<double> measureEffect(const LessonEffect& effect, const Results& results) {
    double value = 0;
    std::string engineUnit = "s";
    if (!effect.kpi.empty()) {
        const Kpi* kpi = results.findKpi(effect.kpi);
        if (!kpi || !std::isfinite(kpi->value)) return std::nullopt;
        value = kpi->value;
        engineUnit = kpi->unit;
    } else if (!effect.series.empty()) {
        const Series* s = nullptr;
        for (const Series& candidate : results.series)
            if (candidate.name == effect.series) s = &candidate;
        if (!s || s->values.empty()) return std::nullopt;
        value = effect.seriesMax ? *std::max_element(s->values.begin(), s->values.end())
                                 : std::accumulate(s->values.begin(), s->values.end(), 0.0) /
                                       static_cast<double>(s->values.size());
        engineUnit = s->unit;
    } else if (effect.forecast != LessonForecastMeasure::None) {
        try {
            const DemandForecast f = forecastDemand(demandHistory(results), effect.forecastOptions);
            value =
                effect.forecast == LessonForecastMeasure::TrendGpusPerDay
                    ? f.trendGpusPerDay
                    : reservationFor(f, effect.usdPerGpuHourReserved, effect.usdPerGpuHourOnDemand)
                          .reservedGpus;
        } catch (const std::invalid_argument&) {
            return std::nullopt;  // too short a history for the season
        }
        engineUnit = "gpus";
    } else if (!effect.team.empty()) {
        const auto measured = teamMeasure(effect, results);
        if (!measured || !std::isfinite(measured->first)) return std::nullopt;
        std::tie(value, engineUnit) = *measured;
    } else {
        const JobRecord* job = nullptr;
        for (std::uint32_t j = 0; j < results.jobs.size() && !job; ++j)
            if (results.jobs[j].spec.source == JobSource::Explicit &&
                results.jobName(j) == effect.job)
                job = &results.jobs[j];
        if (!job) return std::nullopt;
        if (effect.measure == LessonJobMeasure::Mfu) {
            if (job->segmentCount == 0) return std::nullopt;  // never placed: on no GPU
            value =
                results.mfuOn(job->spec, results.gpuModelOf(results.segments[job->lastSegment]));
            engineUnit = "fraction";
        } else {
            const double at =
                effect.measure == LessonJobMeasure::EndS ? job->endS : job->firstStartS;
            if (at < 0) return std::nullopt;  // never started, or not ended by the horizon
            value = effect.measure == LessonJobMeasure::WaitS ? job->waitS() : at;
        }
    }
    const std::optional<double> scale = unitScale(effect.unit, engineUnit);
    if (!scale) return std::nullopt;
    return value * *scale;
}

std::string formatEffectValue(double value, const std::string& unit) {
    char buf[64];
    const double a = std::abs(value);
    std::snprintf(buf, sizeof buf,
                  a >= 100 || a == std::floor(a) ? "%.0f"
                  : a >= 10                      ? "%.1f"
                                                 : "%.2f",
                  value);
    if (unit == "$" && a < 100 && a != std::floor(a))
        std::snprintf(buf, sizeof buf, "%.2f", value);  // cents stay: $3.20, not $3.2
    std::string text = buf;
    if (unit != "$" && text.find('.') != std::string::npos) {  // 12.50 → 12.5, 3.00 → 3
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') text.pop_back();
    }
    if (unit != "$") return unit.empty() ? text : text + " " + unit;
    // Dollars read "$22,533", "-$1,200", "$2.41" ("-$0.00" reads "$0.00").
    if (text.find_first_not_of("-0.,") == std::string::npos && text.front() == '-')
        text.erase(0, 1);
    const bool negative = text.front() == '-';
    if (negative) text.erase(0, 1);
    const std::size_t point = text.find('.');
    for (std::size_t i = point == std::string::npos ? text.size() : point; i > 3; i -= 3)
        text.insert(i - 3, ",");
    return (negative ? "-$" : "$") + text;
}

std::string effectText(const LessonEffect& effect) {
    std::string text = effect.says;
    const double change = effect.after - effect.before;
    replaceAll(text, "{before}", formatEffectValue(effect.before, effect.unit));
    replaceAll(text, "{after}", formatEffectValue(effect.after, effect.unit));
    replaceAll(text, "{change}", (change > 0 ? "+" : "") + formatEffectValue(change, effect.unit));
    return text;
}

std::vector<std::string> checkLessonStep(const Lesson& lesson, std::size_t step,
                                         const Results& before, const Results& after) {
    std::vector<std::string> problems;
    for (const LessonEffect& e : lesson.steps.at(step).effects) {
        const std::optional<double> b = measureEffect(e, before), a = measureEffect(e, after);
        const std::string claim = "lesson " + lesson.id + ", step " + std::to_string(step + 1) +
                                  ", " + describe(e) + " (\"" + effectText(e) + "\"): ";
        if (!b || !a) {
            problems.push_back(claim + "not measured in the " + (!b ? "run before" : "run after") +
                               (e.kpi.empty()
                                    ? " (the job never started or ended)"
                                    : " (no such KPI, or not in unit \"" + e.unit + "\")"));
            continue;
        }
        const bool near =
            std::abs(*b - e.before) <= e.tolerance && std::abs(*a - e.after) <= e.tolerance;
        const bool sameWay = (*a - *b) * (e.after - e.before) > 0;
        if (!near || !sameWay)
            problems.push_back(claim + "the runs show " + formatEffectValue(*b, e.unit) + " → " +
                               formatEffectValue(*a, e.unit) + " (tolerance ±" +
                               formatEffectValue(e.tolerance, e.unit) + ")");
    }
    return problems;
}

}  // namespace gpuplan
