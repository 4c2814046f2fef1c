#include "node_type_read.hpp"

namespace gpuplan::detail {

std::optional<double> optionalNumber(JsonObject& o, std::string_view key, double min, double max) {
    auto node = o.optional(key);
    if (!node || node->raw().is_null()) return std::nullopt;
    return node->number(min, max);
}

NodeType readNodeType(JsonObject& o, const Catalog& catalog, NodeTypeOrigin origin) {
    const bool fromCatalog = origin == NodeTypeOrigin::Catalog;
    NodeType t;
    t.id = o.required("id").name();
    if (fromCatalog)
        t.name = o.required("name").string(256);
    else if (auto v = o.optional("name"))
        t.name = v->string(256);
    else
        t.name = t.id;
    JsonNode modelNode = o.required("gpuModel");
    t.gpuModel = modelNode.string(64);
    if (!catalog.findGpu(t.gpuModel))
        modelNode.fail("unknown GPU model \"" + escapedForMessage(t.gpuModel) +
                       "\" (not in the catalog)");
    t.gpusPerNode = static_cast<int>(o.required("gpusPerNode").integer(1, 64));
    // Kubernetes' allocatable CPU is milli-cores ("191450m"): fractions of a core are kept.
    t.cpuCores = optionalNumber(o, "cpuCores", 0, 1e5);
    t.ramGb = optionalNumber(o, "ramGb", 0, 1e7);
    // A count of NICs is whole: 1.5 is refused, not cut to 1.
    if (auto v = o.optional("nicCount"); v && !v->raw().is_null())
        t.nicCount = static_cast<int>(v->integer(0, 1024));
    t.nicGbps = optionalNumber(o, "nicGbps", 0, 1e5);
    t.fabricGbpsPerNode = optionalNumber(o, "fabricGbpsPerNode", 0, 1e7);
    t.maxPowerKw = optionalNumber(o, "maxPowerKw", 0, 1e4);
    std::optional<JsonNode> domain =
        fromCatalog ? o.required("nvlinkDomain") : o.optional("nvlinkDomain");
    if (domain)
        t.nvlinkDomain = domain->enumeration<NvlinkDomain>(
            {{"node", NvlinkDomain::Node}, {"rack", NvlinkDomain::Rack}});
    std::optional<JsonNode> perDomain =
        fromCatalog ? o.required("nodesPerNvlinkDomain") : o.optional("nodesPerNvlinkDomain");
    if (perDomain) t.nodesPerNvlinkDomain = static_cast<int>(perDomain->integer(1, 1024));
    if (auto n = o.optional("notes")) t.notes = n->string();
    return t;
}

}  // namespace gpuplan::detail
