#include "scenario_read_fleet_checks.hpp"

#include "gpuplan/scenario_io.hpp"
#include "scenario_read_scheduler.hpp"
#include "text_rules.hpp"

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
    return std::nullopt;
}

}  // namespace gpuplan::detail
