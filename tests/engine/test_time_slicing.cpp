// Time-slicing shares a GPU's time, MPS its SMs (engine/src/resources/shared_gpus.hpp, podDemand):
// a pod's engineActive (the share of time its kernels run) is what a time-sliced GPU divides; MPS
// divides its SM demand, smActivity × asked share. The test catalog's node "n1" has one GPU "tg"
// (80 GB).
#include <catch2/catch.hpp>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

Scenario oneGpu(SharingMode mode) {
    Scenario s = test::smallFleet(1, 1, "n1");
    s.pods[0].racks[0].nodes[0].sharing.mode = mode;  // 4 replicas; MPS: 48 clients, cap 100
    return s;
}

/// An hour of work on a 250 milli-GPU share, 80 % of its SMs busy: 0.2 of the GPU's SMs.
JobDef inference(const std::string& name, std::optional<double> engineActive) {
    JobDef j = test::job(name, 1, 3600);
    j.traits.gpuMilli = 250;
    j.traits.smActivity = 0.8;
    j.traits.engineActive = engineActive;
    return j;
}

double seriesAt(const Results& r, const std::string& series, double timeS) {
    return r.findSeries(series)->values[*r.sampleAt(timeS)];
}

double endS(const Results& r, const std::string& name) {
    return r.jobs[test::jobIndex(r, name)].endS;
}

}  // namespace

TEST_CASE("Time-slicing divides the time kernels run; MPS the SMs they fill", "[time-slicing]") {
    // Four 250 milli-GPU pods, smActivity 0.8 (SM demand 0.8 × 0.25 = 0.2 each) and
    // engineActive 0.7 (their kernels run 70 % of the time, each on a fifth of the SMs).
    Scenario s = oneGpu(SharingMode::TimeSlicing);
    s.jobs = {inference("a", 0.7), inference("b", 0.7), inference("c", 0.7), inference("d", 0.7)};
    SECTION("time-slicing: turns on the whole GPU, D = 4 × 0.7 = 2.8") {
        // Each runs at 1 / 2.8 of its speed: the hour of work ends at 2.8 h = 10,080 s.
        // Occupancy (SM_ACTIVE) counts each pod's SM demand at its speed: 4 × 0.2 / 2.8 =
        // 0.2857 of the GPU: the GPU is always running someone's kernels, on a fifth of its SMs.
        const Results r = test::run(s);
        for (const char* name : {"a", "b", "c", "d"}) {
            INFO(name);
            CHECK(endS(r, name) == Approx(10080));
            CHECK(r.jobs[test::jobIndex(r, name)].slowdown == Approx(2.8));
        }
        CHECK(seriesAt(r, "allocation", 60) == Approx(1.0));
        CHECK(seriesAt(r, "occupancy", 60) == Approx(0.8 / 2.8));
    }
    SECTION("MPS: kernels side by side, D = 4 × 0.2 = 0.8 ≤ 1") {
        // No slowdown: each hour ends at 3,600 s; occupancy 4 × 0.2 = 0.8.
        s.pods[0].racks[0].nodes[0].sharing.mode = SharingMode::Mps;
        const Results r = test::run(s);
        for (const char* name : {"a", "b", "c", "d"}) {
            INFO(name);
            CHECK(endS(r, name) == Approx(3600));
        }
        CHECK(seriesAt(r, "occupancy", 60) == Approx(0.8));
    }
    SECTION("unset: the time demand is the SM demand, as before") {
        // D = 4 × 0.2 = 0.8 under time-slicing too: full speed. (The [interference] test
        // "Oversubscribed SMs slow every pod; a leaving neighbour moves the others' ends"
        // pins the unset case above 1: D = 3 × 0.5 = 1.5.)
        for (JobDef& j : s.jobs)
            j.traits.engineActive.reset();
        const Results r = test::run(s);
        CHECK(endS(r, "a") == Approx(3600));
        CHECK(seriesAt(r, "occupancy", 60) == Approx(0.8));
    }
}

