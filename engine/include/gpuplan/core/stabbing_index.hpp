// Which of many intervals, sorted by start, hold a time t: the latest end per block of
// intervals, as an implicit binary tree, so a query visits only blocks holding an interval
// still open at t and costs about its answer, not the past (Results::pendingAt, stateAt).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <limits>
#include <vector>

namespace gpuplan {

class StabbingIndex {
public:
    static constexpr std::size_t kBlock = 16;

    StabbingIndex() = default;
    /// `count` intervals whose starts never decrease; endOf(i) is the i-th one's end.
    template <class EndOf>
    StabbingIndex(std::size_t count, EndOf&& endOf) : m_count(count) {
        const std::size_t blocks = (count + kBlock - 1) / kBlock;
        m_leaves = std::bit_ceil(std::max<std::size_t>(blocks, 1));
        m_latestEndS.assign(2 * m_leaves, -std::numeric_limits<double>::infinity());
        for (std::size_t i = 0; i < count; ++i) {
            double& leaf = m_latestEndS[m_leaves + i / kBlock];
            leaf = std::max(leaf, static_cast<double>(endOf(i)));
        }
        for (std::size_t i = m_leaves - 1; i >= 1; --i)
            m_latestEndS[i] = std::max(m_latestEndS[2 * i], m_latestEndS[2 * i + 1]);
    }

    std::size_t size() const { return m_count; }

    /// Calls visit(i) for every i < started whose block may hold an interval ending after
    /// timeS, in index order; `started` counts the intervals starting at or before timeS (an
    /// upper bound on start). The caller checks each one's end.
    template <class Visit>
    void forEachCandidate(std::size_t started, double timeS, Visit&& visit) const {
        started = std::min(started, m_count);
        if (started == 0) return;
        const std::size_t startedBlocks = (started + kBlock - 1) / kBlock;
        struct Node {
            std::size_t index, firstBlock, blockCount;
        };
        Node stack[128];  // depth-first: at most one pending sibling per level
        int depth = 0;
        stack[depth++] = {1, 0, m_leaves};
        while (depth > 0) {
            const Node n = stack[--depth];
            if (n.firstBlock >= startedBlocks || m_latestEndS[n.index] <= timeS) continue;
            if (n.blockCount == 1) {
                const std::size_t first = n.firstBlock * kBlock;
                const std::size_t last = std::min(started, first + kBlock);
                for (std::size_t i = first; i < last; ++i)
                    visit(i);
                continue;
            }
            const std::size_t half = n.blockCount / 2;
            stack[depth++] = {2 * n.index + 1, n.firstBlock + half, half};
            stack[depth++] = {2 * n.index, n.firstBlock, half};
        }
    }

private:
    std::size_t m_count = 0;
    std::size_t m_leaves = 0;
    std::vector<double> m_latestEndS;  ///< root 1, children 2i and 2i + 1, leaves from m_leaves
};

}  // namespace gpuplan
