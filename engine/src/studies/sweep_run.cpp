// Running a sweep, its CSVs, merging shards and the bisection of "find"
// (gpuplan/studies/sweep.hpp).
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <map>
#include <mutex>
#include <set>

#include "gpuplan/core/parallel_runs.hpp"
#include "gpuplan/core/statistics.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/studies/replications.hpp"
#include "gpuplan/studies/sweep.hpp"
#include "io/csv_text.hpp"
#include "io/text_lines.hpp"

namespace gpuplan {

using detail::csvExactNumber;
using detail::csvField;
using detail::csvNumber;

namespace {

/// Runs the given runs (indices into the sweep's points × replications) in parallel; each
/// point's scenario is read once, before any run, so a bad value fails first.
std::vector<SweepRun> runRuns(const SweepSpec& spec, const std::vector<std::size_t>& runIndices,
                              const Catalog& catalog, const LoadOptions& loadOptions,
                              const SweepOptions& options, const ProgressFn& progress,
                              std::stop_token stop) {
    const auto replications = static_cast<std::size_t>(spec.replications);
    // The scenario file read once; each point it runs checked before any run (a bad value
    // fails first), then built again by each run (memory stays one scenario per thread).
    const std::string scenarioText = sweepScenarioText(spec);
    std::set<std::size_t> points;
    for (std::size_t run : runIndices)
        points.insert(run / replications);
    for (std::size_t point : points)
        (void)scenarioAtPoint(spec, scenarioText, point, catalog, loadOptions);
    std::vector<SweepRun> rows(runIndices.size());
    std::mutex progressLock;
    std::size_t done = 0;
    const bool finished = runInParallel(
        runIndices.size(), options.threads,
        [&](std::size_t i, std::stop_token runStop) {
            SweepRun& row = rows[i];
            row.run = runIndices[i];
            row.point = row.run / replications;
            row.replication = static_cast<int>(row.run % replications);
            try {
                const Scenario scenario =
                    scenarioAtPoint(spec, scenarioText, row.point, catalog, loadOptions);
                row.seed = replicationSeed(scenario.seed, row.replication);
                RunOptions run = options.run;
                run.seed = row.seed;
                run.counters = nullptr;  // shared by every run at once: they would race
                run.onPartialResults = nullptr;
                const Results results = simulate(scenario, run, {}, runStop);
                if (results.stopped) return false;
                for (const Kpi& k : results.kpis)
                    row.kpis.emplace_back(k.name, k.value);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument("sweep " + spec.sourceName + ", point " +
                                            std::to_string(row.point) + ", replication " +
                                            std::to_string(row.replication) + ": " + e.what());
            }
            const std::lock_guard held(progressLock);
            ++done;
            if (progress) progress(static_cast<double>(done) / runIndices.size());
            return true;
        },
        stop);
    if (!finished) return {};
    return rows;
}

/// Every KPI any run has, in name order: columns that do not depend on which runs a shard
/// held, so shards merge into one machine's bytes.
std::vector<std::string> kpiColumns(const std::vector<SweepRun>& runs) {
    std::set<std::string> names;
    for (const SweepRun& r : runs)
        for (const auto& [name, value] : r.kpis)
            names.insert(name);
    return {names.begin(), names.end()};
}

double kpiOf(const SweepRun& r, const std::string& name) {
    for (const auto& [n, v] : r.kpis)
        if (n == name) return v;
    return std::nan("");
}

std::string parameterHeader(const SweepSpec& spec) {
    std::string out;
    for (const std::string& p : spec.pointers)
        out += "," + csvField(p);
    return out;
}

std::string parameterCells(const SweepSpec& spec, std::size_t point) {
    std::string out;
    for (const std::string& v : spec.points[point])
        out += "," + csvField(v);
    return out;
}

}  // namespace

std::vector<SweepRun> runSweep(const SweepSpec& spec, const Catalog& catalog,
                               const LoadOptions& loadOptions, const SweepOptions& options,
                               const ProgressFn& progress, std::stop_token stop) {
    if (options.shard.count < 1 || options.shard.index < 1 ||
        options.shard.index > options.shard.count)
        throw std::invalid_argument("a shard is K/N with 1 <= K <= N");
    std::vector<std::size_t> runs;
    for (std::size_t r = 0; r < spec.runCount(); ++r)
        if (r % static_cast<std::size_t>(options.shard.count) ==
            static_cast<std::size_t>(options.shard.index - 1))
            runs.push_back(r);
    return runRuns(spec, runs, catalog, loadOptions, options, progress, stop);
}

std::string sweepRunsCsv(const SweepSpec& spec, const std::vector<SweepRun>& runs) {
    const std::vector<std::string> kpis = kpiColumns(runs);
    std::string out = "run,point" + parameterHeader(spec) + ",replication,seed";
    for (const std::string& k : kpis)
        out += "," + csvField(k);
    out += "\n";
    for (const SweepRun& r : runs) {
        out += std::to_string(r.run) + "," + std::to_string(r.point) +
               parameterCells(spec, r.point) + "," + std::to_string(r.replication) + "," +
               std::to_string(r.seed);
        for (const std::string& k : kpis)
            out += "," + csvExactNumber(kpiOf(r, k));
        out += "\n";
    }
    return out;
}

std::vector<SweepRun> parseSweepRunsCsv(std::string_view text, const std::string& sourceName,
                                        const SweepSpec& spec) {
    detail::TextLines lines(text);
    std::string_view line;
    const auto fail = [&](const std::string& message) -> void {
        throw InputError(sourceName,
                         "line " + std::to_string(std::max<std::size_t>(1, lines.lineNumber())),
                         message);
    };
    if (!lines.next(line)) fail("empty: expected the header of a sweep's runs.csv");
    const auto header = detail::csvFields(line);
    const std::size_t fixed =
        4 + spec.pointers.size();  // run, point, parameters, replication, seed
    if (!header || header->size() < fixed || (*header)[0] != "run" || (*header)[1] != "point" ||
        (*header)[fixed - 2] != "replication" || (*header)[fixed - 1] != "seed")
        fail("not the header of this sweep's runs.csv (run,point,<parameters>,replication,seed,…)");
    for (std::size_t k = 0; k < spec.pointers.size(); ++k)
        if ((*header)[2 + k] != spec.pointers[k])
            fail("parameter column " + std::to_string(k + 1) + " is \"" + (*header)[2 + k] +
                 "\", the sweep's is \"" + spec.pointers[k] + "\" (runs of another sweep?)");
    const std::vector<std::string> kpis(header->begin() + static_cast<long>(fixed), header->end());
    const auto whole = [&](const std::string& cell, std::uint64_t max, const char* what) {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
        if (ec != std::errc() || end != cell.data() + cell.size() || v > max)
            fail(std::string(what) + " \"" + cell + "\" is not a whole number up to " +
                 std::to_string(max));
        return v;
    };
    std::vector<SweepRun> runs;
    while (lines.next(line)) {
        if (line.empty()) continue;
        const auto cells = detail::csvFields(line);
        if (!cells) fail("broken quoting");
        if (cells->size() != header->size())
            fail(std::to_string(cells->size()) + " fields, the header has " +
                 std::to_string(header->size()));
        SweepRun r;
        r.run = whole((*cells)[0], spec.runCount() - 1, "run");
        r.point = whole((*cells)[1], spec.points.size() - 1, "point");
        r.replication =
            static_cast<int>(whole((*cells)[fixed - 2], spec.replications - 1, "replication"));
        r.seed = whole((*cells)[fixed - 1], UINT64_MAX, "seed");
        if (r.run != r.point * spec.replications + r.replication)
            fail("run " + std::to_string(r.run) + " is not point × replications + replication");
        for (std::size_t k = 0; k < spec.pointers.size(); ++k)
            if ((*cells)[2 + k] != spec.points[r.point][k])
                fail("point " + std::to_string(r.point) + " sets " + spec.pointers[k] + " to " +
                     (*cells)[2 + k] + ", the sweep to " + spec.points[r.point][k]);
        for (std::size_t k = 0; k < kpis.size(); ++k) {
            const std::string& cell = (*cells)[fixed + k];
            // Empty: the run measured nothing there. Kept (NaN) so the column stays, as it
            // does in one machine's file.
            if (cell.empty()) {
                r.kpis.emplace_back(kpis[k], std::nan(""));
                continue;
            }
            double v = 0;
            const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
            if (ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(v))
                fail(kpis[k] + " \"" + cell + "\" is not a number");
            r.kpis.emplace_back(kpis[k], v);
        }
        runs.push_back(std::move(r));
    }
    return runs;
}

std::vector<SweepRun> mergeSweepRuns(const SweepSpec& spec,
                                     std::vector<std::vector<SweepRun>> shards) {
    std::vector<SweepRun> all;
    for (auto& shard : shards)
        for (SweepRun& r : shard)
            all.push_back(std::move(r));
    std::sort(all.begin(), all.end(),
              [](const SweepRun& a, const SweepRun& b) { return a.run < b.run; });
    std::string twice, missing;
    int twiceCount = 0, missingCount = 0;
    std::size_t next = 0;
    const auto note = [](std::string& list, int& count, std::size_t run) {
        if (++count <= 10) list += (list.empty() ? "" : ", ") + std::to_string(run);
    };
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (i > 0 && all[i].run == all[i - 1].run) {
            note(twice, twiceCount, all[i].run);
            continue;
        }
        for (; next < all[i].run; ++next)
            note(missing, missingCount, next);
        next = all[i].run + 1;
    }
    for (; next < spec.runCount(); ++next)
        note(missing, missingCount, next);
    if (twiceCount > 0)
        throw InputError(
            spec.sourceName, "",
            std::to_string(twiceCount) + " run(s) appear in more than one shard: " + twice);
    if (missingCount > 0)
        throw InputError(spec.sourceName, "",
                         std::to_string(missingCount) + " of " + std::to_string(spec.runCount()) +
                             " run(s) are in no shard (a shard missing or cut short?): " + missing +
                             (missingCount > 10 ? ", …" : ""));
    return all;
}

