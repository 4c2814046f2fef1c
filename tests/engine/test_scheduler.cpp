#include <catch2/catch.hpp>

#include <functional>

#include <nlohmann/json.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using test::job;
using test::jobIndex;

namespace {

struct Span {
    double startS, endS;
};

Span spanOf(const Results& r, const std::string& name) {
    const JobRecord& j = r.jobs[jobIndex(r, name)];
    return {j.firstStartS, j.endS};
}

/// One node of 4 GPUs and the backfill example worked out below.
Scenario backfillExample(BackfillMode mode) {
    Scenario s = test::smallFleet(1, 1, "n4");
    s.scheduler.backfill = mode;
    s.jobs = {job("J0", 2, 100), job("J1", 4, 100), job("J2", 1, 50), job("J3", 1, 500)};
    return s;
}

}  // namespace

TEST_CASE("EASY backfill lets a short job pass the blocked head but not a long one") {
    // t=0: J0 takes 2 of 4 GPUs. J1 needs all 4: blocked; J0 ends at 100, so J1 is reserved
    //      to start at 100 on the node's 4 GPUs.
    //      J2 (1 GPU, 50 s) ends at 50 ≤ 100: it may use a reserved GPU → starts at 0.
    //      J3 (1 GPU, 500 s) would hold a GPU past 100: the one free GPU is reserved → waits.
    // t=100: J1 starts (J0 and J2 are gone) and ends at 200; t=200: J3 runs 200–700.
    const Results r = test::run(backfillExample(BackfillMode::Easy));
    CHECK(spanOf(r, "J0").startS == 0);
    CHECK(spanOf(r, "J1").startS == 100);
    CHECK(spanOf(r, "J2").startS == 0);
    CHECK(spanOf(r, "J2").endS == 50);
    CHECK(spanOf(r, "J3").startS == 200);
    CHECK(spanOf(r, "J3").endS == 700);
}

TEST_CASE("a job that would take the head's reserved GPUs is told it would delay the head") {
    // The example above at the sample at 60: J2 has ended, J0 holds 2 GPUs until 100, 2 are
    // free. J1 needs 4 at 100; 2 come back from J0, so both free GPUs are held for it. J3
    // (1 GPU, 500 s) fits the node now, but only on a held GPU, and would run past 100.
    const Results r = test::run(backfillExample(BackfillMode::Easy));
    REQUIRE(r.sampleTimesS[1] == 60);
    // It is told which rule keeps it out: J3 needs 500 s from 60, past J1's start at 100.
    std::string reason;
    for (const PendingEntry& e : r.pendingAtSample(1))
        if (e.job == jobIndex(r, "J3")) reason = r.reasons[e.reason];
    CHECK(reason.find("would delay J1") != std::string::npos);
    CHECK(reason.find("even at full speed it would run past that start") != std::string::npos);
}

TEST_CASE(
    "a short backfill that its policy would slow past the head's start takes a tighter "
    "placement") {
    // One pod, racks 0 and 1, two 4-GPU nodes each (test node n4: NVLink 900 GB/s, 450 one way;
    // fabric 1600 Gb/s ÷ 4 GPUs ÷ 8 = 50 GB/s per GPU; racks and pod at full bisection).
    // Pinned from t = 0: A (2 GPUs, 1000 s) on rack0-node0, B (3 GPUs, 1000 s) on
    // rack1-node0, C (4 GPUs, 500 s) on rack0-node1. Free: rack0-node0 2, rack1-node0 1,
    // rack1-node1 4.
    // t = 1: H (2 pods × 4, 100 s) finds one node with 4 free: blocked. At 500 C ends and H
    //   fits rack0-node1 + rack1-node1: reserved start 500. rack0-node1's 4 GPUs come back by
    //   then; rack1-node1's 4 are free now and are held for H.
    // t = 2: G (2 pods × 2, 100 s, topologySensitivity 0.5) could end at 102 ≤ 500 at full
    //   speed. Beside the hold only rack0-node0 (2) and rack1-node0 (1) are free: one pod of
    //   2, not two. Without the hold, pack puts pod 1 on the fullest node that fits,
    //   rack0-node0, and pod 2 on rack1-node1: two racks. G needs the NVLink tier (4 GPUs fit
    //   a node), so it runs 1 + 0.5 × (450 / 50 − 1) = 5 × slower: 2 + 500 = 502 > 500, past
    //   H's start. The tightest placement puts both pods on rack1-node1 (NVLink): slowdown 1,
    //   ends at 102, and H still starts at 500 (G gave rack1-node1 back at 102).
    //   (Before: G was refused, and waited for H to end at 600.)
    Scenario s = test::smallFleet(2, 2, "n4");
    s.jobs = {job("A", 2, 1000), job("B", 3, 1000), job("C", 4, 500), job("H", 8, 100, 1, 4),
              job("G", 4, 100, 2, 2)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack0-node0"};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack1-node0"};
    s.jobs[2].traits.pin = {PinLevel::Node, "pod-rack0-node1"};
    s.jobs[4].traits.topologySensitivity = 0.5;
    const Results r = test::run(s);
    CHECK(spanOf(r, "G").startS == 2);
    CHECK(spanOf(r, "G").endS == 102);
    const JobRecord& g = r.jobs[jobIndex(r, "G")];
    for (const PodPlacement& pod : r.placementOf(r.segments[g.lastSegment]))
        CHECK(r.fleet.nodes[pod.node].name == "pod-rack1-node1");
    CHECK(spanOf(r, "H").startS == 500);
    CHECK(spanOf(r, "H").endS == 600);
}

