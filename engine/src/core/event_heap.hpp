// The kernel's pending events, earliest first: a 4-ary min-heap. A large fleet keeps
// hundreds of thousands of events pending (a release and a startup end per bound job), more
// than the caches hold; a binary heap's pop then misses on each of its ~18 levels. Four
// children per node halve the levels, and the four sit side by side in memory.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace gpuplan::detail {

/// A min-heap of T under `later(a, b)` ("a comes after b"), which must be a strict total
/// order for the pop order to be deterministic.
template <class T, class Later>
class EventHeap {
public:
    bool empty() const { return m_items.empty(); }
    std::size_t size() const { return m_items.size(); }
    const T& top() const { return m_items.front(); }

    [[gnu::always_inline]] void push(T item) {
        std::size_t i = m_items.size();
        m_items.push_back(std::move(item));
        T moving = std::move(m_items[i]);
        while (i > 0) {
            const std::size_t parent = (i - 1) / 4;
            if (!m_later(m_items[parent], moving)) break;
            m_items[i] = std::move(m_items[parent]);
            i = parent;
        }
        m_items[i] = std::move(moving);
    }

    void pop() {
        T last = std::move(m_items.back());
        m_items.pop_back();
        if (m_items.empty()) return;
        // Sift the last item down from the root: at each level the earliest of up to four
        // children moves up while it comes before the item.
        const std::size_t n = m_items.size();
        std::size_t i = 0;
        while (true) {
            const std::size_t first = 4 * i + 1;
            if (first >= n) break;
            std::size_t best = first;
            const std::size_t end = first + 4 < n ? first + 4 : n;
            for (std::size_t c = first + 1; c < end; ++c)
                if (m_later(m_items[best], m_items[c])) best = c;
            if (!m_later(last, m_items[best])) break;
            m_items[i] = std::move(m_items[best]);
            i = best;
        }
        m_items[i] = std::move(last);
    }

private:
    std::vector<T> m_items;
    [[no_unique_address]] Later m_later;
};

}  // namespace gpuplan::detail
