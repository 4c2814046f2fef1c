// The FGD fragmentation measure. Written from the paper's definitions (fragmentation.hpp),
// with the details settled by reading the paper's simulator (hkust-adsl/
// kubernetes-scheduler-simulator, commit 8f3d641): pkg/utils/frag.go and the pod converter
// data/pod_csv_to_yaml.py. The functions cited are that code's; this is our own.
#include "fragmentation.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

namespace gpuplan {

namespace {

std::string joinedSpec(const std::vector<std::string>& models) {
    std::string out;
    for (const std::string& m : models)
        out += (out.empty() ? "" : "|") + m;
    return out;
}

std::int64_t freeMilli(const NodeFree& node) {
    std::int64_t free = 0;
    for (int r : node.freeMilliPerGpu)
        free += r;
    return free;
}

/// F_n(m), given the node's free milli-GPU `free`.
double fragment(const NodeFree& node, const TaskShape& task, std::int64_t free) {
    // frag.go NodeGpuShareFragAmount: every case but "can host" (Q3Satisfied) counts all the
    // node's free milli-GPU; GetNodePodFrag decides the case, in this order:
    // 1. a task asking no GPU (MilliGpu == 0; XLSatisfied or XRLackCPU, enough CPU or not);
    if (task.gpuMilli == 0) return static_cast<double>(free);
    // 2. a model the task does not allow (NoAccess; IsNodeAccessibleToPod);
    if (!task.allowsModel(node.gpuModel)) return static_cast<double>(free);
    // 3. too little free CPU (Q4LackCpu, Q1LackBoth): MilliCpuLeft >= MilliCpu is needed;
    if (node.freeCpuMilli < task.cpuMilli) return static_cast<double>(free);
    // 4. fewer than numGpu GPUs with R_g >= gpuMilli (CanNodeHostPodOnGpuMemory; for whole
    //    GPUs, gpuMilli 1000, fully free ones) (Q2LackGpu);
    int fitting = 0;
    std::int64_t tooSmall = 0;
    for (int r : node.freeMilliPerGpu) {
        if (r >= task.gpuMilli)
            ++fitting;
        else
            tooSmall += r;
    }
    if (fitting < task.numGpu) return static_cast<double>(free);
    // 5. it can host the task: only GPUs too small for it count, Σ R_g · [R_g < gpuMilli]
    //    (GetGpuFragMilliByNodeResAndPodRes).
    return static_cast<double>(tooSmall);
}

}  // namespace

std::uint64_t gpuModelMask(std::span<const std::string> spec,
                           std::span<const std::string> gpuModels) {
    if (spec.empty()) return kAnyGpuModel;
    std::uint64_t mask = 0;
    for (const std::string& name : spec) {
        const auto it = std::find(gpuModels.begin(), gpuModels.end(), name);
        if (it != gpuModels.end()) mask |= std::uint64_t{1} << (it - gpuModels.begin());
    }
    return mask;
}

std::vector<TaskGroup> taskGroups(const std::vector<OpenbPod>& pods,
                                  std::span<const std::string> gpuModels) {
    if (gpuModels.size() > 64)
        throw std::invalid_argument("more than 64 GPU models (" + std::to_string(gpuModels.size()) +
                                    ")");
    // The key is the simulator's PodResource (frag.go GetTypicalPods): CPU, milli-GPU per GPU,
    // GPU count, and the gpu_spec text. Memory is not part of it. pod_csv_to_yaml.py writes
    // the model annotation only for pods with GPUs, so a CPU-only pod's gpu_spec is ignored;
    // specs that differ only in order or repeats ("V100M16|V100M32|V100M32") are distinct.
    using Key = std::tuple<std::int64_t, int, int, std::string>;
    std::map<Key, std::size_t> index;
    std::vector<TaskGroup> groups;
    for (const OpenbPod& pod : pods) {
        const bool cpuOnly = pod.numGpu == 0;
        Key key{pod.cpuMilli, cpuOnly ? 0 : pod.gpuMilli, pod.numGpu,
                cpuOnly ? std::string() : joinedSpec(pod.gpuSpec)};
        const auto [it, fresh] = index.emplace(std::move(key), groups.size());
        if (fresh) {
            TaskGroup g;
            g.shape.cpuMilli = pod.cpuMilli;
            g.shape.gpuMilli = cpuOnly ? 0 : pod.gpuMilli;
            g.shape.numGpu = pod.numGpu;
            g.shape.allowedModels = cpuOnly ? kAnyGpuModel : gpuModelMask(pod.gpuSpec, gpuModels);
            g.gpuSpec = std::get<3>(it->first);
            groups.push_back(std::move(g));
        }
        ++groups[it->second].count;
    }
    for (TaskGroup& g : groups)
        g.shape.probability = static_cast<double>(g.count) / static_cast<double>(pods.size());
    sortTaskGroups(groups);
    return groups;
}

void sortTaskGroups(std::vector<TaskGroup>& groups) {
    // sort.Reverse of TargetPodList.Less (pkg/type/resource.go): count, then PodResource.Less
    // (MilliCpu, MilliGpu, GpuNumber, GpuType), all descending. The key is unique per group, so
    // the order is total and an unstable sort gives the same result.
    std::sort(groups.begin(), groups.end(), [](const TaskGroup& a, const TaskGroup& b) {
        return std::tie(a.count, a.shape.cpuMilli, a.shape.gpuMilli, a.shape.numGpu, a.gpuSpec) >
               std::tie(b.count, b.shape.cpuMilli, b.shape.gpuMilli, b.shape.numGpu, b.gpuSpec);
    });
}

std::vector<TaskShape> targetWorkload(const std::vector<OpenbPod>& pods,
                                      std::span<const std::string> gpuModels, double coverage) {
    if (!(coverage > 0 && coverage <= 1))
        throw std::invalid_argument("the target workload's coverage must be in (0, 1]");
    return targetWorkload(taskGroups(pods, gpuModels), static_cast<std::int64_t>(pods.size()),
                          coverage);
}

std::vector<TaskShape> targetWorkload(std::span<const TaskGroup> groups, std::int64_t totalTasks,
                                      double coverage) {
    if (!(coverage > 0 && coverage <= 1))
        throw std::invalid_argument("the target workload's coverage must be in (0, 1]");
    // frag.go GetTypicalPods with the experiments' settings (scripts/generate_config_and_run.py:
    // isInvolvedCpuPods true, podPopularityThreshold 95, podIncreaseStep 1, gpuResWeight 0; the
    // code's own defaults, 60 % in steps of 10 groups, are not used): take one group at a time
    // while the pods taken are fewer than 95 * total / 100, computed the same way here so that
    // the comparison at the boundary is the same (0.95 * 100 is exactly 95.0).
    const double total = static_cast<double>(totalTasks);
    const double needed = coverage * 100.0 * total / 100.0;
    std::size_t taken = 0;
    std::int64_t covered = 0;
    while (taken < groups.size() && static_cast<double>(covered) < needed)
        covered += groups[taken++].count;
    std::vector<TaskShape> workload;
    workload.reserve(taken);
    for (std::size_t i = 0; i < taken; ++i) {
        workload.push_back(groups[i].shape);
        workload.back().probability =
            static_cast<double>(groups[i].count) / static_cast<double>(covered);
    }
    return workload;
}

double nodeFragment(const NodeFree& node, const TaskShape& task) {
    return fragment(node, task, freeMilli(node));
}

double nodeFragment(const NodeFree& node, std::span<const TaskShape> workload) {
    const std::int64_t free = freeMilli(node);
    double f = 0;
    for (const TaskShape& m : workload)
        f += m.probability * fragment(node, m, free);
    return f;
}

double ClusterFragmentation::ratioPercent() const {
    return freeMilli > 0 ? 100.0 * fragmentMilli / static_cast<double>(freeMilli) : 0.0;
}

double ClusterFragmentation::amountPercent() const {
    return totalGpus > 0 ? 100.0 * fragmentMilli / (1000.0 * static_cast<double>(totalGpus)) : 0.0;
}

ClusterFragmentation clusterFragmentation(std::span<const NodeFree> nodes,
                                          std::span<const TaskShape> workload) {
    ClusterFragmentation c;
    for (const NodeFree& n : nodes) {
        c.fragmentMilli += nodeFragment(n, workload);
        c.freeMilli += freeMilli(n);
        c.totalGpus += static_cast<std::int64_t>(n.freeMilliPerGpu.size());
    }
    return c;
}

}  // namespace gpuplan
