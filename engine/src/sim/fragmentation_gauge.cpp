#include "fragmentation_gauge.hpp"

#include <array>
#include <limits>
#include <string>
#include <unordered_map>

namespace gpuplan::detail {

namespace {

constexpr std::int64_t kNoCpuLimit = std::numeric_limits<std::int64_t>::max() / 4;

}  // namespace

FragmentationGauge::FragmentationGauge(std::span<const JobRecord> jobs, const Fleet& fleet)
    : m_fleet(fleet), m_width(fleet.maxGpusPerNode + 1) {
    // Count pods per shape. Jobs of one class share a shape, so the group of the last job is
    // tried first; a trace's mixed sizes find theirs in a small direct-mapped cache of recent
    // shapes, then in a hash map by the packed shape.
    std::vector<TaskGroup> groups;
    std::unordered_map<std::uint64_t, std::size_t> groupOf;
    constexpr int kCacheBits = 6;
    std::array<std::uint64_t, 1 << kCacheBits> cachedKey;
    std::array<std::size_t, 1 << kCacheBits> cachedGroup{};
    cachedKey.fill(~std::uint64_t{0});
    std::int64_t tasks = 0;
    std::size_t last = 0;
    std::uint64_t lastKey = ~std::uint64_t{0};
    const bool modelsFit = fleet.gpuModels.size() <= 64;
    for (const JobRecord& record : jobs) {
        const JobSpec& s = record.spec;
        if (s.asksMig()) continue;
        const int milli = s.gpuMilli;
        // CPU < 2^32, milli ≤ 1000 (10 bits), GPUs per pod ≤ 64 (7 bits), model + 1 (15 bits:
        // a catalog holds at most 1,000 GPU models).
        const std::uint64_t key = std::uint64_t{s.cpuMilliPerPod} | std::uint64_t(milli) << 32 |
                                  std::uint64_t(s.gpusPerPod) << 42 |
                                  std::uint64_t(s.gpuModel + 1) << 49;
        if (key != lastKey) {
            lastKey = key;
            const std::size_t slot = (key * 0x9E3779B97F4A7C15ull) >> (64 - kCacheBits);
            if (cachedKey[slot] == key) {
                last = cachedGroup[slot];
                groups[last].count += s.pods();
                tasks += s.pods();
                continue;
            }
            const auto [it, fresh] = groupOf.try_emplace(key, groups.size());
            last = it->second;
            cachedKey[slot] = key;
            cachedGroup[slot] = last;
            if (fresh) {
                TaskGroup g;
                g.shape.cpuMilli = s.cpuMilliPerPod;
                g.shape.gpuMilli = milli;
                g.shape.numGpu = s.gpusPerPod;
                g.shape.allowedModels =
                    s.gpuModel < 0 || !modelsFit ? kAnyGpuModel : std::uint64_t{1} << s.gpuModel;
                g.gpuSpec = s.gpuModel < 0 ? std::string() : fleet.gpuModels[s.gpuModel].id;
                groups.push_back(std::move(g));
            }
        }
        groups[last].count += s.pods();
        tasks += s.pods();
    }
    if (tasks == 0) return;
    sortTaskGroups(groups);
    m_workload = targetWorkload(groups, tasks);
    for (const TaskShape& t : m_workload)
        m_tasksAskCpu |= t.cpuMilli > 0;
    if (m_tasksAskCpu) return;
    // The table: a node of `model` with f wholly free GPUs (each 1000 free) and the rest held.
    m_wholeFragment.assign(fleet.gpuModels.size() * m_width, 0.0);
    std::vector<int> freeMilli;
    for (int m = 0; m < static_cast<int>(fleet.gpuModels.size()); ++m)
        for (int f = 1; f < m_width; ++f) {
            freeMilli.assign(f, 1000);
            m_wholeFragment[m * m_width + f] =
                nodeFragment(NodeFree{m, kNoCpuLimit, freeMilli}, m_workload);
        }
}

double FragmentationGauge::walkedFragment(const ClusterState& state, int node,
                                          std::int64_t& freeMilli) const {
    const FleetNode& info = m_fleet.nodes[node];
    int milli[64];
    for (int slot = 0; slot < info.gpus; ++slot) {
        milli[slot] = 1000 - state.usedMilli(node, slot);
        freeMilli += milli[slot];
    }
    const std::int64_t cpu = info.cpuMilli > 0 ? state.freeCpuMilli(node) : kNoCpuLimit;
    return nodeFragment(NodeFree{info.gpuModel, cpu, std::span<const int>(milli, info.gpus)},
                        m_workload);
}

ClusterFragmentation FragmentationGauge::measure(const ClusterState& state) const {
    ClusterFragmentation c;
    c.totalGpus = m_fleet.totalGpus;
    if (m_workload.empty()) return c;
    auto measured = [&](int node) {
        return state.schedulable(node) && m_fleet.nodes[node].sharing.mode != SharingMode::Mig;
    };
    if (m_tasksAskCpu) {
        for (int node = 0; node < state.nodeCount(); ++node)
            if (measured(node)) c.fragmentMilli += walkedFragment(state, node, c.freeMilli);
        return c;
    }
    for (int m = 0; m < static_cast<int>(m_fleet.gpuModels.size()); ++m) {
        const int* hist = state.freeHist(Scope::Fleet, 0, m);
        for (int f = 1; f < m_width; ++f) {
            c.fragmentMilli += hist[f] * m_wholeFragment[m * m_width + f];
            c.freeMilli += std::int64_t{hist[f]} * f * 1000;
        }
    }
    // Shared nodes are in the histograms by their wholly free GPUs: replace that with a walk.
    const IndexSet& shared = state.sharedNodes();
    for (std::uint32_t n = shared.first(); n != IndexSet::npos; n = shared.next(n + 1)) {
        const int node = static_cast<int>(n);
        if (!measured(node)) continue;
        const int f = state.freeGpus(node);
        c.fragmentMilli -= m_wholeFragment[m_fleet.nodes[node].gpuModel * m_width + f];
        c.freeMilli -= std::int64_t{f} * 1000;
        c.fragmentMilli += walkedFragment(state, node, c.freeMilli);
    }
    return c;
}

}  // namespace gpuplan::detail
