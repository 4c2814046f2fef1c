#include "sharing_edits.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "format/sharing_format.hpp"

namespace gpuplan::app {

namespace {

FleetEdit refuse(std::string reason) {
    return FleetEdit{std::nullopt, std::move(reason), {}};
}

const GpuModel* gpuOf(const Scenario& s, const NodeGroupDef& g) {
    const NodeType* type = s.findNodeType(g.nodeType);
    return type ? s.findGpu(type->gpuModel) : nullptr;
}

bool exists(const Scenario& s, const FleetDefPath& p) {
    if (p.pod < 0 || p.pod >= static_cast<int>(s.pods.size())) return false;
    if (p.rack < 0) return p.group < 0;
    if (p.rack >= static_cast<int>(s.pods[p.pod].racks.size())) return false;
    return p.group < static_cast<int>(s.pods[p.pod].racks[p.rack].nodes.size());
}

NodeGroupDef& group(Scenario& s, const FleetDefPath& p) {
    return s.pods[p.pod].racks[p.rack].nodes[p.group];
}

/// `s` with `sharing` on `groups`, or the refusal; `where` names the target in the label and in
/// the refusal.
FleetEdit apply(Scenario s, const std::vector<FleetDefPath>& groups, const GpuSharingDef& sharing,
                const std::string& where) {
    if (groups.empty()) return refuse("no node group to change");
    const GpuModel* firstGpu = nullptr;
    bool changes = false;
    for (const FleetDefPath& p : groups) {
        NodeGroupDef& g = group(s, p);
        const GpuModel* gpu = gpuOf(s, g);
        if (!gpu) return refuse("node type \"" + g.nodeType + "\" is not in the scenario");
        if (std::string why = ui::sharingRefusal(sharing, *gpu); !why.empty())
            return refuse("MIG on " + where + " refused: " + why);
        if (!firstGpu) firstGpu = gpu;
        changes = changes || g.sharing != sharing;
        g.sharing = sharing;
    }
    if (!changes) return refuse(where + " already has " + ui::sharingSummary(sharing, firstGpu));
    std::string label = ui::sharingSummary(sharing, firstGpu) + " on " + where;
    label.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(label.front())));
    return FleetEdit{std::move(s), {}, std::move(label)};
}

}  // namespace

std::string definitionsName(const Scenario& s, const std::vector<FleetDefPath>& defs) {
    if (defs.empty() ||
        !std::all_of(defs.begin(), defs.end(), [&](const FleetDefPath& p) { return exists(s, p); }))
        return "nothing";
    if (defs.size() != 1) {
        int count[3] = {0, 0, 0};  // pods, racks, node groups
        for (const FleetDefPath& p : defs)
            ++count[p.level()];
        static const char* const kNames[3][2] = {
            {"pod", "pods"}, {"rack", "racks"}, {"node group", "node groups"}};
        std::string out;
        for (int level = 0; level < 3; ++level)
            if (count[level] > 0)
                out += (out.empty() ? "" : ", ") + std::to_string(count[level]) + " " +
                       kNames[level][count[level] > 1];
        return out;
    }
    const FleetDefPath& p = defs.front();
    std::string name = "pod \"" + s.pods[p.pod].name + "\"";
    if (p.rack >= 0) name = "rack \"" + s.pods[p.pod].racks[p.rack].name + "\" of " + name;
    if (p.group >= 0) {
        const RackDef& rack = s.pods[p.pod].racks[p.rack];
        name = "node group \"" + rack.nodes[p.group].name + "\" (" + s.pods[p.pod].name + " / " +
               rack.name + ")";
    }
    return name;
}

std::vector<FleetDefPath> groupsUnder(const Scenario& s, const std::vector<FleetDefPath>& defs) {
    std::vector<FleetDefPath> out;
    for (const FleetDefPath& d : defs) {
        if (!exists(s, d)) continue;
        const auto& racks = s.pods[d.pod].racks;
        for (int r = 0; r < static_cast<int>(racks.size()); ++r) {
            if (d.rack >= 0 && r != d.rack) continue;
            for (int g = 0; g < static_cast<int>(racks[r].nodes.size()); ++g)
                if (d.group < 0 || g == d.group) out.push_back({d.pod, r, g});
        }
    }
    std::sort(out.begin(), out.end(), [](const FleetDefPath& a, const FleetDefPath& b) {
        return std::tie(a.pod, a.rack, a.group) < std::tie(b.pod, b.rack, b.group);
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

FleetEdit setSharing(const Scenario& s, const std::vector<FleetDefPath>& defs,
                     const GpuSharingDef& sharing) {
    return apply(s, groupsUnder(s, defs), sharing, definitionsName(s, defs));
}

FleetEdit setSharingOf(const Scenario& s, const std::string& name, const GpuSharingDef& sharing) {
    Scenario split = s;
    const std::optional<std::vector<FleetDefPath>> groups = isolateGroups(split, name);
    if (!groups) return refuse("no node, rack or pod named \"" + name + "\"");
    return apply(std::move(split), *groups, sharing, name);
}

}  // namespace gpuplan::app
