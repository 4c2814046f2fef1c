#include "end_ordered_jobs.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace gpuplan::detail {

namespace {
/// Position of `key` in a descending block: the first entry not above it.
auto positionIn(std::vector<EndOrderedJobs::Entry>& block, const EndOrderedJobs::Entry& key) {
    return std::lower_bound(block.begin(), block.end(), key,
                            [](const auto& a, const auto& b) { return b < a; });
}
}  // namespace

std::size_t EndOrderedJobs::blockFor(const Entry& key) const {
    const auto it = std::lower_bound(m_largestKeys.begin(), m_largestKeys.end(), key);
    const std::size_t block = static_cast<std::size_t>(it - m_largestKeys.begin());
    return std::min(block, m_blocks.size() - 1);
}

void EndOrderedJobs::insert(double endS, std::uint32_t job) {
    const Entry key{endS, job};
    if (m_blocks.empty()) {
        m_blocks.emplace_back().reserve(kMaxBlock);
        m_largestKeys.push_back(key);
    }
    const std::size_t b = blockFor(key);
    std::vector<Entry>& block = m_blocks[b];
    block.insert(positionIn(block, key), key);
    m_largestKeys[b] = block.front();
    ++m_size;
    splitIfFull(b);
}

void EndOrderedJobs::erase(double endS, std::uint32_t job) {
    const Entry key{endS, job};
    if (m_blocks.empty()) throw std::logic_error("EndOrderedJobs: erasing from an empty set");
    // Jobs mostly end in the order they were planned to: the first entry is the usual one.
    const bool first = m_blocks.front().back() == key;
    const std::size_t b = first ? 0 : blockFor(key);
    std::vector<Entry>& block = m_blocks[b];
    const auto it = first ? block.end() - 1 : positionIn(block, key);
    if (it == block.end() || *it != key) throw std::logic_error("EndOrderedJobs: no such entry");
    block.erase(it);
    --m_size;
    if (block.empty()) {
        m_blocks.erase(m_blocks.begin() + static_cast<std::ptrdiff_t>(b));
        m_largestKeys.erase(m_largestKeys.begin() + static_cast<std::ptrdiff_t>(b));
        return;
    }
    m_largestKeys[b] = block.front();
    mergeIfSmall(b);
}

void EndOrderedJobs::splitIfFull(std::size_t b) {
    if (m_blocks[b].size() <= kMaxBlock) return;
    // The front half holds the larger keys: it becomes the next block.
    std::vector<Entry>& full = m_blocks[b];
    const auto half = full.begin() + static_cast<std::ptrdiff_t>(full.size() / 2);
    std::vector<Entry> larger;
    larger.reserve(kMaxBlock);
    larger.assign(full.begin(), half);
    full.erase(full.begin(), half);
    m_largestKeys[b] = full.front();
    m_largestKeys.insert(m_largestKeys.begin() + static_cast<std::ptrdiff_t>(b + 1),
                         larger.front());
    m_blocks.insert(m_blocks.begin() + static_cast<std::ptrdiff_t>(b + 1), std::move(larger));
}

void EndOrderedJobs::mergeIfSmall(std::size_t b) {
    // Blocks under a quarter full are folded into a neighbour, so the number of blocks stays
    // within a few times size() ÷ kMaxBlock however entries leave.
    if (m_blocks[b].size() >= kMaxBlock / 4) return;
    std::size_t into = b, from = b + 1;  // `from` holds the larger keys
    if (from >= m_blocks.size()) {
        if (b == 0) return;
        into = b - 1;
        from = b;
    }
    if (m_blocks[into].size() + m_blocks[from].size() > kMaxBlock) return;
    std::vector<Entry>& target = m_blocks[into];
    target.insert(target.begin(), m_blocks[from].begin(), m_blocks[from].end());
    m_largestKeys[into] = target.front();
    m_blocks.erase(m_blocks.begin() + static_cast<std::ptrdiff_t>(from));
    m_largestKeys.erase(m_largestKeys.begin() + static_cast<std::ptrdiff_t>(from));
}

}  // namespace gpuplan::detail