TEST_CASE("Time-sliced pods whose engine activity sums to at most 1 do not slow",
          "[time-slicing]") {
    // Two pods at engineActive 0.4: D = 0.8 ≤ 1, each hour ends at 3,600 s.
    Scenario s = oneGpu(SharingMode::TimeSlicing);
    s.jobs = {inference("a", 0.4), inference("b", 0.4)};
    const Results r = test::run(s);
    CHECK(endS(r, "a") == Approx(3600));
    CHECK(endS(r, "b") == Approx(3600));
}

TEST_CASE("Set and unset engine activity add up on one time-sliced GPU", "[time-slicing]") {
    // a: engineActive 0.7; b and c unset, so their SM demand 0.2 each: D = 1.1, all at 1/1.1.
    // Each hour of work ends at 1.1 × 3,600 = 3,960 s.
    Scenario s = oneGpu(SharingMode::TimeSlicing);
    s.jobs = {inference("a", 0.7), inference("b", std::nullopt), inference("c", std::nullopt)};
    const Results r = test::run(s);
    CHECK(endS(r, "a") == Approx(3960));
    CHECK(endS(r, "b") == Approx(3960));
}

TEST_CASE("A whole GPU is not shared: engine activity changes nothing", "[time-slicing]") {
    Scenario s = oneGpu(SharingMode::TimeSlicing);
    JobDef j = test::job("w", 1, 3600);
    j.traits.smActivity = 0.3;
    j.traits.engineActive = 1.0;
    s.jobs = {j};
    CHECK(endS(test::run(s), "w") == Approx(3600));
}

TEST_CASE("engineActive is read, refused below the SM activity it implies, and written back",
          "[time-slicing]") {
    const Catalog catalog = test::testCatalog();
    Scenario s = oneGpu(SharingMode::TimeSlicing);
    test::resolveHardware(s, catalog);
    s.jobs = {inference("a", std::nullopt)};
    CHECK(scenarioToJson(s).find("engineActive") == std::string::npos);  // unset: not written
    SECTION("round trip") {
        s.jobs[0].traits.engineActive = 0.7;
        CHECK_THAT(scenarioToJson(s), Catch::Contains("\"engineActive\": 0.7"));
        const Scenario again = parseScenario(scenarioToJson(s), "again.json", catalog);
        CHECK(again.jobs[0].traits.engineActive == 0.7);
        CHECK(again == s);
    }
    SECTION("the SM activity it implies is its floor") {
        // A 250 milli-GPU pod 80 % active keeps 0.2 of the SMs busy: 0.2 is allowed, 0.15 not.
        s.jobs[0].traits.engineActive = 0.2;
        CHECK_NOTHROW(validateScenario(s, catalog));
        s.jobs[0].traits.engineActive = 0.15;
        const InputError e = test::inputErrorOf([&] { validateScenario(s, catalog); });
        CHECK(std::string(e.place()) == "/jobs/0/engineActive");
        CHECK_THAT(e.message(), Catch::Contains("engine activity 0.15 is below the SM activity "
                                                "it implies, 0.2 (smActivity 0.8 × 250"));
    }
    SECTION("a whole GPU: at least smActivity") {
        s.jobs[0].traits.gpuMilli = 1000;
        s.jobs[0].traits.engineActive = 0.5;
        const InputError e = test::inputErrorOf([&] { validateScenario(s, catalog); });
        CHECK(std::string(e.place()) == "/jobs/0/engineActive");
        CHECK_THAT(e.message(), Catch::Contains("0.5 is below the SM activity it implies, 0.8"));
    }
    SECTION("above 1") {
        s.jobs[0].traits.engineActive = 1.2;
        const InputError e = test::inputErrorOf([&] { validateScenario(s, catalog); });
        CHECK(std::string(e.place()) == "/jobs/0/engineActive");
        CHECK_THAT(e.message(), Catch::Contains("must be between 0 and 1"));
    }
}
