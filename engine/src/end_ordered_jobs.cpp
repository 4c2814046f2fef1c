#include "end_ordered_jobs.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace gpuplan::detail {

std::size_t EndOrderedJobs::blockFor(const Entry& key) const {
    const auto it = std::lower_bound(m_lastKeys.begin(), m_lastKeys.end(), key);
    const std::size_t block = static_cast<std::size_t>(it - m_lastKeys.begin());
    return std::min(block, m_blocks.size() - 1);
}

void EndOrderedJobs::insert(double endS, std::uint32_t job) {
    const Entry key{endS, job};
    if (m_blocks.empty()) {
        m_blocks.emplace_back().reserve(kMaxBlock);
        m_lastKeys.push_back(key);
    }
    const std::size_t b = blockFor(key);
    std::vector<Entry>& block = m_blocks[b];
    block.insert(std::lower_bound(block.begin(), block.end(), key), key);
    m_lastKeys[b] = block.back();
    ++m_size;
    splitIfFull(b);
}

void EndOrderedJobs::erase(double endS, std::uint32_t job) {
    const Entry key{endS, job};
    if (m_blocks.empty()) throw std::logic_error("EndOrderedJobs: erasing from an empty set");
    const std::size_t b = blockFor(key);
    std::vector<Entry>& block = m_blocks[b];
    const auto it = std::lower_bound(block.begin(), block.end(), key);
    if (it == block.end() || *it != key) throw std::logic_error("EndOrderedJobs: no such entry");
    block.erase(it);
    --m_size;
    if (block.empty()) {
        m_blocks.erase(m_blocks.begin() + static_cast<std::ptrdiff_t>(b));
        m_lastKeys.erase(m_lastKeys.begin() + static_cast<std::ptrdiff_t>(b));
        return;
    }
    m_lastKeys[b] = block.back();
    mergeIfSmall(b);
}

void EndOrderedJobs::splitIfFull(std::size_t b) {
    if (m_blocks[b].size() <= kMaxBlock) return;
    std::vector<Entry>& full = m_blocks[b];
    const auto half = full.begin() + static_cast<std::ptrdiff_t>(full.size() / 2);
    std::vector<Entry> upper;
    upper.reserve(kMaxBlock);
    upper.assign(half, full.end());
    full.erase(half, full.end());
    m_lastKeys[b] = full.back();
    m_lastKeys.insert(m_lastKeys.begin() + static_cast<std::ptrdiff_t>(b + 1), upper.back());
    m_blocks.insert(m_blocks.begin() + static_cast<std::ptrdiff_t>(b + 1), std::move(upper));
}

void EndOrderedJobs::mergeIfSmall(std::size_t b) {
    // Blocks under a quarter full are folded into a neighbour, so the number of blocks stays
    // within a few times size() ÷ kMaxBlock however entries leave.
    if (m_blocks[b].size() >= kMaxBlock / 4) return;
    std::size_t into = b, from = b + 1;
    if (from >= m_blocks.size()) {
        if (b == 0) return;
        into = b - 1;
        from = b;
    }
    if (m_blocks[into].size() + m_blocks[from].size() > kMaxBlock) return;
    std::vector<Entry>& target = m_blocks[into];
    target.insert(target.end(), m_blocks[from].begin(), m_blocks[from].end());
    m_lastKeys[into] = target.back();
    m_blocks.erase(m_blocks.begin() + static_cast<std::ptrdiff_t>(from));
    m_lastKeys.erase(m_lastKeys.begin() + static_cast<std::ptrdiff_t>(from));
}

}  // namespace gpuplan::detail
