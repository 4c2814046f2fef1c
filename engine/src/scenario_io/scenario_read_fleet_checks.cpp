#include "scenario_read_fleet_checks.hpp"

#include <algorithm>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/roofline.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "io/text_rules.hpp"
#include "scenario_read_scheduler.hpp"
#include "scheduling/pin_check.hpp"

namespace gpuplan::detail {

namespace {

/// With a buying mix: it fits the fleet, and with pricing every node has a price for the class
/// the mix gives it. Empty when fine.
std::string buyingMixProblem(const Scenario& s, const Fleet& fleet) {
    if (!s.buyingMix) return {};
    const BuyingMixDef& mix = *s.buyingMix;
    const long long nodes = static_cast<long long>(fleet.nodes.size());
    if (static_cast<long long>(mix.reservedNodes) + mix.spotNodes > nodes)
        return "reservedNodes + spotNodes = " +
               std::to_string(static_cast<long long>(mix.reservedNodes) + mix.spotNodes) +
               ", more than the fleet's " + std::to_string(nodes) + " nodes";
    if (!s.pricing) return {};
    for (const FleetNode& node : fleet.nodes) {
        const std::string& model = fleet.gpuModels[node.gpuModel].id;
        const GpuPriceDef* p = s.pricing->find(model);
        if (!p || !p->of(node.buyingClass))
            return std::string("the mix buys ") + toString(node.buyingClass) + " " + model +
                   " nodes, which the pricing (book \"" + s.pricing->book + "\") has no price for";
    }
    return {};
}

/// FP8 needs FP8 tensor cores on every GPU the job may run on (roofline.hpp): its model when
/// restricted (with nodes or not: it would run there), else every model a node has; a job
/// that silently ran at BF16 would break its stated duration. And FP8 only for work it can
/// shorten: not a tide replica (it serves its window) nor an openb row (a pod's lifetime on
/// the models its gpu_spec allows). The problem at the first source's "precision".
std::optional<FleetProblem> precisionProblem(const Scenario& s, const Fleet& fleet) {
    std::vector<bool> hasNode(fleet.gpuModels.size(), false);
    for (const FleetNode& node : fleet.nodes)
        hasNode[node.gpuModel] = true;
    const auto withoutFp8 = [&](const JobTraitsDef& t) -> std::optional<std::string> {
        for (std::size_t m = 0; m < fleet.gpuModels.size(); ++m) {
            const GpuModel& gpu = fleet.gpuModels[m];
            const bool mayRunOn = t.gpuModel ? *t.gpuModel == gpu.id : hasNode[m];
            if (mayRunOn && !hasFp8(gpu))
                return "FP8 needs FP8 tensor cores, and " + gpu.id +
                       " has none: restrict the job to a GPU model with FP8 (\"gpuModel\") or "
                       "keep \"bf16\"";
        }
        return std::nullopt;
    };
    const auto at = [](const char* list, std::size_t i) {
        return std::string("/") + list + "/" + std::to_string(i) + "/precision";
    };
    for (std::size_t i = 0; i < s.jobClasses.size(); ++i) {
        const JobClassDef& c = s.jobClasses[i];
        if (c.traits.precision != Precision::Fp8) continue;
        if (c.arrival.process == ArrivalProcess::Tide)
            return FleetProblem{at("jobClasses", i),
                                "a tide class's replicas serve their windows, which FP8 does not "
                                "shorten; keep \"bf16\" and lower maxReplicas for the capacity "
                                "FP8 saves"};
        if (auto why = withoutFp8(c.traits)) return FleetProblem{at("jobClasses", i), *why};
    }
    for (std::size_t i = 0; i < s.jobs.size(); ++i)
        if (s.jobs[i].traits.precision == Precision::Fp8)
            if (auto why = withoutFp8(s.jobs[i].traits)) return FleetProblem{at("jobs", i), *why};
    for (std::size_t i = 0; i < s.traces.size(); ++i) {
        const TraceDef& t = s.traces[i];
        if (t.traits.precision != Precision::Fp8) continue;
        if (t.format == TraceFormat::Openb)
            return FleetProblem{at("traces", i),
                                "an openb pod list's rows are pods' lifetimes on the GPU models "
                                "their gpu_spec allows, which FP8 does not shorten; keep "
                                "\"bf16\""};
        if (auto why = withoutFp8(t.traits)) return FleetProblem{at("traces", i), *why};
    }
    return std::nullopt;
}

}  // namespace

std::optional<FleetProblem> fleetProblem(const Scenario& s, const Fleet& fleet) {
    const double maxChanges = static_cast<double>(InputLimits::maxNodeEventNodes);
    // Each failure is two node changes (down, repaired): bounded like the node events.
    if (const double n = expectedFailures(s, fleet); 2 * n > maxChanges)
        return FleetProblem{
            "/failures/mtbfGpuHours",
            "at this MTBF the run would see about " + withThousands(static_cast<long long>(n)) +
                " node failures; at most " + withThousands(InputLimits::maxNodeEventNodes / 2)};
    if (s.failures && s.failures->hotSpareNodes > static_cast<long long>(fleet.nodes.size()))
        return FleetProblem{"/failures/hotSpareNodes", std::to_string(s.failures->hotSpareNodes) +
                                                           " hot spares, more than the fleet's " +
                                                           std::to_string(fleet.nodes.size()) +
                                                           " nodes"};
    if (std::string problem = buyingMixProblem(s, fleet); !problem.empty())
        return FleetProblem{"/buyingMix", std::move(problem)};
    // Each reclaim is three (notice, reclaim, return).
    if (const double n = expectedReclaims(s, fleet); 3 * n > maxChanges)
        return FleetProblem{
            "/spot/monthlyInterruptionFraction",
            "at this rate the run would see about " + withThousands(static_cast<long long>(n)) +
                " spot reclaims; at most " + withThousands(InputLimits::maxNodeEventNodes / 3)};
    // A node list's nodes are reserved capacity: with pricing, each model needs a price.
    if (s.pricing && s.nodeList)
        for (const FleetNode& node : fleet.nodes) {
            const std::string& model = fleet.gpuModels[node.gpuModel].id;
            const GpuPriceDef* p = s.pricing->find(model);
            if (!p || !p->of(BuyingClass::Reserved))
                return FleetProblem{"/pricing", "no reserved price for GPU model \"" + model +
                                                    "\", which the node list's nodes have"};
        }
    return precisionProblem(s, fleet);
}

std::optional<FleetProblem> pinProblem(const Scenario& s, const Fleet& fleet) {
    const bool anyPin =
        std::any_of(s.jobClasses.begin(), s.jobClasses.end(),
                    [](const JobClassDef& c) { return c.traits.pin.level != PinLevel::None; }) ||
        std::any_of(s.jobs.begin(), s.jobs.end(),
                    [](const JobDef& j) { return j.traits.pin.level != PinLevel::None; });
    if (!anyPin) return std::nullopt;
    PinCheck check(fleet);
    auto where = [](const PinDef& pin) {
        return std::string(toString(pin.level)) + " \"" + pin.target + "\"";
    };
    for (std::size_t i = 0; i < s.jobClasses.size(); ++i) {
        const JobClassDef& c = s.jobClasses[i];
        if (auto why = check.classRefusal(c))
            return FleetProblem{"/jobClasses/" + std::to_string(i),
                                "job class \"" + c.name + "\" can never run on " +
                                    where(c.traits.pin) + ": it " + *why};
    }
    for (std::size_t i = 0; i < s.jobs.size(); ++i) {
        const JobDef& j = s.jobs[i];
        if (auto why = check.jobRefusal(j.traits, j.gpus))
            return FleetProblem{
                "/jobs/" + std::to_string(i),
                "job \"" + j.name + "\" can never run on " + where(j.traits.pin) + ": it " + *why};
    }
    return std::nullopt;
}

}  // namespace gpuplan::detail
