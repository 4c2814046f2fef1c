#include "sharing_format.hpp"

#include <map>
#include <stdexcept>

#include "gpuplan/model/mig_geometry.hpp"

namespace gpuplan::ui {

namespace {

/// "3g.40gb+2g.20gb+2×1g.10gb", or nothing when `gpu` cannot hold the layout.
std::string migSummary(const std::string& layoutText, const GpuModel& gpu) {
    const std::optional<MigFamily> family = migFamilyFor(gpu);
    if (!family) return {};
    try {
        const MigLayout layout = parseMigLayout(layoutText, *family, gpu.migMaxInstances);
        std::map<int, int> countBySize;  // profile index (smallest first) → instances
        const auto profiles = migProfiles(*family);
        for (const MigInstance& i : layout.instances())
            for (int p = 0; p < static_cast<int>(profiles.size()); ++p)
                if (profiles[p].id == i.profileId) ++countBySize[p];
        std::string out;
        for (auto it = countBySize.rbegin(); it != countBySize.rend(); ++it) {
            if (!out.empty()) out += "+";
            if (it->second > 1) out += std::to_string(it->second) + "×";
            out += profiles[it->first].name;
        }
        return out;
    } catch (const std::invalid_argument&) {
        return {};
    }
}

}  // namespace

std::string sharingSummary(const GpuSharingDef& s, const GpuModel* gpu) {
    switch (s.mode) {
        case SharingMode::Whole:
            return "whole GPUs";
        case SharingMode::Mps: {
            std::string out = "MPS (" + std::to_string(s.mpsClients) +
                              (s.mpsClients == 1 ? " client" : " clients");
            // Caps only when set: the defaults (100 %, HBM × share) limit nothing extra.
            if (s.mpsComputeCapPct < 100)
                out += ", cap " + std::to_string(static_cast<int>(s.mpsComputeCapPct)) + " %";
            if (s.mpsMemoryLimitGb > 0)
                out += ", " + std::to_string(static_cast<int>(s.mpsMemoryLimitGb)) + " GB";
            return out + ")";
        }
        case SharingMode::TimeSlicing:
            return "time-slicing (" + std::to_string(s.timeSliceReplicas) + " replicas)";
        case SharingMode::Mig: {
            std::string summary = gpu ? migSummary(s.migLayout, *gpu) : std::string();
            std::string out = "MIG " + (summary.empty() ? s.migLayout : summary);
            if (!s.migLayouts.empty()) {
                // A layout per GPU: "MIG per GPU: 4 × (3g.40gb+2g.20gb+2×1g.10gb), 4 × (…)".
                out = "MIG per GPU:";
                for (const MigLayoutRun& run : s.migLayouts) {
                    std::string one = gpu ? migSummary(run.layout, *gpu) : std::string();
                    if (one.empty()) one = run.layout.empty() ? "no instance" : run.layout;
                    out += (&run == &s.migLayouts.front() ? " " : ", ") + std::to_string(run.gpus) +
                           " × (" + one + ")";
                }
                summary = out;  // not empty: ", dynamic" follows
            }
            if (s.migDynamic)
                out += (summary.empty() && s.migLayout.empty() ? "dynamic" : ", dynamic") +
                       std::string(" (re-cut ") +
                       std::to_string(static_cast<int>(s.migReconfigureS)) + " s)";
            return out;
        }
    }
    return {};
}

std::string sharingRefusal(const GpuSharingDef& sharing, const GpuModel& gpu) {
    if (sharing.mode != SharingMode::Mig) return {};
    const std::optional<MigFamily> family = migFamilyFor(gpu);
    if (!family)
        return gpu.migMaxInstances == 0
                   ? gpu.name + " has no MIG (the catalog gives it no MIG instances)"
                   : "the MIG profiles of " + gpu.name + " are not known";
    try {
        // Only the geometry is checked here; that a static GPU needs an instance is the
        // scenario reader's rule, which the document's validation applies.
        for (const std::string& layout : sharing.migLayoutTexts())
            parseMigLayout(layout, *family, gpu.migMaxInstances);
    } catch (const std::invalid_argument& e) {
        return std::string(e.what()) + " (on " + gpu.name + ")";
    }
    return {};
}

}  // namespace gpuplan::ui
