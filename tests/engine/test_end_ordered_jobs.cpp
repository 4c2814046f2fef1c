#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "core/end_ordered_jobs.hpp"
#include "model/random.hpp"

using gpuplan::detail::EndOrderedJobs;
using Entry = EndOrderedJobs::Entry;

namespace {
std::vector<Entry> contents(EndOrderedJobs& s) {
    std::vector<Entry> out;
    for (const Entry& e : s)
        out.push_back(e);
    return out;
}
}  // namespace

TEST_CASE("EndOrderedJobs walks jobs by release time, then job number") {
    EndOrderedJobs s;
    CHECK(s.empty());
    CHECK(s.begin() == s.end());
    s.insert(30, 1);
    s.insert(10, 7);
    s.insert(30, 0);  // same time as job 1: the lower job number first
    s.insert(20, 2);
    CHECK(contents(s) == std::vector<Entry>{{10, 7}, {20, 2}, {30, 0}, {30, 1}});
    s.erase(20, 2);
    s.erase(10, 7);
    CHECK(contents(s) == std::vector<Entry>{{30, 0}, {30, 1}});
    CHECK(s.size() == 2);
    CHECK_THROWS(s.erase(30, 5));  // never inserted: a logic error, not silence
}

TEST_CASE("EndOrderedJobs splits and merges blocks without losing order") {
    // 3 × kMaxBlock entries inserted in descending order force splits at the front; erasing
    // every other one, then all but the last, forces blocks below a quarter to merge.
    EndOrderedJobs s;
    const int n = 3 * static_cast<int>(EndOrderedJobs::kMaxBlock);
    for (int i = n - 1; i >= 0; --i)
        s.insert(i * 1.5, static_cast<std::uint32_t>(i));
    REQUIRE(s.size() == static_cast<std::size_t>(n));
    std::vector<Entry> want;
    for (int i = 0; i < n; ++i)
        want.push_back({i * 1.5, static_cast<std::uint32_t>(i)});
    CHECK(contents(s) == want);
    for (int i = 0; i < n; i += 2)
        s.erase(i * 1.5, static_cast<std::uint32_t>(i));
    for (int i = 1; i < n - 2; i += 2)
        s.erase(i * 1.5, static_cast<std::uint32_t>(i));
    CHECK(contents(s) == std::vector<Entry>{{(n - 1) * 1.5, static_cast<std::uint32_t>(n - 1)}});
}

TEST_CASE("EndOrderedJobs agrees with std::set under random binds and releases") {
    // Times on a coarse grid so many jobs share a release time, as jobs of one trace do.
    gpuplan::detail::Rng rng(7);
    EndOrderedJobs s;
    std::set<Entry> ref;
    for (int step = 0; step < 200000; ++step) {
        const bool grow = ref.size() < 2000 ? rng.next() % 3 != 0 : rng.next() % 3 == 0;
        if (grow || ref.empty()) {
            const Entry e{static_cast<double>(rng.next() % 5000), static_cast<std::uint32_t>(step)};
            s.insert(e.endS, e.job);
            ref.insert(e);
        } else {
            // Mostly the earliest (jobs end in order), sometimes any (evictions).
            auto it = ref.begin();
            if (rng.next() % 4 == 0) std::advance(it, static_cast<long>(rng.next() % ref.size()));
            s.erase(it->endS, it->job);
            ref.erase(it);
        }
        if (step % 5000 == 0) {
            REQUIRE(s.size() == ref.size());
            REQUIRE(contents(s) == std::vector<Entry>(ref.begin(), ref.end()));
        }
    }
    CHECK(contents(s) == std::vector<Entry>(ref.begin(), ref.end()));
}

TEST_CASE("EndOrderedJobs reuses the room left by jobs that ended first") {
    // A steady stream: each step the earliest job ends and a later one starts (a queue in
    // time order), with now and then a short job that ends before all others. Hand-checked
    // against the expected window of keys.
    EndOrderedJobs s;
    for (std::uint32_t j = 0; j < 300; ++j)
        s.insert(1000.0 + j, j);
    std::uint32_t first = 0, next = 300;
    for (int step = 0; step < 5000; ++step) {
        s.erase(1000.0 + first, first);
        ++first;
        s.insert(1000.0 + next, next);
        ++next;
        if (step % 97 == 0) {  // ends before every bound job, then leaves again
            s.insert(500.0, 999999);
            CHECK(s.begin()->job == 999999);
            s.erase(500.0, 999999);
        }
    }
    REQUIRE(s.size() == 300);
    std::uint32_t want = first;
    for (const Entry& e : s) {
        REQUIRE(e.job == want);
        REQUIRE(e.endS == 1000.0 + want);
        ++want;
    }
    CHECK(want == next);
}

TEST_CASE("EndOrderedJobs keeps few blocks when entries leave from everywhere") {
    // 20,000 jobs, then all but every 50th leave, block by block in time order: 400 remain.
    // Small blocks fold into a neighbour when both fit in one, so a block under a quarter
    // full sits beside ones over three quarters full: at most 3 × 400 ÷ 48 + 1 = 26 blocks.
    EndOrderedJobs s;
    for (std::uint32_t j = 0; j < 20000; ++j)
        s.insert(j, j);
    REQUIRE(s.blockCount() >= 20000 / EndOrderedJobs::kMaxBlock);  // sorted into blocks
    for (std::uint32_t j = 0; j < 20000; ++j)
        if (j % 50 != 0) s.erase(j, j);
    REQUIRE(s.size() == 400);
    CHECK(s.blockCount() <= 26);
    std::uint32_t want = 0;
    for (const Entry& e : s) {
        REQUIRE(e.job == want);
        want += 50;
    }
}

TEST_CASE("EndOrderedJobs drops a job that leaves before any walk without sorting it") {
    // Jobs added since the last walk wait unsorted; one that ends before the next walk is
    // removed from there, including the last added (the swap with itself).
    EndOrderedJobs s;
    s.insert(50, 1);
    s.insert(10, 2);
    s.insert(30, 3);
    CHECK(contents(s) == std::vector<Entry>{{10, 2}, {30, 3}, {50, 1}});  // a walk sorts
    s.insert(20, 4);
    s.insert(40, 5);
    s.erase(40, 5);   // the last new one
    s.erase(10, 2);   // from the blocks
    s.insert(40, 5);  // the same job bound again
    s.erase(20, 4);   // new, not last: the last new one takes its place
    CHECK(s.size() == 3);
    CHECK(contents(s) == std::vector<Entry>{{30, 3}, {40, 5}, {50, 1}});
    CHECK_THROWS(s.erase(20, 4));  // gone already
}
