// Results::gpuTimeline: each GPU's holds by start time, lanes for holds that overlap, and
// the lookups the timeline rows and Results::stateAt make.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <vector>

#include "gpuplan/results/gpu_timeline.hpp"
#include "gpuplan/results/results.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

std::vector<std::uint32_t> segmentsIn(std::span<const GpuInterval> holds) {
    std::vector<std::uint32_t> out;
    for (const GpuInterval& h : holds)
        out.push_back(h.segment);
    return out;
}

std::vector<std::uint32_t> segmentsAt(const GpuTimeline& t, std::size_t gpu, double timeS) {
    std::vector<std::uint32_t> out;
    t.forEachAt(gpu, timeS, [&](const GpuInterval& h) { out.push_back(h.segment); });
    return out;
}

}  // namespace

TEST_CASE("a GPU's holds come in start order, overlapping shares in lanes", "[timeline]") {
    // node0 has GPUs 0 and 1, node1 has GPU 2 (firstGpuOfNode {0, 2, 3}).
    //   s0 [0, 100)   node0 GPUs 0+1 whole
    //   s1 [50, 300)  node1 GPU 2, 500 milli      lane 0
    //   s2 [60, 80)   node1 GPU 2, 500 milli      lane 1 (lane 0 busy until 300)
    //   s3 [90, 400)  node1 GPU 2, 250 milli      lane 1 (free since 80)
    //   s4 [100, 250) node0 GPU 0 whole           (s0 left it at 100)
    //   s5 [120, 130) a pod that holds no GPU
    const std::vector<PodPlacement> pods = {
        {.node = 0, .gpuMask = 0b11},
        {.node = 1, .milliGpu = 500, .gpuMask = 0b1},
        {.node = 1, .milliGpu = 500, .gpuMask = 0b1},
        {.node = 1, .milliGpu = 250, .gpuMask = 0b1},
        {.node = 0, .gpuMask = 0b01},
        {.node = 0, .gpuMask = 0},
    };
    const double spans[6][2] = {{0, 100}, {50, 300}, {60, 80}, {90, 400}, {100, 250}, {120, 130}};
    std::vector<RunSegment> segs;
    for (std::uint32_t s = 0; s < 6; ++s)
        segs.push_back(RunSegment{.job = s,
                                  .startS = spans[s][0],
                                  .endS = spans[s][1],
                                  .placementBegin = s,
                                  .placementCount = 1});
    const std::vector<int> firstGpuOfNode = {0, 2, 3};
    const GpuTimeline t(segs, pods, firstGpuOfNode, 3);

    REQUIRE(t.gpuCount() == 3);
    CHECK(t.intervalCount() == 6);  // s0 twice, s1..s4 once, s5 none
    CHECK(segmentsIn(t.intervalsOf(0)) == std::vector<std::uint32_t>{0, 4});
    CHECK(segmentsIn(t.intervalsOf(1)) == std::vector<std::uint32_t>{0});
    CHECK(segmentsIn(t.intervalsOf(2)) == std::vector<std::uint32_t>{1, 2, 3});
    CHECK(t.lanesOf(0) == 1);
    CHECK(t.lanesOf(2) == 2);
    CHECK(t.intervalsOf(2)[1].lane == 1);
    CHECK(t.intervalsOf(2)[2].lane == 1);
    CHECK(t.intervalsOf(2)[2].milliGpu == 250);

    // Holds are half-open: at 100 s0 has left GPU 0 and s4 holds it.
    CHECK(segmentsAt(t, 0, 99.9) == std::vector<std::uint32_t>{0});
    CHECK(segmentsAt(t, 0, 100) == std::vector<std::uint32_t>{4});
    CHECK(segmentsAt(t, 1, 100).empty());
    CHECK(segmentsAt(t, 2, 70) == std::vector<std::uint32_t>{1, 2});
    CHECK(segmentsAt(t, 2, 80) == std::vector<std::uint32_t>{1});
    CHECK(segmentsAt(t, 2, 350) == std::vector<std::uint32_t>{3});
    CHECK(segmentsAt(t, 2, 400).empty());
    // A view of [260, 500] on GPU 2 sees s1 (until 300) and s3: every hold overlapping it is
    // among the candidates.
    std::vector<std::uint32_t> seen;
    for (const GpuInterval& h : t.candidatesIn(2, 260, 500))
        if (h.endS > 260) seen.push_back(h.segment);
    CHECK(seen == std::vector<std::uint32_t>{1, 3});
    // On a GPU held whole, only the holds overlapping the view: [150, 160] on GPU 0 is s4's.
    CHECK(segmentsIn(t.candidatesIn(0, 150, 160)) == std::vector<std::uint32_t>{4});
}

TEST_CASE("the cluster at any t from the timeline equals a scan of every binding", "[timeline]") {
    // A time-sliced node beside whole-GPU nodes, jobs arriving for a day: at 97 instants
    // (and at every binding's own start and end), each GPU's occupants and the running jobs
    // from the lookup equal what a scan of all bindings finds.
    Scenario s = test::smallFleet(1, 3, "n4");
    s.horizonS = 86400;
    GpuSharingDef sharing;
    sharing.mode = SharingMode::TimeSlicing;
    sharing.timeSliceReplicas = 4;
    s.pods[0].racks[0].nodes[0].sharing = sharing;
    s.jobClasses.push_back(test::jobClass("whole", 2, 6, 3600));
    JobClassDef shares = test::jobClass("share", 1, 8, 1800);
    shares.traits.gpuMilli = 250;
    s.jobClasses.push_back(shares);
    const Results r = test::run(s);
    REQUIRE(r.segments.size() > 50);
    const auto scan = [&](double t) {
        std::vector<std::vector<std::uint32_t>> byGpu(r.firstGpuOfNode.back());
        for (const RunSegment& seg : r.segments)
            if (seg.startS <= t && t < seg.endS)
                for (const PodPlacement& pod : r.placementOf(seg))
                    for (std::uint64_t m = pod.gpuMask; m != 0; m &= m - 1)
                        byGpu[r.firstGpuOfNode[pod.node] + std::countr_zero(m)].push_back(seg.job);
        for (auto& jobs : byGpu)
            std::sort(jobs.begin(), jobs.end());
        return byGpu;
    };
    std::vector<double> times;
    for (int k = 0; k <= 96; ++k)
        times.push_back(k * 900.0);
    for (const RunSegment& seg : r.segments)
        times.insert(times.end(), {seg.startS, seg.endS});
    for (double t : times) {
        const ClusterSnapshot at = r.stateAt(t);
        const auto expected = scan(t);
        std::vector<std::uint32_t> running;
        for (std::size_t g = 0; g < expected.size(); ++g) {
            std::vector<std::uint32_t> got;
            for (const GpuOccupant& o : at.occupantsOf(static_cast<int>(g)))
                got.push_back(o.job);
            CHECK(got == expected[g]);
            running.insert(running.end(), got.begin(), got.end());
        }
        std::sort(running.begin(), running.end());
        running.erase(std::unique(running.begin(), running.end()), running.end());
        CHECK(at.runningJobs == running);
    }
}
