#include <catch2/catch.hpp>
#include <set>

#include "core/index_set.hpp"
#include "model/random.hpp"

using gpuplan::detail::IndexSet;

TEST_CASE("IndexSet finds the next member across word and summary boundaries") {
    IndexSet s(10000);
    CHECK(s.first() == IndexSet::npos);
    // 63/64 straddle a word, 4095/4096 straddle a summary word (64 words × 64 bits).
    for (std::uint32_t i : {3u, 63u, 64u, 4095u, 4096u, 9999u})
        s.insert(i);
    CHECK(s.size() == 6);
    CHECK(s.first() == 3);
    CHECK(s.next(4) == 63);
    CHECK(s.next(64) == 64);
    CHECK(s.next(65) == 4095);
    CHECK(s.next(4096) == 4096);
    CHECK(s.next(4097) == 9999);
    CHECK(s.next(10000) == IndexSet::npos);
    s.erase(4095);
    s.erase(4096);
    CHECK(s.next(65) == 9999);
    s.insert(3);  // inserting twice keeps one member
    CHECK(s.size() == 4);
}

TEST_CASE("IndexSet agrees with std::set under random inserts and erases") {
    gpuplan::detail::Rng rng(99);
    IndexSet s(20000);
    std::set<std::uint32_t> ref;
    for (int step = 0; step < 200000; ++step) {
        const auto i = static_cast<std::uint32_t>(rng.next() % 20000);
        if (rng.next() & 1) {
            s.insert(i);
            ref.insert(i);
        } else {
            s.erase(i);
            ref.erase(i);
        }
        if (step % 97 == 0) {
            const auto from = static_cast<std::uint32_t>(rng.next() % 20001);
            auto it = ref.lower_bound(from);
            REQUIRE(s.next(from) == (it == ref.end() ? IndexSet::npos : *it));
            REQUIRE(s.size() == ref.size());
        }
    }
}
