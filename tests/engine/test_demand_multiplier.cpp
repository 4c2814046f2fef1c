// The scenario-wide demand multiplier: it scales Poisson and diurnal rates, compresses trace
// inter-arrival times, and leaves list arrivals and explicit jobs where they are.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>

#include "gpuplan/model/workload.hpp"
#include "model/random.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

/// One class "c" of team "t": 1 GPU, 60 s, Poisson at `ratePerHour`; horizon 100 h.
Scenario poissonScenario(double ratePerHour, double demandMultiplier) {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.horizonS = 100 * 3600.0;
    s.demandMultiplier = demandMultiplier;
    s.jobClasses = {test::jobClass("c", 1, ratePerHour, 60)};
    return s;
}

std::vector<double> submitTimes(const Scenario& s) {
    std::vector<double> out;
    for (const JobSpec& j : generateWorkload(s, Fleet::build(s)).jobs)
        out.push_back(j.submitS);
    return out;
}

}  // namespace

TEST_CASE("demand × 1.3 on a Poisson class of 10 jobs/h for 100 h gives 1300 ± 3σ jobs") {
    // Rate 10/h × 1.3 = 13/h; over 100 h the count is Poisson with mean 1300 and
    // σ = √1300 ≈ 36.1, so 3σ ≈ 108: the count lies in [1192, 1408]. Without the multiplier
    // the mean would be 1000 (3σ ≈ 95, at most 1095), so the two ranges cannot be confused.
    const std::size_t n = submitTimes(poissonScenario(10, 1.3)).size();
    CHECK(n >= 1192);
    CHECK(n <= 1408);
}

TEST_CASE("demand × 1 leaves the generated jobs exactly as the rate alone draws them") {
    // The class's arrival stream is Rng(seed ⊕ hash("c")); at 10/h the gaps are exponential
    // with mean 360 s. The first arrivals, redrawn here from that stream, must match exactly.
    const Scenario s = poissonScenario(10, 1.0);
    detail::Rng rng(s.seed ^ stableHash("c"));
    const std::vector<double> times = submitTimes(s);
    REQUIRE(times.size() > 5);
    double t = 0;
    for (int i = 0; i < 5; ++i) {
        t += rng.exponential(360.0);
        CHECK(times[i] == t);
    }
}

TEST_CASE("demand × 2 on 5 jobs/h draws the very jobs of 10 jobs/h") {
    // The multiplier scales the rate before any draw: 5 × 2 = 10 exactly, same stream.
    CHECK(submitTimes(poissonScenario(5, 2)) == submitTimes(poissonScenario(10, 1)));
}

TEST_CASE("demand × 2 on a diurnal class doubles its daily mean") {
    // Mean rate 10/h × 2 = 20/h over 100 h: 2000 jobs, σ ≈ 45, 3σ ≈ 134.
    Scenario s = poissonScenario(10, 2);
    s.jobClasses[0].arrival.process = ArrivalProcess::Diurnal;
    s.jobClasses[0].arrival.amplitude = 0.5;
    const std::size_t n = submitTimes(s).size();
    CHECK(n >= 1866);
    CHECK(n <= 2134);
}

TEST_CASE("list arrivals and explicit jobs keep their times under any multiplier") {
    Scenario s = poissonScenario(0, 3);
    s.jobClasses[0].arrival.process = ArrivalProcess::List;
    s.jobClasses[0].arrival.timesS = {100, 7200};
    s.jobs = {test::job("fixed", 1, 60, 3600)};
    CHECK(submitTimes(s) == std::vector<double>{100, 3600, 7200});
}

TEST_CASE("demand × 2 halves a trace's inter-arrival times") {
    // Rows at 0, 3600 and 7200 s after the first, time scale 1, offset 600 s:
    // submit = 600 + row / 2 = 600, 2400, 4200.
    Scenario s = poissonScenario(0, 2);
    s.jobClasses.clear();
    auto data = std::make_shared<TraceData>();
    data->teams = {"vc1"};
    for (double t : {0.0, 3600.0, 7200.0})
        data->jobs.push_back(TraceJob{t, 600, 1, 0});
    TraceDef trace;
    trace.file = "in-memory.csv";
    trace.offsetS = 600;
    trace.data = data;
    s.traces = {trace};
    CHECK(submitTimes(s) == std::vector<double>{600, 2400, 4200});
}
