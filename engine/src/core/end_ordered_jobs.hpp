// Bound jobs in the order they release their GPUs: what a backfill reservation walks.
// Every bind inserts and every release erases, so both must be cheap; the walk must be a
// plain in-order scan. A std::set made each bind and release a tree descent and an
// allocation (about 12 % of a Philly replay). Here the keys live in ascending blocks of at
// most kMaxBlock entries, found by a binary search over the blocks' largest keys: inserting
// or erasing moves at most one block's entries (and, when a block splits, merges or empties,
// the short lists of blocks), and scanning reads memory in order.
// The usual moves cost nothing to shift: a job that ends first leaves from a block's front
// (the block's live entries start one later), and a new job that ends last joins at the back.
// Only a reservation walks the jobs in order, and a fleet with no waiting never does: new
// entries wait unsorted (a job that leaves before a walk is dropped from there in O(1)) and
// are sorted into the blocks when a walk begins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuplan::detail {

class EndOrderedJobs {
public:
    /// Trivially copyable, so a block's insert and erase move entries with one memmove.
    struct Entry {
        double endS;  ///< planned release time
        std::uint32_t job;
        /// The job's pods (RunRecord::placements): a walk reads them without two dependent
        /// cache misses (the job's runtime, then its segment) per job on a large fleet.
        std::uint32_t placementBegin = 0;
        std::uint32_t placementCount = 0;
        /// The key is (endS, job); the placements ride along.
        bool operator==(const Entry& o) const { return endS == o.endS && job == o.job; }
        bool operator<(const Entry& o) const {
            return endS != o.endS ? endS < o.endS : job < o.job;
        }
    };

    struct Block {
        std::vector<Entry> items;  ///< ascending; the live ones are [head, end)
        std::size_t head = 0;
        std::size_t live() const { return items.size() - head; }
        auto begin() { return items.begin() + static_cast<std::ptrdiff_t>(head); }
        /// Drops the entries before head.
        void compact();
    };

    class Iterator {
    public:
        const Entry& operator*() const {
            const Block& block = (*m_blocks)[m_block];
            return block.items[block.head + m_pos];
        }
        const Entry* operator->() const { return &**this; }
        Iterator& operator++() {
            if (++m_pos == (*m_blocks)[m_block].live()) {
                ++m_block;
                m_pos = 0;
            }
            return *this;
        }
        bool operator==(const Iterator& o) const {
            return m_block == o.m_block && m_pos == o.m_pos;
        }

    private:
        friend class EndOrderedJobs;
        Iterator(const std::vector<Block>* blocks, std::size_t block)
            : m_blocks(blocks), m_block(block) {}
        const std::vector<Block>* m_blocks;
        std::size_t m_block;
        std::size_t m_pos = 0;
    };

    /// Adds a job ending at `endS`, with its pods' range in RunRecord::placements; the pair
    /// must not be present.
    void insert(double endS, std::uint32_t job, std::uint32_t placementBegin = 0,
                std::uint32_t placementCount = 0);
    /// Removes a pair that is present.
    void erase(double endS, std::uint32_t job);

    /// In order, from the earliest release (sorts in what was added since the last walk).
    Iterator begin() {
        sortInNew();
        return Iterator(&m_blocks, 0);
    }
    Iterator end() {
        sortInNew();
        return Iterator(&m_blocks, m_blocks.size());
    }
    std::size_t size() const { return m_size; }
    std::size_t blockCount() {
        sortInNew();
        return m_blocks.size();
    }
    bool empty() const { return m_size == 0; }

    static constexpr std::size_t kMaxBlock = 64;

private:
    static constexpr std::uint32_t kNotNew = 0xFFFFFFFFu;
    void sortInNew();
    void insertIntoBlocks(const Entry& key);
    /// Rebuilds the blocks from all entries in order (when many new ones arrive at once).
    void rebuild(std::vector<Entry> sortedNew);
    /// The block a key belongs in: the first whose largest key is not below it (or the last).
    std::size_t blockFor(const Entry& key) const;
    void removeBlock(std::size_t block);
    void splitIfFull(std::size_t block);
    void mergeIfSmall(std::size_t block);

    std::vector<Block> m_blocks;         ///< each with live entries, all below the next block's
    std::vector<Entry> m_largestKeys;    ///< each block's largest key (its back), for the search
    std::size_t m_size = 0;              ///< entries in the blocks and new ones
    std::vector<Entry> m_new;            ///< added since the last walk, unsorted
    std::vector<std::uint32_t> m_newAt;  ///< job → its index in m_new, or kNotNew
};

}  // namespace gpuplan::detail