TEST_CASE("a short backfill slowed past the head's start in every placement is told so") {
    // One pod, racks 0 and 1 of one 4-GPU node each (n4, as above). Pinned from t = 0: A (2
    // GPUs, 1000 s) on rack0-node, B (2 GPUs, 300 s) on rack1-node.
    // t = 1: H (one pod of 4, 100 s) is blocked; B ends at 300 and H fits rack1-node then:
    //   reserved start 300, rack1-node's 2 free GPUs held (B's 2 come back).
    // t = 2: G (2 pods × 2, 100 s, sensitivity 0.5) would end at 102 at full speed. Beside the
    //   hold: one pod (rack0-node). Without it, every placement is one pod per rack — the
    //   policy's and the tightest alike (no node or rack has 4 free) — at 5 × (as above):
    //   ends at 502 > 300. It waits, and at the sample at 60 its reason names that rule.
    // t = 300: H starts on rack1-node and ends at 400.
    Scenario s = test::smallFleet(2, 1, "n4");
    s.jobs = {job("A", 2, 1000), job("B", 2, 300), job("H", 4, 100, 1, 4), job("G", 4, 100, 2, 2)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack0-node"};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack1-node"};
    s.jobs[3].traits.topologySensitivity = 0.5;
    const Results r = test::run(s);
    CHECK(spanOf(r, "H").startS == 300);
    CHECK(spanOf(r, "G").startS >= 400);
    REQUIRE(r.sampleTimesS[1] == 60);
    std::string reason;
    for (const PendingEntry& e : r.pendingAtSample(1))
        if (e.job == jobIndex(r, "G")) reason = r.reasons[e.reason];
    CHECK(reason.find("would delay H") != std::string::npos);
    CHECK(reason.find("it would run slowed past that start") != std::string::npos);
}

TEST_CASE("EASY reserves for the head the GPUs that come back, leaving free ones usable now") {
    // Three nodes of 4 GPUs. A and B (4 GPUs, 100 s each) are pinned to node1 and node2 and
    // run 0–100; node0 is free.
    // t=1: H (2 pods × 4) finds 4 free GPUs: blocked. A and B end at 100, so H is reserved to
    //      start at 100. Its 8 GPUs there can be node1 + node2 (busy now, back by 100) or
    //      include node0 (free now). Taking node1 + node2 holds no free-now GPU.
    // t=2: L (4 GPUs, 1000 s) would run past 100, so it may start only on GPUs H does not
    //      need: node0. It starts at 2 and ends at 1002.
    // t=100: A and B end; H starts on node1 + node2 and runs 100–200.
    // Reserving the lowest nodes, node0 + node1, would hold node0's 4 free GPUs for H and keep
    // L waiting until 100 although starting it delays nobody.
    Scenario s = test::smallFleet(1, 3, "n4");
    s.jobs = {job("A", 4, 100), job("B", 4, 100), job("H", 8, 100, 1, 4), job("L", 4, 1000, 2)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack-node1"};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack-node2"};
    const Results r = test::run(s);
    CHECK(spanOf(r, "H").startS == 100);
    CHECK(spanOf(r, "H").endS == 200);
    CHECK(spanOf(r, "L").startS == 2);
    CHECK(spanOf(r, "L").endS == 1002);
    const JobRecord& l = r.jobs[jobIndex(r, "L")];
    CHECK(r.fleet.nodes[r.placementOf(r.segments[l.lastSegment])[0].node].name == "pod-rack-node0");
    // The pending reasons stay honest: at the sample at 60 only H waits, and no job is told
    // that it would delay H (L, on node0, delays nobody).
    REQUIRE(r.sampleTimesS[1] == 60);
    const auto pending = r.pendingAtSample(1);
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].job == jobIndex(r, "H"));
    for (const PendingEntry& e : r.pending)
        CHECK(r.reasons[e.reason].find("would delay") == std::string::npos);
}

