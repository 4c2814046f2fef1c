// A set of small integers [0, capacity) as a two-level bitmap: insert/erase O(1),
// "first member ≥ i" in a few word scans. The scheduler keeps one per (GPU model, free
// GPUs) bucket so best-fit finds the lowest-indexed node with exactly f free GPUs fast.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace gpuplan::detail {

class IndexSet {
public:
    static constexpr std::uint32_t npos = 0xFFFFFFFFu;

    explicit IndexSet(std::uint32_t capacity = 0) { reset(capacity); }

    void reset(std::uint32_t capacity) {
        m_capacity = capacity;
        m_words.assign((capacity + 63) / 64, 0);
        m_summary.assign((m_words.size() + 63) / 64, 0);
        m_size = 0;
    }

    bool contains(std::uint32_t i) const { return (m_words[i >> 6] >> (i & 63)) & 1u; }
    std::uint32_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    void insert(std::uint32_t i) {
        std::uint64_t& w = m_words[i >> 6];
        const std::uint64_t bit = std::uint64_t{1} << (i & 63);
        if (w & bit) return;
        w |= bit;
        m_summary[i >> 12] |= std::uint64_t{1} << ((i >> 6) & 63);
        ++m_size;
    }

    void erase(std::uint32_t i) {
        std::uint64_t& w = m_words[i >> 6];
        const std::uint64_t bit = std::uint64_t{1} << (i & 63);
        if (!(w & bit)) return;
        w &= ~bit;
        if (w == 0) m_summary[i >> 12] &= ~(std::uint64_t{1} << ((i >> 6) & 63));
        --m_size;
    }

    /// Smallest member ≥ from, or npos.
    std::uint32_t next(std::uint32_t from) const {
        if (from >= m_capacity) return npos;
        std::uint32_t wi = from >> 6;
        std::uint64_t w = m_words[wi] & (~std::uint64_t{0} << (from & 63));
        if (w) return (wi << 6) + std::countr_zero(w);
        // Find the next non-empty word through the summary.
        std::uint32_t si = (wi + 1) >> 6;
        const std::uint32_t sbit = (wi + 1) & 63;
        if (si >= m_summary.size()) return npos;
        std::uint64_t s = sbit ? m_summary[si] & (~std::uint64_t{0} << sbit) : m_summary[si];
        while (!s) {
            if (++si >= m_summary.size()) return npos;
            s = m_summary[si];
        }
        wi = (si << 6) + std::countr_zero(s);
        return (wi << 6) + std::countr_zero(m_words[wi]);
    }

    std::uint32_t first() const { return next(0); }

private:
    std::uint32_t m_capacity = 0;
    std::uint32_t m_size = 0;
    std::vector<std::uint64_t> m_words;
    std::vector<std::uint64_t> m_summary;
};

}  // namespace gpuplan::detail
