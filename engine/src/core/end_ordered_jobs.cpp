#include "end_ordered_jobs.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace gpuplan::detail {

void EndOrderedJobs::Block::compact() {
    items.erase(items.begin(), begin());
    head = 0;
}

std::size_t EndOrderedJobs::blockFor(const Entry& key) const {
    const auto it = std::lower_bound(m_largestKeys.begin(), m_largestKeys.end(), key);
    const std::size_t block = static_cast<std::size_t>(it - m_largestKeys.begin());
    return std::min(block, m_blocks.size() - 1);
}

void EndOrderedJobs::insert(double endS, std::uint32_t job, std::uint32_t placementBegin,
                            std::uint32_t placementCount) {
    if (job >= m_newAt.size())
        m_newAt.resize(std::max<std::size_t>(job + 1, 2 * m_newAt.size()), kNotNew);
    m_newAt[job] = static_cast<std::uint32_t>(m_new.size());
    m_new.push_back({endS, job, placementBegin, placementCount});
    ++m_size;
}

void EndOrderedJobs::sortInNew() {
    if (m_new.empty()) return;
    std::vector<Entry> added;
    added.swap(m_new);
    for (const Entry& e : added)
        m_newAt[e.job] = kNotNew;
    std::sort(added.begin(), added.end());
    if (added.size() > (m_size - added.size()) / 8) {  // many at once: one pass over all
        rebuild(std::move(added));
        return;
    }
    for (const Entry& e : added)
        insertIntoBlocks(e);
}

void EndOrderedJobs::rebuild(std::vector<Entry> sortedNew) {
    std::vector<Entry> old;
    old.reserve(m_size - sortedNew.size());
    for (Block& block : m_blocks)
        old.insert(old.end(), block.begin(), block.items.end());
    std::vector<Entry> all(old.size() + sortedNew.size());
    std::merge(old.begin(), old.end(), sortedNew.begin(), sortedNew.end(), all.begin());
    m_blocks.clear();
    m_largestKeys.clear();
    // Half-full blocks: room for the inserts that follow without splitting at once.
    for (std::size_t at = 0; at < all.size(); at += kMaxBlock / 2) {
        const std::size_t end = std::min(all.size(), at + kMaxBlock / 2);
        Block& block = m_blocks.emplace_back();
        block.items.reserve(kMaxBlock);
        block.items.assign(all.begin() + static_cast<std::ptrdiff_t>(at),
                           all.begin() + static_cast<std::ptrdiff_t>(end));
        m_largestKeys.push_back(block.items.back());
    }
}

void EndOrderedJobs::insertIntoBlocks(const Entry& key) {
    if (m_blocks.empty()) {
        m_blocks.emplace_back().items.reserve(kMaxBlock);
        m_largestKeys.push_back(key);
    }
    const std::size_t b = blockFor(key);
    Block& block = m_blocks[b];
    const auto at = std::lower_bound(block.begin(), block.items.end(), key);
    if (at == block.begin() && block.head > 0)
        block.items[--block.head] = key;  // into the gap a leaving job left
    else
        block.items.insert(at, key);
    m_largestKeys[b] = block.items.back();
    splitIfFull(b);
}

void EndOrderedJobs::erase(double endS, std::uint32_t job) {
    const Entry key{endS, job};
    if (job < m_newAt.size() && m_newAt[job] != kNotNew && m_new[m_newAt[job]] == key) {
        // Still unsorted: swap the last new entry into its place.
        const std::uint32_t at = m_newAt[job];
        m_new[at] = m_new.back();
        m_newAt[m_new[at].job] = at;
        m_new.pop_back();
        m_newAt[job] = kNotNew;
        --m_size;
        return;
    }
    if (m_blocks.empty()) throw std::logic_error("EndOrderedJobs: erasing from an empty set");
    // Jobs mostly end in the order they were planned to: the first entry is the usual one.
    Block& front = m_blocks.front();
    std::size_t b = 0;
    if (front.items[front.head] == key) {
        ++front.head;
    } else {
        b = blockFor(key);
        Block& block = m_blocks[b];
        const auto it = std::lower_bound(block.begin(), block.items.end(), key);
        if (it == block.items.end() || *it != key)
            throw std::logic_error("EndOrderedJobs: no such entry");
        block.items.erase(it);
    }
    --m_size;
    Block& block = m_blocks[b];
    if (block.live() == 0) {
        removeBlock(b);
        return;
    }
    if (block.head > block.live()) block.compact();  // the gap never outgrows what is left
    m_largestKeys[b] = block.items.back();
    mergeIfSmall(b);
}

void EndOrderedJobs::removeBlock(std::size_t b) {
    m_blocks.erase(m_blocks.begin() + static_cast<std::ptrdiff_t>(b));
    m_largestKeys.erase(m_largestKeys.begin() + static_cast<std::ptrdiff_t>(b));
}

void EndOrderedJobs::splitIfFull(std::size_t b) {
    if (m_blocks[b].live() <= kMaxBlock) return;
    Block& full = m_blocks[b];
    full.compact();
    const auto half = full.items.begin() + static_cast<std::ptrdiff_t>(full.items.size() / 2);
    Block upper;
    upper.items.reserve(kMaxBlock);
    upper.items.assign(half, full.items.end());
    full.items.erase(half, full.items.end());
    m_largestKeys[b] = full.items.back();
    m_largestKeys.insert(m_largestKeys.begin() + static_cast<std::ptrdiff_t>(b + 1),
                         upper.items.back());
    m_blocks.insert(m_blocks.begin() + static_cast<std::ptrdiff_t>(b + 1), std::move(upper));
}

void EndOrderedJobs::mergeIfSmall(std::size_t b) {
    // A block under a quarter full is folded into the smaller of its neighbours when the two
    // fit in one block. A small block that stays is then next to blocks over three quarters
    // full, so blocks number at most about 3 × size() ÷ (3/4 kMaxBlock) + 1.
    if (m_blocks[b].live() >= kMaxBlock / 4) return;
    std::size_t neighbour = b;
    for (std::size_t n : {b - 1, b + 1}) {  // b − 1 wraps past the end when b is 0
        if (n >= m_blocks.size() || m_blocks[b].live() + m_blocks[n].live() > kMaxBlock) continue;
        if (neighbour == b || m_blocks[n].live() < m_blocks[neighbour].live()) neighbour = n;
    }
    if (neighbour == b) return;
    const std::size_t into = std::min(b, neighbour), from = std::max(b, neighbour);
    Block& target = m_blocks[into];
    target.compact();
    target.items.insert(target.items.end(), m_blocks[from].begin(), m_blocks[from].items.end());
    m_largestKeys[into] = target.items.back();
    removeBlock(from);
}

}  // namespace gpuplan::detail