TEST_CASE("EASY takes free-now GPUs for the head only as far as returning ones fall short") {
    // Four nodes of 8 GPUs. Pinned, from 0: A (4 GPUs) on node1 until 100, B (8) on node2
    // until 100, C (8) on node3 until 1000. Free now: node0 8, node1 4.
    // t=1: H (4 pods × 4) finds room for 3 pods: blocked. At 100 node0, node1 and node2 have
    //      8 free each: H is reserved to start at 100. Pods of 4 that take no free-now GPU:
    //      two on node2 (B's 8 come back) and one on node1 (A's 4): 3 of the 4. The fourth
    //      takes free-now GPUs either way; the fullest node with room, node1, gives them.
    //      Held now: node1's 4 free GPUs; node0's 8 stay usable.
    //      (Reserving node0 and node1 whole would hold all 12 free GPUs.)
    // t=2: L8 (8 GPUs, 1000 s) starts at once on node0.
    // t=3: L4 (4 GPUs, 1000 s) fits only on node1's held GPUs and would run past 100: it
    //      waits, and is told it would delay H. It starts when H ends (H runs 100–200 on
    //      node1 and node2, the only free nodes then).
    Scenario s = test::smallFleet(1, 4, "n8");
    s.jobs = {job("A", 4, 100),        job("B", 8, 100),      job("C", 8, 1000),
              job("H", 16, 100, 1, 4), job("L8", 8, 1000, 2), job("L4", 4, 1000, 3)};
    s.jobs[0].traits.pin = {PinLevel::Node, "pod-rack-node1"};
    s.jobs[1].traits.pin = {PinLevel::Node, "pod-rack-node2"};
    s.jobs[2].traits.pin = {PinLevel::Node, "pod-rack-node3"};
    const Results r = test::run(s);
    CHECK(spanOf(r, "H").startS == 100);
    CHECK(spanOf(r, "H").endS == 200);
    CHECK(spanOf(r, "L8").startS == 2);
    CHECK(spanOf(r, "L4").startS == 200);
    REQUIRE(r.sampleTimesS[1] == 60);
    bool toldDelay = false;
    for (const PendingEntry& e : r.pendingAtSample(1))
        if (e.job == jobIndex(r, "L4"))
            toldDelay = r.reasons[e.reason].find("would delay H") != std::string::npos;
    CHECK(toldDelay);
}

TEST_CASE("strict FIFO lets nothing pass the blocked head") {
    // J1 starts at 100 as before; J2 and J3 wait for it: both start at 200.
    const Results r = test::run(backfillExample(BackfillMode::None));
    CHECK(spanOf(r, "J1").startS == 100);
    CHECK(spanOf(r, "J2").startS == 200);
    CHECK(spanOf(r, "J3").startS == 200);
}

TEST_CASE("greedy backfill starts everything that fits and delays the head") {
    // t=0: J0 (2), J2 (1) and J3 (1) fill the node. J1 gets 4 GPUs only when J3 ends at 500.
    const Results r = test::run(backfillExample(BackfillMode::Greedy));
    CHECK(spanOf(r, "J2").startS == 0);
    CHECK(spanOf(r, "J3").startS == 0);
    CHECK(spanOf(r, "J1").startS == 500);
}

TEST_CASE("queue order is priority, then submit time; smallest-first is an option") {
    // One node of 4 GPUs, busy until 100. Three jobs wait; at 100 the node is free again.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.scheduler.backfill = BackfillMode::None;
    s.jobs = {job("busy", 4, 100), job("big-early", 4, 10, 1), job("small-late", 1, 10, 2),
              job("urgent", 4, 10, 3)};
    s.jobs[3].traits.priority = 10;
    SECTION("priority then FIFO: urgent, then big-early, then small-late") {
        const Results r = test::run(s);
        CHECK(spanOf(r, "urgent").startS == 100);
        CHECK(spanOf(r, "big-early").startS == 110);
        CHECK(spanOf(r, "small-late").startS == 120);
    }
    SECTION("priority then smallest first: urgent, then small-late, then big-early") {
        s.scheduler.queueOrder = QueueOrder::PrioritySmallestFirst;
        const Results r = test::run(s);
        CHECK(spanOf(r, "urgent").startS == 100);
        CHECK(spanOf(r, "small-late").startS == 110);
        CHECK(spanOf(r, "big-early").startS == 120);
    }
}

