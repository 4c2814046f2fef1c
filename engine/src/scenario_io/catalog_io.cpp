// presets/catalog/catalog.json → Catalog.
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "io/json_reader.hpp"
#include "node_type_read.hpp"

namespace gpuplan {

using detail::JsonNode;
using detail::JsonObject;
using detail::optionalNumber;

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
        NodeType t = detail::readNodeType(o, catalog, detail::NodeTypeOrigin::Catalog);
        if (catalog.findNodeType(t.id))
            o.required("id").fail("duplicate node type id \"" + t.id + "\"");
        t.sources = sourceKeys(o, catalog);
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
