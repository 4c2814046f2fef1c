// RunOptions::onPartialResults: a long run hands over the results so far while it goes. Each
// snapshot is the run cut at the simulated time it reached, finished by copies of the meters;
// taking them changes nothing in the run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// 4 nodes of 8 GPUs (32, all Ready throughout); 1-GPU jobs of 1 h at 10 an hour and 8-GPU
/// jobs of 2 h at 1 an hour ask 10 + 16 = 26 GPUs on average (81 %). Six days of samples
/// every 60 s (8,640) and ~1,600 arrivals and as many ends: some 11,000 loop steps, so a
/// snapshot every 4,096 steps gives two.
Scenario busyFleet() {
    Scenario s = test::smallFleet(1, 4, "n8");
    s.horizonS = 6 * 86400;
    s.jobClasses = {test::jobClass("small", 1, 10, 3600), test::jobClass("gang", 8, 1, 7200)};
    return s;
}

}  // namespace

TEST_CASE("partial results are the run cut at their time", "[partial]") {
    const Scenario s = busyFleet();
    const Results whole = test::run(s);
    std::vector<std::shared_ptr<const Results>> partials;
    RunOptions options;
    options.partialResultsEveryS = 0;  // at every chance: each 4,096 loop steps
    options.onPartialResults = [&](std::shared_ptr<const Results> r) { partials.push_back(r); };
    const Results watched = simulate(s, options);

    // Taking snapshots changes nothing in the run.
    CHECK(watched.fingerprint == whole.fingerprint);
    REQUIRE(watched.kpis.size() == whole.kpis.size());
    for (std::size_t k = 0; k < whole.kpis.size(); ++k)
        CHECK((watched.kpis[k].value == whole.kpis[k].value ||
               (std::isnan(watched.kpis[k].value) && std::isnan(whole.kpis[k].value))));
    CHECK_FALSE(watched.partial);
    CHECK(watched.endS == s.horizonS);

    REQUIRE(partials.size() >= 2);
    double previousS = 0;
    for (const auto& p : partials) {
        const double t = p->endS;
        CHECK(p->partial);
        CHECK(t > previousS);
        CHECK(t < s.horizonS);
        previousS = t;

        // Allocation so far, from the whole run's bindings cut at t: 32 GPUs were provisioned
        // all along, so allocation_mean = Σ GPUs × (min(end, t) − start)⁺ ÷ (32 × t).
        double boundGpuS = 0;
        for (const RunSegment& seg : whole.segments)
            boundGpuS +=
                whole.gpuEquivalentsOf(seg) * std::max(0.0, std::min(seg.endS, t) - seg.startS);
        CHECK(p->kpi("allocation_mean") == Approx(boundGpuS / (32 * t)).epsilon(1e-9));
        // Jobs submitted before t, and no later one.
        const auto submitted =
            std::count_if(whole.jobs.begin(), whole.jobs.end(),
                          [&](const JobRecord& j) { return j.spec.submitS < t; });
        CHECK(p->kpi("jobs_submitted") == static_cast<double>(submitted));

        // The samples so far, the same values (the last one's interval is cut at t).
        REQUIRE(p->sampleTimesS.size() <= whole.sampleTimesS.size());
        CHECK(
            std::equal(p->sampleTimesS.begin(), p->sampleTimesS.end(), whole.sampleTimesS.begin()));
        const std::vector<double>& allocation = p->findSeries("allocation")->values;
        REQUIRE(allocation.size() == p->sampleTimesS.size());
        for (std::size_t k = 0; k + 1 < allocation.size(); ++k)
            CHECK(allocation[k] == Approx(whole.findSeries("allocation")->values[k]));

        // Bindings: the same ones, those still open ending at t.
        REQUIRE(p->segments.size() <= whole.segments.size());
        for (std::size_t i = 0; i < p->segments.size(); ++i) {
            const RunSegment& cut = p->segments[i];
            const RunSegment& full = whole.segments[i];
            CHECK(cut.job == full.job);
            CHECK(cut.startS == full.startS);
            CHECK(cut.endS == std::min(full.endS, t));
            if (full.endS > t) CHECK(cut.end == SegmentEnd::Horizon);
        }
        // The cluster at an earlier time is the whole run's.
        const double earlierS = t / 2;
        CHECK(p->stateAt(earlierS).runningJobs == whole.stateAt(earlierS).runningJobs);
        CHECK(p->gpuTimeline.intervalCount() <= whole.gpuTimeline.intervalCount());
    }
}