TEST_CASE("a job the fleet can never hold does not block the queue") {
    // 8 GPUs on a 4-GPU fleet can never start; even strict FIFO serves the next job.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.scheduler.backfill = BackfillMode::None;
    s.jobs = {job("too-big", 8, 100, 0, 4), job("small", 1, 100, 1)};
    const Results r = test::run(s);
    CHECK(r.jobs[jobIndex(r, "too-big")].status == JobStatus::Pending);
    CHECK(spanOf(r, "small").startS == 1);
}

TEST_CASE("a gang starts all of its pods at once") {
    // Two nodes of 4. "half" holds 2 GPUs of node 0 until 100. A gang of 2 pods × 4 needs both
    // nodes whole: it starts at 100, not with one pod at 0.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.jobs = {job("half", 2, 100), job("gang", 8, 50, 0, 4)};
    const Results r = test::run(s);
    const JobRecord& g = r.jobs[jobIndex(r, "gang")];
    CHECK(g.firstStartS == 100);
    REQUIRE(g.segmentCount == 1);
    CHECK(r.placementOf(r.segments[g.lastSegment]).size() == 2);
}

TEST_CASE("backfill never delays the reserved head in a busy random workload") {
    // Mixed shapes on 4 racks × 4 nodes × 8 GPUs at ~90 % load. The kernel checks after every
    // instant that no GPU slot is bound twice, that no backfill ever took GPUs the head's
    // reservation counted on, and that a head whose reserved start has come is running: EASY
    // never delays the head (it throws otherwise).
    Scenario s = test::smallFleet(4, 4, "n8");
    s.horizonS = 3 * 86400;
    for (auto [name, gpus, rate, mean] :
         {std::tuple{"one", 1.0, 20.0, 3600.0}, std::tuple{"node", 8.0, 2.0, 7200.0},
          std::tuple{"gang", 32.0, 0.3, 10800.0}}) {
        JobClassDef c;
        c.name = name;
        c.traits.team = "t";
        c.arrival.ratePerHour = rate;
        c.gpus.value = gpus;
        c.durationS.kind = DistKind::Exponential;
        c.durationS.mean = mean;
        s.jobClasses.push_back(c);
    }
    for (PlacementPolicy p :
         {PlacementPolicy::Pack, PlacementPolicy::Spread, PlacementPolicy::TopologyAware}) {
        s.scheduler.placement = p;
        Results r;
        REQUIRE_NOTHROW(r = test::run(s));
        CHECK(r.kpi("jobs_started") > 0.9 * r.kpi("jobs_submitted"));
    }
}

TEST_CASE("a short backfill on a reserved node frees the head's hold for long jobs") {
    // Two 8-GPU nodes. J0 holds node0 until 1000. At t = 1: H (3 pods × 4) is blocked and
    // reserved from 1000 on node0 (8) and node1 (4): 4 of node1's GPUs are held for it.
    // S (4 GPUs, 100 s) ends before 1000; L (4 GPUs, 5000 s) does not.
    // Whichever comes first, both start at 1: S on node1 returns its 4 GPUs by 1000, so the
    // hold on node1 drops to 0 and L may take the other 4. H still starts at 1000.
    for (bool shortFirst : {true, false}) {
        INFO("S listed " << (shortFirst ? "before" : "after") << " L");
        Scenario s = test::smallFleet(1, 2, "n8");
        s.jobs = {job("J0", 8, 1000), job("H", 12, 100, 1, 4)};
        if (shortFirst)
            s.jobs.insert(s.jobs.end(), {job("S", 4, 100, 1), job("L", 4, 5000, 1)});
        else
            s.jobs.insert(s.jobs.end(), {job("L", 4, 5000, 1), job("S", 4, 100, 1)});
        const Results r = test::run(s);
        CHECK(r.jobs[jobIndex(r, "S")].firstStartS == 1);
        CHECK(r.jobs[jobIndex(r, "L")].firstStartS == 1);
        CHECK(r.jobs[jobIndex(r, "H")].firstStartS == 1000);
    }
}

