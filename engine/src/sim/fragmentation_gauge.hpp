// The FGD fragmentation measure of a running simulation (the series fragmentation_ratio
// and fragmentation_amount), sampled like the other gauges. The target workload is the scenario's
// job mix as generated: every pod of every job is a task of shape (CPU per pod, milli-GPU per
// GPU, GPUs per pod, GPU model), cut to the commonest shapes holding 95 % of the pods, as the
// FGD paper builds it from its trace (fragmentation.hpp). MIG pods and MIG nodes are outside
// the measure: the paper defines it on milli-GPU, not on instances.
//
// Cost per sample: a node whose GPUs are each wholly free or held has fragment
// f(model, wholly free GPUs) when no task asks CPU, so Ready nodes are summed from the free
// histograms (one table lookup per bucket) and only nodes with shared GPUs are walked. When a
// task asks CPU, every Ready node is walked (its free CPU matters).
#pragma once

#include <span>
#include <vector>

#include "gpuplan/results/run_record.hpp"
#include "resources/cluster_state.hpp"
#include "resources/fragmentation.hpp"

namespace gpuplan::detail {

class FragmentationGauge {
public:
    FragmentationGauge(std::span<const JobRecord> jobs, const Fleet& fleet);

    /// F, free milli-GPU and GPUs over the Ready nodes now.
    ClusterFragmentation measure(const ClusterState& state) const;
    const std::vector<TaskShape>& workload() const { return m_workload; }

private:
    double walkedFragment(const ClusterState& state, int node, std::int64_t& freeMilli) const;

    const Fleet& m_fleet;
    std::vector<TaskShape> m_workload;
    bool m_tasksAskCpu = false;
    int m_width = 1;
    /// [model × width + f]: fragment of a Ready node of `model` with f wholly free GPUs and
    /// nothing shared, when no task asks CPU.
    std::vector<double> m_wholeFragment;
};

}  // namespace gpuplan::detail
