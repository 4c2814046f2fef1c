#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

namespace {
template <class T>
const T* findById(const std::vector<T>& items, std::string_view id) {
    for (const T& item : items)
        if (item.id == id) return &item;
    return nullptr;
}
}  // namespace

const GpuModel* Catalog::findGpu(std::string_view id) const {
    return findById(gpuModels, id);
}
const NodeType* Catalog::findNodeType(std::string_view id) const {
    return findById(nodeTypes, id);
}
const GpuModel* Scenario::findGpu(std::string_view id) const {
    return findById(gpuModels, id);
}
const NodeType* Scenario::findNodeType(std::string_view id) const {
    return findById(nodeTypes, id);
}

bool preemptionPossible(const Scenario& s) {
    if (s.scheduler.preemption != PreemptionMode::Off) return true;
    for (const QuotaDef& q : s.quotas)
        if (q.reclaimWithinCohort != ReclaimPolicy::Never ||
            q.withinTeam != WithinTeamPolicy::Never)
            return true;
    return false;
}

const char* toString(BuyingClass v) {
    switch (v) {
        case BuyingClass::Reserved:
            return "reserved";
        case BuyingClass::OnDemand:
            return "on-demand";
        case BuyingClass::Spot:
            return "spot";
        case BuyingClass::CapacityBlock:
            return "capacity-block";
        case BuyingClass::OnPrem:
            return "on-prem";
    }
    return "?";
}
const char* toString(NodeState v) {
    switch (v) {
        case NodeState::Provisioning:
            return "provisioning";
        case NodeState::Ready:
            return "ready";
        case NodeState::Cordoned:
            return "cordoned";
        case NodeState::Failed:
            return "failed";
        case NodeState::Draining:
            return "draining";
        case NodeState::Repairing:
            return "repairing";
    }
    return "?";
}
const char* toString(SharingMode v) {
    switch (v) {
        case SharingMode::Whole:
            return "whole";
        case SharingMode::Mps:
            return "mps";
        case SharingMode::TimeSlicing:
            return "time-slicing";
        case SharingMode::Mig:
            return "mig";
    }
    return "?";
}
const std::string& GpuSharingDef::migLayoutOfGpu(int gpu) const {
    for (const MigLayoutRun& run : migLayouts) {
        if (gpu < run.gpus) return run.layout;
        gpu -= run.gpus;
    }
    return migLayout;
}

std::vector<std::string> GpuSharingDef::migLayoutTexts() const {
    if (migLayouts.empty()) return {migLayout};
    std::vector<std::string> out;
    for (const MigLayoutRun& run : migLayouts)
        out.push_back(run.layout);
    return out;
}

const char* toString(PinLevel v) {
    switch (v) {
        case PinLevel::None:
            return "none";
        case PinLevel::Node:
            return "node";
        case PinLevel::Rack:
            return "rack";
        case PinLevel::Pod:
            return "pod";
    }
    return "?";
}
const char* toString(ArrivalProcess v) {
    switch (v) {
        case ArrivalProcess::Poisson:
            return "poisson";
        case ArrivalProcess::Diurnal:
            return "diurnal";
        case ArrivalProcess::Tide:
            return "tide";
        case ArrivalProcess::List:
            return "list";
    }
    return "?";
}
const char* toString(DistKind v) {
    switch (v) {
        case DistKind::Fixed:
            return "fixed";
        case DistKind::Exponential:
            return "exponential";
        case DistKind::Lognormal:
            return "lognormal";
        case DistKind::Uniform:
            return "uniform";
        case DistKind::Empirical:
            return "empirical";
    }
    return "?";
}
const char* toString(QueueOrder v) {
    switch (v) {
        case QueueOrder::PriorityFifo:
            return "priority-fifo";
        case QueueOrder::PrioritySmallestFirst:
            return "priority-smallest-first";
    }
    return "?";
}
const char* toString(PlacementPolicy v) {
    switch (v) {
        case PlacementPolicy::Pack:
            return "pack";
        case PlacementPolicy::Spread:
            return "spread";
        case PlacementPolicy::TopologyAware:
            return "topology";
    }
    return "?";
}
const char* toString(PreemptionMode v) {
    switch (v) {
        case PreemptionMode::Off:
            return "off";
        case PreemptionMode::Priority:
            return "priority";
    }
    return "?";
}
// Kubernetes' and Kueue's own spellings, as their manifests write them.
const char* toString(PreemptionPolicy v) {
    switch (v) {
        case PreemptionPolicy::PreemptLowerPriority:
            return "PreemptLowerPriority";
        case PreemptionPolicy::Never:
            return "Never";
    }
    return "?";
}

const char* toString(Precision v) {
    switch (v) {
        case Precision::Bf16:
            return "bf16";
        case Precision::Fp8:
            return "fp8";
    }
    return "?";
}
const char* toString(ReclaimPolicy v) {
    switch (v) {
        case ReclaimPolicy::Never:
            return "Never";
        case ReclaimPolicy::LowerPriority:
            return "LowerPriority";
        case ReclaimPolicy::Any:
            return "Any";
    }
    return "?";
}
const char* toString(WithinTeamPolicy v) {
    switch (v) {
        case WithinTeamPolicy::Never:
            return "Never";
        case WithinTeamPolicy::LowerPriority:
            return "LowerPriority";
        case WithinTeamPolicy::LowerOrNewerEqualPriority:
            return "LowerOrNewerEqualPriority";
    }
    return "?";
}
const char* toString(BackfillMode v) {
    switch (v) {
        case BackfillMode::Easy:
            return "easy";
        case BackfillMode::None:
            return "none";
        case BackfillMode::Greedy:
            return "greedy";
    }
    return "?";
}
const char* toString(TraceFormat v) {
    switch (v) {
        case TraceFormat::Philly:
            return "philly";
        case TraceFormat::Openb:
            return "openb";
        case TraceFormat::Sacct:
            return "sacct";
    }
    return "?";
}
const char* toString(NodeListFormat v) {
    switch (v) {
        case NodeListFormat::Openb:
            return "openb";
    }
    return "?";
}
const char* toString(NvlinkDomain v) {
    switch (v) {
        case NvlinkDomain::Node:
            return "node";
        case NvlinkDomain::Rack:
            return "rack";
    }
    return "?";
}

}  // namespace gpuplan