namespace {

/// A class of `count` jobs of `gpus` GPUs (one pod) submitted `spacingS` apart from t = 0,
/// each running 60 s: a backlog for the pending-list tests.
JobClassDef backlogClass(int count, int gpus, double spacingS) {
    JobClassDef big;
    big.name = "big";
    big.traits.team = "t";
    big.traits.gpusPerPod = gpus;
    big.arrival.process = ArrivalProcess::List;
    for (int i = 0; i < count; ++i)
        big.arrival.timesS.push_back(i * spacingS);
    big.gpus.value = gpus;
    big.durationS.value = 60;
    return big;
}

}  // namespace

TEST_CASE("a backlog that can never fit does not block or slow the rest") {
    // 3,000 jobs of 8 GPUs on a fleet of 4-GPU nodes can never fit (reservation layer);
    // a 1-GPU job behind them starts at once, and they are all counted as pending GPUs.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.jobClasses = {backlogClass(3000, 8, 0.01)};
    s.jobs = {job("small", 1, 60, 100)};
    RunOptions o;
    o.maxPendingEntriesPerSample = 5;
    const Results r = simulate(s, o);
    CHECK(r.jobs[jobIndex(r, "small")].firstStartS == 100);
    // Sample at 120 s: 5 listed, 2,995 left out of the list, all 3,000 counted.
    CHECK(r.pendingAtSample(2).size() == 5);
    CHECK(r.pendingOmitted[2] == 2995);
    CHECK(r.findSeries("pending_gpus{reservation}")->values[2] == 3000 * 8);
}

TEST_CASE("the pending lists of all samples together stay within the per-run cap") {
    // The same never-fitting backlog: 3,000 jobs of 8 GPUs on 4-GPU nodes, from t = 0 to 30 s.
    // The run has 7,200 / 60 = 120 samples; a run cap of 600 entries leaves 600 / 120 = 5 per
    // sample (below the per-sample cap of 10,000), so at most 600 entries are stored however
    // long the queue. The sample at t = 0 sees one job (the next arrives at 0.01 s): 1 + 119 × 5
    // = 596 entries. The series still count all 3,000 jobs.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.horizonS = 7200;
    s.sampleIntervalS = 60;
    s.jobClasses = {backlogClass(3000, 8, 0.01)};
    RunOptions o;
    o.maxPendingEntriesPerRun = 600;
    const Results r = simulate(s, o);
    REQUIRE(r.sampleTimesS.size() == 120);
    CHECK(r.pending.size() == 1 + 119 * 5);
    CHECK(r.pendingAtSample(119).size() == 5);
    CHECK(r.pendingOmitted[119] == 2995);
    CHECK(r.findSeries("pending_gpus{reservation}")->values[119] == 3000 * 8);
}

