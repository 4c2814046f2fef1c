#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;
using test::job;

namespace {

/// The diagnosis of a job at the sample taken at `timeS`.
const PendingEntry* diagnosis(const Results& r, const std::string& name, double timeS) {
    const auto k = static_cast<std::size_t>(timeS / r.sampleIntervalS);
    for (const PendingEntry& e : r.pendingAtSample(k))
        if (r.jobName(e.job) == name) return &e;
    return nullptr;
}

std::string reason(const Results& r, const PendingEntry* e) {
    return e ? r.reasons[e->reason] : "<not pending>";
}

}  // namespace

TEST_CASE("reservation layer: the fleet could never hold the job") {
    // One node of 4 GPUs; a gang of 2 pods × 4 GPUs needs 8. Even empty, the fleet holds one
    // such pod. The node itself would take one pod, so kube-scheduler counts it available.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.jobs = {job("too-big", 8, 600, 0, 4)};
    const Results r = test::run(s);
    const PendingEntry* e = diagnosis(r, "too-big", 120);
    REQUIRE(e);
    CHECK(e->layer == Layer::Reservation);
    CHECK(reason(r, e) ==
          "1/1 nodes are available. The gang needs 2 pods of 4 GPUs. Reservation: even empty and "
          "healthy, the fleet holds 1 of the 2 pods of 4 GPUs this job needs (8 GPUs asked, 4 "
          "bought there).");
    CHECK(r.findSeries("pending_gpus{reservation}")->values[2] == 8);
}

TEST_CASE("reservation layer: a GPU model nobody bought") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.jobs = {job("wants-big", 1, 600)};
    s.jobs[0].traits.gpuModel = "tg-big";
    test::resolveHardware(s);
    const Results r = test::run(s);
    const PendingEntry* e = diagnosis(r, "wants-big", 60);
    REQUIRE(e);
    CHECK(e->layer == Layer::Reservation);
    CHECK(reason(r, e) ==
          "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. "
          "Reservation: no node in the fleet has tg-big GPUs; none were bought.");
}

TEST_CASE("provisioning layer: bought but not Ready") {
    // Two nodes of 4; the second is still being provisioned until t = 3600. A gang of
    // 2 pods × 4 fits the fleet but not the one Ready node; it starts when the node arrives.
    Scenario s = test::smallFleet(1, 2, "n4");
    NodeGroupDef late = s.pods[0].racks[0].nodes[0];
    late.name = "late";
    late.count = 1;
    late.state = NodeState::Provisioning;
    late.readyAtS = 3600;
    s.pods[0].racks[0].nodes[0].count = 1;
    s.pods[0].racks[0].nodes.push_back(late);
    s.jobs = {job("gang", 8, 600, 0, 4)};
    const Results r = test::run(s);
    const PendingEntry* e = diagnosis(r, "gang", 60);
    REQUIRE(e);
    CHECK(e->layer == Layer::Provisioning);
    CHECK(reason(r, e) ==
          "1/2 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: "
          "}. The gang needs 2 pods of 4 GPUs. Provisioning: 4 of 8 bought GPUs in the fleet are "
          "Ready; empty Ready nodes would hold 1 of the 2 pods it needs.");
    CHECK(r.jobs[test::jobIndex(r, "gang")].firstStartS == 3600);
}

TEST_CASE("scheduling layer: running jobs, fragmentation and queue order") {
    // Two nodes of 4 GPUs.
    Scenario s = test::smallFleet(1, 2, "n4");
    SECTION("busy: another job holds the GPUs") {
        s.jobs = {job("long", 8, 7200, 0, 4), job("waiting", 2, 60, 10)};
        const Results r = test::run(s);
        const PendingEntry* e = diagnosis(r, "waiting", 60);
        REQUIRE(e);
        CHECK(e->layer == Layer::Scheduling);
        CHECK(reason(r, e) ==
              "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. Scheduling: 0 of 8 Ready "
              "GPUs in the fleet are free and the job asks 2 GPUs; running jobs hold the rest.");
    }
    SECTION("fragmentation: 4 GPUs free, but 2 on each node") {
        s.jobs = {job("a", 2, 7200), job("b", 2, 7200, 0), job("four", 4, 60, 10)};
        s.scheduler.placement = PlacementPolicy::Spread;  // a and b land on different nodes
        const Results r = test::run(s);
        const PendingEntry* e = diagnosis(r, "four", 60);
        REQUIRE(e);
        CHECK(e->layer == Layer::Scheduling);
        CHECK(reason(r, e) ==
              "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. Scheduling "
              "(fragmentation): 4 GPUs are free in the fleet, enough in total, but no node has 4 "
              "of them free for the pod.");
    }
    SECTION("fragmentation of a gang: 6 GPUs free as 3 + 3, but only one pod of 2 per node") {
        // "a" and "b" hold 1 GPU each (one per node): 3 + 3 free. A gang of 2 pods × 2 fits
        // (one pod per node); a gang of 3 pods × 2 needs 6 GPUs and 6 are free, but each node
        // takes only one pod of 2 (3 free → ⌊3/2⌋ = 1), so 2 of its 3 pods fit.
        s.jobs = {job("a", 1, 7200), job("b", 1, 7200), job("gang", 6, 60, 10, 2)};
        s.scheduler.placement = PlacementPolicy::Spread;
        const Results r = test::run(s);
        const PendingEntry* e = diagnosis(r, "gang", 60);
        REQUIRE(e);
        CHECK(e->layer == Layer::Scheduling);
        CHECK(reason(r, e) ==
              "2/2 nodes are available. The gang needs 3 pods of 2 GPUs. Scheduling "
              "(fragmentation): 6 GPUs are free in the fleet, enough in total, but only 2 of the "
              "gang's 3 pods of 2 GPUs fit on them.");
    }
    SECTION("queue order: fits now, but would delay the reserved head") {
        // "head" (8 GPUs) waits for "first" (4 GPUs, until 7200) and is reserved both nodes
        // from 7200. "later" (4 GPUs, 2 h, submitted at 2) fits the free node now but would
        // run until 7202, past the head's start, so EASY backfill holds it back.
        s.jobs = {job("first", 4, 7200), job("head", 8, 600, 1, 4), job("later", 4, 7200, 2)};
        const Results r = test::run(s);
        const PendingEntry* e = diagnosis(r, "later", 60);
        REQUIRE(e);
        CHECK(e->layer == Layer::Scheduling);
        CHECK(reason(r, e) ==
              "1/2 nodes are available: 1 Insufficient nvidia.com/gpu. Scheduling (queue order): "
              "fits now, but starting it would delay head (priority 0), which holds a backfill "
              "reservation to start in 119 min: it fits only on GPUs held for it, and even at "
              "full speed it would run past that start.");
        CHECK(r.jobs[test::jobIndex(r, "head")].firstStartS == 7200);
        CHECK(r.jobs[test::jobIndex(r, "later")].firstStartS == 7800);
    }
}

