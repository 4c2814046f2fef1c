#include "scenario_read_jobs.hpp"

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::detail {

DistributionDef readDistribution(const JsonNode& node, double min, double max) {
    JsonObject o = node.object();
    DistributionDef d;
    d.kind = o.required("dist").enumeration<DistKind>({{"fixed", DistKind::Fixed},
                                                       {"exponential", DistKind::Exponential},
                                                       {"lognormal", DistKind::Lognormal},
                                                       {"uniform", DistKind::Uniform},
                                                       {"empirical", DistKind::Empirical}});
    switch (d.kind) {
        case DistKind::Fixed:
            d.value = o.required("value").number(min, max);
            break;
        case DistKind::Exponential:
            d.mean = o.required("mean").number(min, max);
            break;
        case DistKind::Lognormal:
            d.median = o.required("median").number(min, max);
            d.sigma = o.required("sigma").number(0, 5);
            break;
        case DistKind::Uniform: {
            d.low = o.required("low").number(min, max);
            JsonNode high = o.required("high");
            d.high = high.number(min, max);
            if (d.high < d.low) high.fail("\"high\" must not be below \"low\"");
            break;
        }
        case DistKind::Empirical: {
            JsonNode valuesNode = o.required("values");
            for (const JsonNode& v : valuesNode.array(100000))
                d.values.push_back(v.number(min, max));
            JsonNode weightsNode = o.required("weights");
            double total = 0;
            for (const JsonNode& w : weightsNode.array(100000)) {
                d.weights.push_back(w.number(0, 1e12));
                total += d.weights.back();
            }
            if (d.values.empty()) valuesNode.fail("needs at least one value");
            if (d.weights.size() != d.values.size())
                weightsNode.fail("needs one weight per value (" + std::to_string(d.values.size()) +
                                 " values, " + std::to_string(d.weights.size()) + " weights)");
            if (total <= 0) weightsNode.fail("weights must not all be zero");
            break;
        }
    }
    if (auto v = o.optional("min")) d.min = v->number(min, max);
    if (auto v = o.optional("max")) {
        d.max = v->number(min, max);
        if (d.min && *d.max < *d.min) v->fail("\"max\" must not be below \"min\"");
    }
    o.finish();
    return d;
}

ArrivalDef readArrival(const JsonNode& node) {
    JsonObject o = node.object();
    ArrivalDef a;
    a.process =
        o.required("process").enumeration<ArrivalProcess>({{"poisson", ArrivalProcess::Poisson},
                                                           {"diurnal", ArrivalProcess::Diurnal},
                                                           {"list", ArrivalProcess::List},
                                                           {"tide", ArrivalProcess::Tide}});
    switch (a.process) {
        case ArrivalProcess::Poisson:
            a.ratePerHour = o.required("ratePerHour").number(0, 1e7);
            break;
        case ArrivalProcess::Diurnal:
            a.ratePerHour = o.required("ratePerHour").number(0, 1e7);
            a.amplitude = o.required("amplitude").number(0, 1);
            if (auto v = o.optional("peakHourOfDay")) a.peakHourOfDay = v->number(0, 24);
            break;
        case ArrivalProcess::List:
            for (const JsonNode& t : o.required("timesS").array(InputLimits::maxJobsPerClass))
                a.timesS.push_back(t.number(0, kMaxTimeS));
            break;
        case ArrivalProcess::Tide: {
            a.minReplicas = static_cast<int>(o.required("minReplicas").integer(0, 100'000));
            JsonNode maxNode = o.required("maxReplicas");
            a.maxReplicas = static_cast<int>(maxNode.integer(1, 100'000));
            if (a.maxReplicas <= a.minReplicas)
                maxNode.fail("must be above \"minReplicas\" (the curve's trough)");
            if (auto v = o.optional("peakHourOfDay")) a.peakHourOfDay = v->number(0, 24);
            break;
        }
    }
    o.finish();
    return a;
}

}  // namespace gpuplan::detail
