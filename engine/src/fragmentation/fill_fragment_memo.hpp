// A node's FGD fragment F_n (fragmentation.hpp nodeFragment) remembered by the node's state,
// for the fill runs: F_n is asked for every node after every arrival and, under FGD, for every
// way a pod could go on every node, while the states nodes pass through repeat a lot.
//
// F_n depends on the node only through its GPU model, its free CPU and the multiset of its
// GPUs' free milli-GPU (not their order: the sums over GPUs are whole numbers). Free CPU
// enters only by comparison with the CPU asks of the workload's GPU tasks, so the key holds the
// number of those asks that fit (a CPU class) instead of the CPU itself: states in one class
// have the same F_n. Nodes with more than 8 GPUs are computed every time (not memoised).
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "resources/fragmentation.hpp"

namespace gpuplan::detail {

class FragmentMemo {
public:
    /// States kept at most (about 64 bytes each): past it F_n is computed each time. The
    /// default trace's FGD fill meets about 10,000.
    static constexpr std::size_t kMaxStates = 2'000'000;

    explicit FragmentMemo(std::vector<TaskShape> workload);

    /// F_n of a node of GPU model `model` with `freeCpuMilli` CPU and `freeMilli` per GPU.
    double fragment(int model, std::int64_t freeCpuMilli, std::span<const int> freeMilli);

    const std::vector<TaskShape>& workload() const { return m_workload; }
    std::size_t states() const { return m_memo.size(); }
    std::uint64_t lookups() const { return m_lookups; }

private:
    struct Key {
        std::uint64_t gpus;   ///< up to 8 free milli values, sorted, 10 bits each (80 → 2 words)
        std::uint64_t other;  ///< the last 2 values, the GPU count, the model, the CPU class
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };
    /// Asks of the GPU tasks at most `freeCpuMilli`: what F_n reads of the CPU.
    int cpuClass(std::int64_t freeCpuMilli) const;

    std::vector<TaskShape> m_workload;
    std::vector<std::int64_t> m_cpuAsks;  ///< distinct CPU asks of the GPU tasks, ascending
    std::unordered_map<Key, double, KeyHash> m_memo;
    std::uint64_t m_lookups = 0;
};

}  // namespace gpuplan::detail