TEST_CASE("workload layer: placed but crash-looping out of memory") {
    // 100 GB per GPU on an 80 GB GPU: bound, never progressing. Each attempt runs
    // max(startupS, 30 s) = 30 s; 7 attempts and back-offs of 10+20+40+80+160+300 s:
    // 7·30 + 610 = 820 s, then the job fails and frees its GPUs.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.jobs = {job("oom", 4, 3600)};
    s.jobs[0].traits.memoryGbPerGpu = 100;
    const Results r = test::run(s);
    CHECK(crashLoopHoldS(0) == 820);
    const PendingEntry* e = diagnosis(r, "oom", 120);
    REQUIRE(e);
    CHECK(e->layer == Layer::Workload);
    CHECK(reason(r, e) ==
          "Workload: CrashLoopBackOff: back-off restarting failed container: CUDA out of memory: "
          "needs 100 GB per GPU, tg has 80 GB. It holds 4 GPUs and makes no progress.");
    const JobRecord& j = r.jobs[test::jobIndex(r, "oom")];
    CHECK(j.status == JobStatus::Failed);
    CHECK(j.endS == 820);
    // Allocated but not useful: occupancy and useful work stay 0.
    CHECK(r.kpi("gpu_hours_useful") == 0);
    CHECK(r.kpi("gpu_hours_allocated") == Approx(4 * 820 / 3600.0));
}

TEST_CASE("workload layer: starting up") {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.jobs = {job("slow-start", 4, 3600)};
    s.jobs[0].traits.startupS = 300;
    const Results r = test::run(s);
    const PendingEntry* e = diagnosis(r, "slow-start", 120);
    REQUIRE(e);
    CHECK(e->layer == Layer::Workload);
    // The start-up's whole length (300 s), not the time spent in it so far (120 s: the
    // pending list's Waiting column says that); the trial read "for 3 min" as the latter.
    CHECK(reason(r, e) ==
          "Workload: ContainerCreating: bound, starting up (image pull, model load), which "
          "takes 5 min in all; no useful progress yet.");
    CHECK_FALSE(diagnosis(r, "slow-start", 600));  // progressing by then
    CHECK(r.jobs[0].endS == 3900);
}

TEST_CASE("provisioning layer: a job waits for capacity that went down, not for running jobs") {
    // Two 4-GPU nodes; "a" (4 GPUs, a day) binds on node0 and "b" (4 GPUs, a day) on node1 at
    // 0. node1 fails at 1,000 and is repaired at 10,000: "b" is evicted and queued. Empty, the
    // Ready node0 would hold it (judged by an empty fleet: scheduling), but what is free now holds
    // none of its pod and the failed node1 would hold it: it waits on the provisioning layer.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.sampleIntervalS = 600;
    s.horizonS = 86400;
    s.jobs = {job("a", 4, 86400), job("b", 4, 86400)};
    s.nodeEvents = {{1000, "pod-rack-node1", NodeState::Failed},
                    {10000, "pod-rack-node1", NodeState::Ready}};
    const Results r = test::run(s);
    const PendingEntry* e = diagnosis(r, "b", 1200);
    REQUIRE(e);
    CHECK(e->layer == Layer::Provisioning);
    CHECK_THAT(reason(r, e), Catch::Contains("Provisioning (capacity down)"));
    CHECK_THAT(reason(r, e), Catch::Contains("free ones hold 0 of the 1 pods"));
    // Repaired at 10,000: "b" starts there at once.
    CHECK(r.segments[r.jobs[test::jobIndex(r, "b")].lastSegment].startS == 10000);
}

TEST_CASE("scheduling layer: a job that down capacity would not let in blames running jobs") {
    // Three 4-GPU nodes held by "a", "b" and "d"; node1 ("b") fails at 1,000. "c" (8 GPUs,
    // two pods of 4, from 10) would fit on the Ready nodes empty (node0, node2), and free now
    // plus node1 empty hold one of its two pods: with node1 back it would still wait for a
    // running job, so the running jobs are the reason: scheduling.
    Scenario s = test::smallFleet(1, 3, "n4");
    s.sampleIntervalS = 600;
    s.horizonS = 86400;
    s.jobs = {job("a", 4, 86400), job("b", 4, 86400), job("d", 4, 86400), job("c", 8, 3600, 10, 4)};
    s.nodeEvents = {{1000, "pod-rack-node1", NodeState::Failed}};
    const Results r = test::run(s);
    const PendingEntry* e = diagnosis(r, "c", 1200);
    REQUIRE(e);
    CHECK(e->layer == Layer::Scheduling);
}
