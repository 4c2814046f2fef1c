#include <catch2/catch.hpp>
#include <utility>
#include <vector>

#include "core/sorted_runs.hpp"
#include "model/random.hpp"

using gpuplan::detail::sortByRuns;

TEST_CASE("sortByRuns merges ascending runs and keeps equal items in their order") {
    // Three runs: [1 4 9] [2 3 10] [0 5]; items compare by .first only, .second tells
    // equal firsts apart: (4,'b') precedes (4,'e') as it came first.
    using Item = std::pair<int, char>;
    std::vector<Item> v{{1, 'a'}, {4, 'b'},  {9, 'c'}, {2, 'd'},
                        {4, 'e'}, {10, 'f'}, {0, 'g'}, {5, 'h'}};
    sortByRuns(v, [](const Item& a, const Item& b) { return a.first < b.first; });
    CHECK(v ==
          std::vector<Item>{
              {0, 'g'}, {1, 'a'}, {2, 'd'}, {4, 'b'}, {4, 'e'}, {5, 'h'}, {9, 'c'}, {10, 'f'}});
    std::vector<Item> empty;
    sortByRuns(empty, std::less<>());
    CHECK(empty.empty());
}

TEST_CASE("sortByRuns equals a stable sort for few runs and for many") {
    gpuplan::detail::Rng rng(11);
    for (int runs : {1, 2, 3, 7, 64, 65, 5000}) {
        INFO(runs);
        std::vector<std::pair<int, int>> v;
        for (int r = 0; r < runs; ++r) {
            int x = static_cast<int>(rng.next() % 100);
            const int length = 1 + static_cast<int>(rng.next() % 50);
            for (int i = 0; i < length; ++i) {
                v.push_back({x, static_cast<int>(v.size())});
                x += static_cast<int>(rng.next() % 3);  // ascending, with repeats
            }
        }
        auto byFirst = [](const auto& a, const auto& b) { return a.first < b.first; };
        auto want = v;
        std::stable_sort(want.begin(), want.end(), byFirst);
        sortByRuns(v, byFirst);
        CHECK(v == want);
    }
}