std::string sweepSummaryCsv(const SweepSpec& spec, const std::vector<SweepRun>& runs) {
    const std::vector<std::string> kpis = kpiColumns(runs);
    std::string out = "point" + parameterHeader(spec) + ",runs";
    for (const std::string& k : kpis)
        out += "," + csvField(k + "_mean") + "," + csvField(k + "_ci95_low") + "," +
               csvField(k + "_ci95_high");
    out += "\n";
    ConfidenceIntervals intervals;
    std::map<std::size_t, std::vector<const SweepRun*>> byPoint;
    for (const SweepRun& r : runs)
        byPoint[r.point].push_back(&r);
    for (const auto& [point, list] : byPoint) {
        out +=
            std::to_string(point) + parameterCells(spec, point) + "," + std::to_string(list.size());
        std::vector<double> values(list.size());
        for (const std::string& k : kpis) {
            for (std::size_t i = 0; i < list.size(); ++i)
                values[i] = kpiOf(*list[i], k);
            const MeanInterval m = intervals.of(values);
            out += "," + csvNumber(m.mean) + "," + csvNumber(m.low) + "," + csvNumber(m.high);
        }
        out += "\n";
    }
    return out;
}

FindResult findSmallest(const SweepSpec& spec, const Catalog& catalog,
                        const LoadOptions& loadOptions, const SweepOptions& options,
                        const ProgressFn& progress, std::stop_token stop) {
    if (!spec.findKpi) throw std::invalid_argument("the sweep has no \"find\"");
    FindResult out;
    const auto meets = [&](std::size_t point) -> std::optional<bool> {
        std::vector<std::size_t> runs;
        for (int r = 0; r < spec.replications; ++r)
            runs.push_back(point * spec.replications + r);
        std::vector<SweepRun> rows = runRuns(spec, runs, catalog, loadOptions, options, {}, stop);
        if (rows.empty()) return std::nullopt;  // stopped
        std::vector<double> values;
        for (const SweepRun& row : rows)
            values.push_back(kpiOf(row, *spec.findKpi));
        out.probed.push_back(point);
        out.runs.insert(out.runs.end(), rows.begin(), rows.end());
        if (progress)
            progress(std::min(
                1.0, out.probed.size() / std::ceil(std::log2(spec.points.size() + 1.0) + 1)));
        const MeanInterval m = meanInterval(values);
        if (m.n == 0)
            throw InputError(spec.sourceName, "/find/kpi",
                             "no run reports \"" + *spec.findKpi + "\"");
        return m.mean <= spec.findAtMost;
    };
    // The first point that meets the target, over points that meet it from some one on.
    std::size_t lo = 0, hi = spec.points.size();  // the answer is in [lo, hi]; hi = none
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        const std::optional<bool> ok = meets(mid);
        if (!ok) return out;
        if (*ok)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo < spec.points.size()) out.point = lo;
    std::sort(out.runs.begin(), out.runs.end(),
              [](const SweepRun& a, const SweepRun& b) { return a.run < b.run; });
    return out;
}

}  // namespace gpuplan
