#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;

TEST_CASE("a stop request ends the run early with partial, marked results") {
    Scenario s = test::smallFleet(4, 4, "n8");
    s.horizonS = 30 * 86400;
    JobClassDef c;
    c.name = "c";
    c.traits.team = "t";
    c.arrival.ratePerHour = 200;
    c.gpus.value = 1;
    c.durationS.kind = DistKind::Exponential;
    c.durationS.mean = 1800;
    s.jobClasses = {c};

    std::stop_source source;
    double firstProgress = -1;
    // The engine reports progress every few thousand events; the first report asks it to
    // stop, and it must stop at its next stop check (within 256 loop steps).
    const Results r = simulate(
        s, RunOptions{},
        [&](double fraction) {
            if (firstProgress < 0) firstProgress = fraction;
            source.request_stop();
        },
        source.get_token());
    CHECK(r.stopped);
    REQUIRE(firstProgress > 0);
    REQUIRE(firstProgress < 0.5);
    // Samples cover only the simulated part.
    CHECK(r.sampleTimesS.size() < static_cast<std::size_t>(s.horizonS / s.sampleIntervalS) / 2);
    CHECK(r.findSeries("allocation")->values.size() == r.sampleTimesS.size());
}

TEST_CASE("a run without a stop request completes") {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.jobs = {test::job("j", 1, 60)};
    const Results r = test::run(s);
    CHECK_FALSE(r.stopped);
    CHECK(r.sampleTimesS.size() == 1440);  // one day at 60 s
}
