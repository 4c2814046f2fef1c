// Sorting what is already mostly sorted: a run builds its lists in time order per source
// (each job class's arrivals, the jobs of a trace, spans in job or bind order), so a list
// of n items is typically a few ascending runs. Merging the runs costs O(n log runs) where
// std::sort pays O(n log n) with no regard for order already there (a million jobs: 20
// passes instead of 2).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpuplan::detail {

/// Sorts `items` by `less` (a strict weak order) by merging its ascending runs; stable.
/// Lists of many short runs go to std::stable_sort.
template <class T, class Less>
void sortByRuns(std::vector<T>& items, Less less) {
    const std::size_t n = items.size();
    std::vector<std::size_t> bounds{0};
    for (std::size_t i = 1; i < n; ++i) {
        if (less(items[i], items[i - 1])) {
            bounds.push_back(i);
            if (bounds.size() > 64) {  // no long runs to take advantage of
                std::stable_sort(items.begin(), items.end(), less);
                return;
            }
        }
    }
    bounds.push_back(n);
    if (bounds.size() <= 2) return;  // one run: sorted
    std::vector<T> merged(n);
    while (bounds.size() > 2) {
        std::vector<std::size_t> next{0};
        std::size_t k = 0;
        for (; k + 2 < bounds.size(); k += 2) {
            std::merge(items.begin() + bounds[k], items.begin() + bounds[k + 1],
                       items.begin() + bounds[k + 1], items.begin() + bounds[k + 2],
                       merged.begin() + bounds[k], less);
            next.push_back(bounds[k + 2]);
        }
        if (k + 1 < bounds.size()) {  // an odd run left over: carried as it is
            std::copy(items.begin() + bounds[k], items.begin() + bounds[k + 1],
                      merged.begin() + bounds[k]);
            next.push_back(bounds[k + 1]);
        }
        items.swap(merged);
        bounds = std::move(next);
    }
}

}  // namespace gpuplan::detail
