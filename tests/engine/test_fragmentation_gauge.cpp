// The FGD measure sampled in a time-based run (fragmentation_gauge.hpp): the target workload
// from the jobs' pods, the histogram fast path and the walk of shared nodes, worked by hand.
#include <catch2/catch.hpp>

#include "resources/cluster_state.hpp"
#include "sim/fragmentation_gauge.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using namespace gpuplan::detail;

namespace {

JobRecord jobOf(int gpusPerPod, int pods, int milli = 1000) {
    JobRecord r;
    r.spec.gpus = gpusPerPod * pods;
    r.spec.gpusPerPod = gpusPerPod;
    r.spec.gpuMilli = static_cast<std::uint16_t>(milli);
    return r;
}

}  // namespace

TEST_CASE("fragmentation of a running fleet, by hand", "[fragmentation]") {
    // Two nodes of 4 GPUs; node 0 shares its GPUs under MPS.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.pods[0].racks[0].nodes[0].count = 1;
    NodeGroupDef whole = s.pods[0].racks[0].nodes[0];
    s.pods[0].racks[0].nodes[0].sharing.mode = SharingMode::Mps;
    whole.name = "whole";
    s.pods[0].racks[0].nodes.push_back(whole);
    const Fleet fleet = Fleet::build(s);
    REQUIRE(fleet.nodes.size() == 2);

    // Jobs: three of one whole GPU, one of a 500 milli-GPU share → 4 tasks, groups by count:
    // whole ×3, share ×1. The cut takes groups while fewer than 95 % of 4 = 3.8 tasks are
    // covered: whole (3), then share (4). p(whole) = 3/4, p(share) = 1/4.
    const std::vector<JobRecord> jobs{jobOf(1, 1), jobOf(1, 1), jobOf(1, 1), jobOf(1, 1, 500)};
    const FragmentationGauge gauge(jobs, fleet);
    REQUIRE(gauge.workload().size() == 2);
    CHECK(gauge.workload()[0].gpuMilli == 1000);
    CHECK(gauge.workload()[0].probability == Approx(0.75));
    CHECK(gauge.workload()[1].gpuMilli == 500);

    ClusterState state(fleet);
    // Empty: every GPU wholly free, both tasks fit everywhere, no GPU below either size:
    // F = 0, free = 8000 milli-GPU.
    ClusterFragmentation f = gauge.measure(state);
    CHECK(f.fragmentMilli == 0);
    CHECK(f.freeMilli == 8000);

    // Node 0: GPU 0 holds a 700 share (300 left), GPU 1 free, GPUs 2–3 held whole.
    // Node 1: GPUs 0–2 held whole, GPU 3 free.
    state.occupy(PodPlacement{.node = 0, .milliGpu = 700, .gpuMask = 0b0001}, {});
    state.occupy(0, 0b1100);
    state.occupy(1, 0b0111);
    // Node 0, whole task: GPU 1 hosts it; the fragment is the free milli on GPUs too small
    // for it (< 1000): GPU 0's 300. Share task (500): GPU 1 hosts it; GPUs with < 500 free:
    // GPU 0's 300. F_0 = 0.75 · 300 + 0.25 · 300 = 300.
    // Node 1 (from the histogram): its one free GPU hosts either task; nothing below size: 0.
    // F = 300; free = 300 + 1000 + 1000 = 2300; ratio = 300 / 2300; amount = 300 / 8000.
    f = gauge.measure(state);
    CHECK(f.fragmentMilli == Approx(300));
    CHECK(f.freeMilli == 2300);
    CHECK(f.ratioPercent() == Approx(100.0 * 300 / 2300));
    CHECK(f.amountPercent() == Approx(100.0 * 300 / 8000));

    // Node 0's GPU 1 taken whole too: node 0 has only GPU 0's 300 left. Whole task: cannot
    // host → all 300 count. Share task: 300 < 500, cannot host → all 300 count. F_0 = 300.
    // Node 1 unchanged: 0. Free = 300 + 1000.
    state.occupy(0, 0b0010);
    f = gauge.measure(state);
    CHECK(f.fragmentMilli == Approx(300));
    CHECK(f.freeMilli == 1300);

    // Node 1's last GPU taken: no node hosts a whole task. Node 1 has nothing free: 0.
    state.occupy(1, 0b1000);
    f = gauge.measure(state);
    CHECK(f.fragmentMilli == Approx(300));
    CHECK(f.freeMilli == 300);
    CHECK(f.ratioPercent() == Approx(100));
}

TEST_CASE("a whole-GPU node's fragment comes from its free count alone", "[fragmentation]") {
    // Jobs of 2 GPUs per pod only: a node with 1 free GPU cannot host the task, so its 1000
    // free milli-GPU all count; with 2 or more free it hosts it and nothing counts (wholly
    // free GPUs are never below 1000). Node 0: 1 free; node 1: 3 free.
    // F = 1000; free = 4000; ratio 25 %, amount 1000 / 8000 = 12.5 %.
    const Fleet fleet = Fleet::build(test::smallFleet(1, 2, "n4"));
    const std::vector<JobRecord> jobs{jobOf(2, 1), jobOf(2, 3)};
    const FragmentationGauge gauge(jobs, fleet);
    ClusterState state(fleet);
    state.occupy(0, 0b0111);
    state.occupy(1, 0b0001);
    const ClusterFragmentation f = gauge.measure(state);
    CHECK(f.fragmentMilli == Approx(1000));
    CHECK(f.freeMilli == 4000);
    CHECK(f.ratioPercent() == Approx(25));
    CHECK(f.amountPercent() == Approx(12.5));
}
