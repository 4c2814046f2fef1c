// presets/catalog/catalog.json → Catalog.
#include "json_reader.hpp"

namespace gpuplan {

using detail::JsonNode;
using detail::JsonObject;

namespace {

std::vector<std::string> sourceKeys(JsonObject& o, const Catalog& catalog) {
    std::vector<std::string> keys;
    if (auto node = o.optional("sources")) {
        for (const JsonNode& item : node->array(64)) {
            std::string key = item.string(128);
            bool known = false;
            for (const CatalogSource& s : catalog.sources)
                known = known || s.key == key;
            if (!known)
                item.fail("source \"" + detail::escapedForMessage(key) +
                          "\" is not in the top-level \"sources\" map");
            keys.push_back(std::move(key));
        }
    }
    return keys;
}

std::optional<double> optionalNumber(JsonObject& o, std::string_view key, double min, double max) {
    auto node = o.optional(key);
    if (!node || node->raw().is_null()) return std::nullopt;
    return node->number(min, max);
}

}  // namespace

Catalog parseCatalog(std::string_view text, const std::string& sourceName) {
    const detail::Json doc = detail::parseStrict(text, sourceName);
    JsonObject root = JsonNode(doc, "", sourceName).object();
    if (root.required("format").string(64) != "gpuplan-catalog")
        root.required("format").fail("expected \"gpuplan-catalog\"");
    root.required("formatVersion").integer(1, 1);
    Catalog catalog;
    catalog.asOf = root.required("asOf").string(64);
    if (auto d = root.optional("description")) d->string();

    JsonObject sources = root.required("sources").object();
    for (const auto& [key, value] : sources.node().raw().items()) {
        JsonObject s = sources.required(key).object();
        catalog.sources.push_back({key, s.required("title").string(), s.required("url").string()});
        s.finish();
    }
    sources.finish();

    for (const JsonNode& item : root.required("gpuModels").array(1000)) {
        JsonObject o = item.object();
        GpuModel g;
        g.id = o.required("id").name();
        if (catalog.findGpu(g.id)) o.required("id").fail("duplicate GPU model id \"" + g.id + "\"");
        g.name = o.required("name").string(256);
        g.vendor = o.required("vendor").string(64);
        g.bf16DenseTflops = o.required("bf16DenseTflops").number(0.001, 1e6);
        g.fp8DenseTflops = optionalNumber(o, "fp8DenseTflops", 0, 1e6);
        g.hbmGb = o.required("hbmGb").number(0.001, 1e5);
        g.hbmTbps = o.required("hbmTbps").number(0, 1e3);
        g.nvlinkGBps = o.required("nvlinkGBps").number(0, 1e5);
        g.tdpW = o.required("tdpW").number(0, 1e5);
        g.migMaxInstances = static_cast<int>(o.required("migMaxInstances").integer(0, 8));
        if (auto labels = o.optional("productLabels")) {
            for (const JsonNode& item : labels->array(16)) {
                std::string label = item.string(128);
                for (const GpuModel& other : catalog.gpuModels)
                    for (const std::string& taken : other.productLabels)
                        if (detail::equalIgnoringCase(taken, label))
                            item.fail("product label \"" + detail::escapedForMessage(label) +
                                      "\" is already GPU model \"" + other.id + "\"'s");
                g.productLabels.push_back(std::move(label));
            }
        }
        g.sources = sourceKeys(o, catalog);
        if (auto n = o.optional("notes")) g.notes = n->string();
        o.finish();
        catalog.gpuModels.push_back(std::move(g));
    }

    for (const JsonNode& item : root.required("nodeTypes").array(1000)) {
        JsonObject o = item.object();
        NodeType t;
        t.id = o.required("id").name();
        if (catalog.findNodeType(t.id))
            o.required("id").fail("duplicate node type id \"" + t.id + "\"");
        t.name = o.required("name").string(256);
        t.gpuModel = o.required("gpuModel").string(64);
        if (!catalog.findGpu(t.gpuModel))
            o.required("gpuModel")
                .fail("unknown GPU model \"" + detail::escapedForMessage(t.gpuModel) + "\"");
        t.gpusPerNode = static_cast<int>(o.required("gpusPerNode").integer(1, 64));
        if (auto v = optionalNumber(o, "cpuCores", 0, 1e5)) t.cpuCores = static_cast<int>(*v);
        t.ramGb = optionalNumber(o, "ramGb", 0, 1e7);
        if (auto v = optionalNumber(o, "nicCount", 0, 1024)) t.nicCount = static_cast<int>(*v);
        t.nicGbps = optionalNumber(o, "nicGbps", 0, 1e5);
        t.fabricGbpsPerNode = optionalNumber(o, "fabricGbpsPerNode", 0, 1e7);
        t.maxPowerKw = optionalNumber(o, "maxPowerKw", 0, 1e4);
        t.nvlinkDomain = o.required("nvlinkDomain")
                             .enumeration<NvlinkDomain>(
                                 {{"node", NvlinkDomain::Node}, {"rack", NvlinkDomain::Rack}});
        t.nodesPerNvlinkDomain =
            static_cast<int>(o.required("nodesPerNvlinkDomain").integer(1, 1024));
        t.sources = sourceKeys(o, catalog);
        if (auto n = o.optional("notes")) t.notes = n->string();
        o.finish();
        catalog.nodeTypes.push_back(std::move(t));
    }
    root.finish();
    return catalog;
}

Catalog loadCatalog(const std::filesystem::path& file) {
    return parseCatalog(readTextFile(file), file.string());
}

}  // namespace gpuplan
