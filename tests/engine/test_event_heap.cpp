#include <catch2/catch.hpp>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "core/event_heap.hpp"
#include "model/random.hpp"

using gpuplan::detail::EventHeap;

TEST_CASE("EventHeap pops earliest first, ties by the rest of the key") {
    // Hand case: (5,0) (1,1) (4,2) (1,0) (3,9) → (1,0) (1,1) (3,9) (4,2) (5,0).
    EventHeap<std::pair<int, int>, std::greater<>> h;
    CHECK(h.empty());
    for (auto item : {std::pair{5, 0}, {1, 1}, {4, 2}, {1, 0}, {3, 9}})
        h.push(item);
    std::vector<std::pair<int, int>> popped;
    while (!h.empty()) {
        popped.push_back(h.top());
        h.pop();
    }
    CHECK(popped == std::vector<std::pair<int, int>>{{1, 0}, {1, 1}, {3, 9}, {4, 2}, {5, 0}});
}

TEST_CASE("EventHeap agrees with std::priority_queue under mixed pushes and pops") {
    // Events pushed at or after the current time, as the kernel pushes them.
    gpuplan::detail::Rng rng(5);
    EventHeap<std::pair<double, int>, std::greater<>> h;
    std::priority_queue<std::pair<double, int>, std::vector<std::pair<double, int>>, std::greater<>>
        ref;
    double now = 0;
    for (int step = 0; step < 200000; ++step) {
        if (ref.empty() || rng.next() % 5 < 3) {
            const std::pair<double, int> e{now + static_cast<double>(rng.next() % 1000), step};
            h.push(e);
            ref.push(e);
        } else {
            REQUIRE(h.top() == ref.top());
            now = ref.top().first;
            h.pop();
            ref.pop();
        }
        REQUIRE(h.size() == ref.size());
    }
}
