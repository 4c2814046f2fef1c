#include "fill_fragment_memo.hpp"

#include <algorithm>

namespace gpuplan::detail {

FragmentMemo::FragmentMemo(std::vector<TaskShape> workload) : m_workload(std::move(workload)) {
    for (const TaskShape& t : m_workload)
        if (t.gpuMilli > 0) m_cpuAsks.push_back(t.cpuMilli);
    std::sort(m_cpuAsks.begin(), m_cpuAsks.end());
    m_cpuAsks.erase(std::unique(m_cpuAsks.begin(), m_cpuAsks.end()), m_cpuAsks.end());
    m_memo.reserve(1 << 14);
}

int FragmentMemo::cpuClass(std::int64_t freeCpuMilli) const {
    return static_cast<int>(std::upper_bound(m_cpuAsks.begin(), m_cpuAsks.end(), freeCpuMilli) -
                            m_cpuAsks.begin());
}

std::size_t FragmentMemo::KeyHash::operator()(const Key& k) const {
    // splitmix64's finaliser over both words: states differ in few bits.
    std::uint64_t z = k.gpus ^ (k.other * 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(z ^ (z >> 31));
}

double FragmentMemo::fragment(int model, std::int64_t freeCpuMilli,
                              std::span<const int> freeMilli) {
    const NodeFree node{model, freeCpuMilli, freeMilli};
    const std::size_t n = freeMilli.size();
    // More GPUs than the key holds, or more models or CPU classes than its fields: compute.
    if (n > 8 || model < 0 || model >= 64 || m_cpuAsks.size() >= (1u << 16))
        return nodeFragment(node, m_workload);
    ++m_lookups;
    int sorted[8];
    std::copy(freeMilli.begin(), freeMilli.end(), sorted);
    std::sort(sorted, sorted + n);
    Key key{0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        const auto v = static_cast<std::uint64_t>(sorted[i]);  // 0 … 1000 < 2^10
        if (i < 6)
            key.gpus |= v << (10 * i);
        else
            key.other |= v << (10 * (i - 6));
    }
    // other: bits 0–19 GPUs 7 and 8, 20–23 the GPU count, 24–29 the model, 32–47 the class.
    key.other |= static_cast<std::uint64_t>(n) << 20;
    key.other |= static_cast<std::uint64_t>(model) << 24;
    key.other |= static_cast<std::uint64_t>(cpuClass(freeCpuMilli)) << 32;
    if (m_memo.size() >= kMaxStates) {  // full: what is in it still serves
        const auto it = m_memo.find(key);
        return it != m_memo.end() ? it->second : nodeFragment(node, m_workload);
    }
    const auto [it, fresh] = m_memo.try_emplace(key, 0.0);
    if (fresh) it->second = nodeFragment(node, m_workload);
    return it->second;
}

}  // namespace gpuplan::detail
