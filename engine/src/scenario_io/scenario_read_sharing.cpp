// A node group's "sharing" (scenario_read_sharing.hpp; the modes: engine/README.md,
// "Resource model").
#include "scenario_read_sharing.hpp"

#include <stdexcept>

#include "gpuplan/model/mig_geometry.hpp"

namespace gpuplan::detail {

namespace {

/// A layout's text, checked against the GPU's real geometry.
std::string checkedLayout(const JsonNode& at, MigFamily family, const GpuModel& gpu) {
    std::string text = at.string(256);
    try {
        parseMigLayout(text, family, gpu.migMaxInstances);
    } catch (const std::invalid_argument& e) {
        at.fail(std::string(e.what()) + " (on " + gpu.id + ")");
    }
    return text;
}

/// "migLayouts": [{"gpus": 4, "layout": "3g.40gb, 2g.20gb, …"}, …], the node's GPUs in
/// order: the counts must add up to the node type's GPUs.
std::vector<MigLayoutRun> migLayoutRuns(const JsonNode& node, const NodeType& type,
                                        MigFamily family, const GpuModel& gpu) {
    std::vector<MigLayoutRun> runs;
    int gpus = 0;
    for (const JsonNode& item : node.array(64)) {
        JsonObject o = item.object();
        MigLayoutRun run;
        run.gpus = static_cast<int>(o.required("gpus").integer(1, 64));
        run.layout = checkedLayout(o.required("layout"), family, gpu);
        o.finish();
        gpus += run.gpus;
        runs.push_back(std::move(run));
    }
    if (gpus != type.gpusPerNode)
        node.fail("the runs' \"gpus\" add up to " + std::to_string(gpus) + ", and node type \"" +
                  type.id + "\" has " + std::to_string(type.gpusPerNode) + " GPUs");
    return runs;
}

bool hasInstance(const std::string& layout) {
    return layout.find_first_not_of(" \t,+") != std::string::npos;
}

}  // namespace

GpuSharingDef readSharing(const JsonNode& node, const NodeType& type, const Catalog& catalog) {
    JsonObject o = node.object();
    GpuSharingDef d;
    const JsonNode modeNode = o.required("mode");
    d.mode = modeNode.enumeration<SharingMode>({{"whole", SharingMode::Whole},
                                                {"mps", SharingMode::Mps},
                                                {"time-slicing", SharingMode::TimeSlicing},
                                                {"mig", SharingMode::Mig}});
    auto onlyFor = [&](const char* key, SharingMode mode, const char* modeName) {
        std::optional<JsonNode> v = o.optional(key);
        if (v && d.mode != mode)
            v->fail(std::string("only applies to \"mode\": \"") + modeName + "\"");
        return v;
    };
    // MPS: 48 clients per GPU on Volta and later (NVIDIA's MPS documentation).
    if (auto v = onlyFor("mpsClients", SharingMode::Mps, "mps"))
        d.mpsClients = static_cast<int>(v->integer(1, GpuSharingDef::kMaxMpsClients));
    if (auto v = onlyFor("mpsComputeCapPct", SharingMode::Mps, "mps"))
        d.mpsComputeCapPct = v->number(1, 100);
    if (auto v = onlyFor("mpsMemoryLimitGb", SharingMode::Mps, "mps"))
        d.mpsMemoryLimitGb = v->number(0, 1e5);
    if (auto v = onlyFor("replicas", SharingMode::TimeSlicing, "time-slicing"))
        d.timeSliceReplicas =
            static_cast<int>(v->integer(GpuSharingDef::kMinReplicas, GpuSharingDef::kMaxReplicas));
    std::optional<JsonNode> layout = onlyFor("migLayout", SharingMode::Mig, "mig");
    std::optional<JsonNode> perGpu = onlyFor("migLayouts", SharingMode::Mig, "mig");
    for (const char* key : {"dynamic", "reconfigureS"})
        onlyFor(key, SharingMode::Mig, "mig");
    if (d.mode == SharingMode::Mig) {
        const GpuModel* gpu = catalog.findGpu(type.gpuModel);
        const std::optional<MigFamily> family =
            gpu ? migFamilyFor(*gpu) : std::optional<MigFamily>();
        if (!family)
            modeNode.fail("GPU model \"" + type.gpuModel + "\" of node type \"" + type.id +
                          "\" has no MIG geometry");
        if (auto v = o.optional("dynamic")) d.migDynamic = v->boolean();
        if (auto v = o.optional("reconfigureS")) d.migReconfigureS = v->number(0, 86400);
        if (layout && perGpu)
            perGpu->fail("give \"migLayout\" (every GPU) or \"migLayouts\" (per GPU), not both");
        if (!layout && !perGpu) o.fail("missing key \"migLayout\" (e.g. \"3g.40gb, 4g.40gb\")");
        bool anyInstance = false;
        if (layout) {
            d.migLayout = checkedLayout(*layout, *family, *gpu);
            anyInstance = hasInstance(d.migLayout);
        } else {
            d.migLayouts = migLayoutRuns(*perGpu, type, *family, *gpu);
            for (const MigLayoutRun& run : d.migLayouts)
                anyInstance = anyInstance || hasInstance(run.layout);
        }
        // A dynamic GPU may start uncut: the scheduler cuts it for what is pending.
        if (!d.migDynamic && !anyInstance)
            (layout ? *layout : *perGpu)
                .fail(
                    "a MIG layout needs at least one instance (e.g. \"7g.80gb\"), unless "
                    "\"dynamic\": true lets the scheduler cut the GPUs");
    }
    o.finish();
    return d;
}

}  // namespace gpuplan::detail
