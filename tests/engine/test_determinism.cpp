#include <catch2/catch.hpp>

#include "gpuplan/model/workload.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {
Scenario busy() {
    Scenario s = test::smallFleet(2, 2, "n8");
    s.horizonS = 2 * 86400;
    JobClassDef a;
    a.name = "a";
    a.traits.team = "t";
    a.arrival.ratePerHour = 6;
    a.gpus.kind = DistKind::Empirical;
    a.gpus.values = {1, 4, 8, 16};
    a.gpus.weights = {4, 3, 2, 1};
    a.durationS.kind = DistKind::Lognormal;
    a.durationS.median = 3600;
    a.durationS.sigma = 1;
    s.jobClasses = {a};
    return s;
}
}  // namespace

TEST_CASE("same scenario and seed give the same fingerprint; another seed another") {
    const Scenario s = busy();
    const Results first = test::run(s);
    const Results again = test::run(s);
    CHECK(first.fingerprint == again.fingerprint);
    CHECK(first.eventCount == again.eventCount);
    CHECK(first.kpi("wait_s_mean") == again.kpi("wait_s_mean"));

    RunOptions other;
    other.seed = s.seed + 1;
    const Results reseeded = simulate(s, other);
    CHECK(reseeded.fingerprint != first.fingerprint);
}

TEST_CASE("the fingerprint covers placements, not only event times") {
    // Two 4-GPU nodes. a (2 GPUs) starts at 0 on node0 under both policies (both nodes empty,
    // ties go to the lowest index). b (1 GPU) arrives at 10: pack puts it on node0 (2 free,
    // the fullest that fits), spread on node1 (4 free). Every event happens at the same time
    // with the same job (a 0–1000, b 10–110): only where b runs differs.
    Scenario s = test::smallFleet(1, 2, "n4");
    s.jobs = {test::job("a", 2, 1000), test::job("b", 1, 100, 10)};
    s.scheduler.placement = PlacementPolicy::Pack;
    const Results packed = test::run(s);
    s.scheduler.placement = PlacementPolicy::Spread;
    const Results spread = test::run(s);
    const std::uint32_t b = test::jobIndex(packed, "b");
    auto nodeOf = [&](const Results& r) {
        return r.placementOf(r.segments[r.jobs[b].lastSegment])[0].node;
    };
    REQUIRE(nodeOf(packed) == 0);
    REQUIRE(nodeOf(spread) == 1);
    REQUIRE(packed.eventCount == spread.eventCount);
    for (std::uint32_t j = 0; j < packed.jobs.size(); ++j) {
        REQUIRE(packed.jobs[j].firstStartS == spread.jobs[j].firstStartS);
        REQUIRE(packed.jobs[j].endS == spread.jobs[j].endS);
    }
    CHECK(packed.fingerprint != spread.fingerprint);
}

TEST_CASE("a run does not depend on invariant checks or pending diagnosis") {
    const Scenario s = busy();
    RunOptions bare;
    bare.checkInvariants = false;
    bare.diagnosePending = false;
    CHECK(simulate(s, bare).fingerprint == test::run(s).fingerprint);
}

TEST_CASE("adding a job class leaves the other classes' jobs unchanged") {
    // Each class draws from streams seeded by the scenario seed and its own name.
    Scenario s = busy();
    const Fleet fleet = Fleet::build(s);
    const Workload before = generateWorkload(s, fleet);
    JobClassDef extra = s.jobClasses[0];
    extra.name = "extra";
    s.jobClasses.insert(s.jobClasses.begin(), extra);
    const Workload after = generateWorkload(s, fleet);
    std::vector<std::pair<double, int>> a, b;
    for (const JobSpec& j : before.jobs)
        a.push_back({j.submitS, j.gpus});
    for (const JobSpec& j : after.jobs)
        if (after.classNames[j.sourceIndex] == "a") b.push_back({j.submitS, j.gpus});
    CHECK(a == b);
    CHECK(after.jobs.size() > before.jobs.size());
}

TEST_CASE("the cluster at time t: who runs where, what waits") {
    // One node of 4 GPUs: "a" (3 GPUs, 0–100), "b" (2 GPUs) waits until 100, runs 100–200.
    Scenario s = test::smallFleet(1, 1, "n4");
    s.sampleIntervalS = 50;
    s.jobs = {test::job("a", 3, 100), test::job("b", 2, 100, 10)};
    const Results r = test::run(s);
    const std::uint32_t a = test::jobIndex(r, "a"), b = test::jobIndex(r, "b");

    const ClusterSnapshot at60 = r.stateAt(60);
    CHECK(at60.runningJobs == std::vector<std::uint32_t>{a});
    // Pack takes the lowest free slots: GPUs 0, 1, 2 hold "a", GPU 3 is free.
    CHECK(at60.gpuJob ==
          std::vector<std::int32_t>{std::int32_t(a), std::int32_t(a), std::int32_t(a), -1});
    CHECK(at60.nodeStates == std::vector<NodeState>{NodeState::Ready});
    REQUIRE(at60.pending.size() == 1);  // diagnosed at the sample at 50
    CHECK(at60.pending[0].diagnosedAtS == 50);
    CHECK(at60.pending[0].waitingS == 50);  // 60 − 10
    CHECK(at60.pending[0].job == b);
    CHECK(at60.pending[0].layer == Layer::Scheduling);

    const ClusterSnapshot at150 = r.stateAt(150);
    CHECK(at150.runningJobs == std::vector<std::uint32_t>{b});
    CHECK(at150.gpuJob == std::vector<std::int32_t>{std::int32_t(b), std::int32_t(b), -1, -1});
    CHECK(at150.pending.empty());
}