TEST_CASE("ten thousand never-fitting jobs sampled a million times keep bounded pending records") {
    // 10,000 jobs of 16 GPUs on one 8-GPU node (reservation layer, never
    // start) and 1,000,000 samples (1 s apart). Each sample could list all 10,000 (10^10
    // entries, 120 GB); the run cap keeps 4,000,000 in all: samples at 0, 1, …, 999,999 s
    // (before the horizon) are 1,000,000, so 4 per sample. The series still count all
    // 160,000 GPUs.
    Scenario s = test::smallFleet(1, 1, "n8");
    s.horizonS = 1'000'000;
    s.sampleIntervalS = 1;
    s.jobClasses = {backlogClass(10000, 16, 0.0001)};
    RunOptions o;
    o.checkInvariants = false;  // a million samples: the books are checked by smaller tests
    const Results r = simulate(s, o);
    REQUIRE(r.sampleTimesS.size() == 1'000'000);
    CHECK(r.pending.size() <= o.maxPendingEntriesPerRun);
    CHECK(r.pendingAtSample(500'000).size() == 4);
    CHECK(r.pendingOmitted[500'000] == 10000 - 4);
    CHECK(r.findSeries("pending_gpus{reservation}")->values[500'000] == 10000 * 16);
}

TEST_CASE("skipping shapes that failed never passes over a job that fits, in a saturated fleet") {
    // The 100k preset cut to 2 of its 25 pods with 1.3× its per-pod load, for 4 days: the
    // queue grows, heads wait with reservations, gangs span pods and run slower. A pass
    // skips every job whose shape is covered by one that failed, in this pass or (when only
    // arrivals are new) in the last one. With invariant checks on, the job at every skip is
    // tried anyway and the run throws if it fits; the counters show both kinds of skip ran.
    auto doc = nlohmann::json::parse(
        readTextFile(test::presetsDir() / "scenarios" / "synthetic-100k.json"));
    const double loadFactor = 2.0 / 25.0 * 1.3;
    doc["topology"]["pods"][0]["count"] = 2;
    doc["horizonS"] = 4 * 86400;
    for (auto& c : doc["jobClasses"])
        c["arrival"]["ratePerHour"] = c["arrival"]["ratePerHour"].get<double>() * loadFactor;
    const Catalog catalog = loadCatalog(test::presetsDir() / "catalog" / "catalog.json");
    const Scenario s = parseScenario(doc.dump(), "saturated", catalog, LoadOptions{});
    RunCounters counters;
    RunOptions o;
    o.checkInvariants = true;
    o.counters = &counters;
    Results r;
    REQUIRE_NOTHROW(r = simulate(s, o));
    CHECK(r.kpi("queue_length_mean") > 100);  // saturated
    CHECK(r.kpi("allocation_mean") > 0.85);
    CHECK(counters.arrivalPasses > 0);
    CHECK(counters.carriedSkips > 0);
    CHECK(counters.verifiedSkips > counters.carriedSkips);
    // The same run without the checks and counters binds the same jobs in the same places.
    CHECK(simulate(s, RunOptions{.checkInvariants = false}).fingerprint == r.fingerprint);
}

TEST_CASE("a backlog of shares, MIG instances or CPU-bound pods costs a few looks a pass") {
    // One node, and 600 one-pod jobs of 100 s arriving 0.1 s apart from t = 0 — far more
    // than it holds at once: an n8 (8 × tg) cut into 7 × 1g (56 instances), time-sliced 4
    // ways (32 replicas) or under MPS (2 shares of 500 a GPU: 16), or an n4c (4 GPUs, 16 CPUs)
    // whose pods ask 8 CPUs (2 pods). It serves at most 56 / 100 s, so over the 1,200 s run
    // the queue holds hundreds.
    // None of these kinds ever gets a reservation, so none becomes the head: a full pass
    // looks at each job that binds, then the group's first that does not (tried, it fails),
    // then the next (covered by that failure: the group is set aside). Per pass: the jobs it
    // binds + 2, so over the run at most jobs + 2 × passes looks — not the queue's length
    // per pass, which is what made such backlogs cost the square of the queue.
    // With the invariant checks on, the job at every set-aside group is tried anyway, and
    // the run throws if it fits; the same run without checks gives the same fingerprint.
    struct Kind {
        const char* name;
        std::string nodeType;
        GpuSharingDef sharing;
        std::function<void(JobTraitsDef&)> ask;
    };
    GpuSharingDef mig, ts, mps, whole;
    mig.mode = SharingMode::Mig;
    mig.migLayout = "1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb";
    ts.mode = SharingMode::TimeSlicing;
    ts.timeSliceReplicas = 4;
    mps.mode = SharingMode::Mps;
    const std::vector<Kind> kinds = {
        {"MIG 1g", "n8", mig, [](JobTraitsDef& t) { t.migProfile = "1g.10gb"; }},
        {"time-sliced share", "n8", ts, [](JobTraitsDef& t) { t.gpuMilli = 250; }},
        {"MPS share", "n8", mps, [](JobTraitsDef& t) { t.gpuMilli = 500; }},
        // n4c: 4 GPUs, 16 CPUs; 8 CPUs a pod: 2 pods a node, 2 of its GPUs left idle.
        {"CPU-bound", "n4c", whole, [](JobTraitsDef& t) { t.cpuMilliPerPod = 8000; }},
    };
    for (const Kind& kind : kinds) {
        INFO(kind.name);
        Scenario s = test::smallFleet(1, 1, kind.nodeType);
        s.pods[0].racks[0].nodes[0].sharing = kind.sharing;
        s.horizonS = 1200;
        JobClassDef c = backlogClass(600, 1, 0.1);
        c.durationS.value = 100;
        kind.ask(c.traits);
        s.jobClasses = {c};
        RunCounters counters;
        RunOptions o;
        o.checkInvariants = true;
        o.counters = &counters;
        Results r;
        REQUIRE_NOTHROW(r = simulate(s, o));
        CHECK(r.kpi("queue_length_mean") > 100);
        CHECK(counters.jobsVisited <= 600 + 2 * counters.passes);
        CHECK(counters.verifiedSkips > 0);
        CHECK(simulate(s, RunOptions{.checkInvariants = false}).fingerprint == r.fingerprint);
    }
}
