// The queue's shape groups: lazy compaction, requeued jobs, pinned shapes and failed-shape
// lookups.
#include <catch2/catch.hpp>
#include <set>

#include "model/random.hpp"
#include "scheduling/job_queue.hpp"

using namespace gpuplan;
using namespace gpuplan::detail;

namespace {

std::vector<JobRecord> jobsOf(std::initializer_list<int> gpus) {
    std::vector<JobRecord> jobs;
    for (int g : gpus) {
        JobRecord r;
        r.spec.gpus = g;
        r.spec.gpusPerPod = g;
        r.spec.submitS = static_cast<double>(jobs.size());
        jobs.push_back(r);
    }
    return jobs;
}

}  // namespace

TEST_CASE("a job bound and queued again before its group is compacted is listed once") {
    // Jobs 0, 1, 2 of one shape. Binding 0 leaves it in the group's list (1 removed < 2
    // live: no compaction yet); an eviction queues it again. It must appear once, first.
    const std::vector<JobRecord> jobs = jobsOf({1, 1, 1});
    JobQueue q(&jobs, QueueOrder::PriorityFifo);
    for (std::uint32_t j = 0; j < 3; ++j)
        q.insert(j);
    q.remove(0);
    q.compact();
    CHECK(q.ordered() == std::vector<std::uint32_t>{1, 2});
    q.insert(0);
    CHECK(q.ordered() == std::vector<std::uint32_t>{0, 1, 2});
    CHECK(q.firstInOrder(10) == std::vector<std::uint32_t>{0, 1, 2});
    CHECK(q.size() == 3);
}

TEST_CASE("a group is compacted once it holds more removed jobs than live ones") {
    // Five jobs; removing 0, 1, 2 leaves 3 removed > 2 live: compact() drops them, and the
    // scan's start (firstLive) is back at the front.
    const std::vector<JobRecord> jobs = jobsOf({2, 2, 2, 2, 2});
    JobQueue q(&jobs, QueueOrder::PriorityFifo);
    for (std::uint32_t j = 0; j < 5; ++j)
        q.insert(j);
    q.remove(0);
    q.remove(1);
    q.compact();
    const JobQueue::Group& g = q.groups().at(0);
    CHECK(g.jobs.size() == 5);   // 2 removed ≤ 3 live: kept
    CHECK(q.firstLive(g) == 2);  // but scans start past them
    q.remove(2);
    q.compact();
    CHECK(g.jobs == std::vector<std::uint32_t>{3, 4});
    CHECK(q.firstLive(g) == 0);
}

TEST_CASE("pinned jobs group by target, and a failure covers only its target") {
    std::vector<JobRecord> jobs = jobsOf({4, 8, 4});
    for (JobRecord& r : jobs)
        r.spec.pinLevel = PinLevel::Node;
    jobs[0].spec.pinIndex = 0;
    jobs[1].spec.pinIndex = 0;
    jobs[2].spec.pinIndex = 1;
    JobQueue q(&jobs, QueueOrder::PriorityFifo);
    for (std::uint32_t j = 0; j < 3; ++j)
        q.insert(j);
    CHECK(q.groups().size() == 3);  // (node 0, 4), (node 0, 8), (node 1, 4)

    FailedShapes failed;
    failed.add(JobQueue::shapeOf(jobs[0].spec));                  // 4 GPUs on node 0 did not fit
    CHECK(failed.covers(JobQueue::shapeOf(jobs[1].spec)));        // 8 on node 0: cannot either
    CHECK_FALSE(failed.covers(JobQueue::shapeOf(jobs[2].spec)));  // node 1: must be tried
    failed.clear();
    CHECK_FALSE(failed.covers(JobQueue::shapeOf(jobs[1].spec)));
}

TEST_CASE("MinTracker keeps the smallest value of a bag under inserts and removals") {
    // Hand case: duplicates are removed one copy at a time.
    gpuplan::detail::MinTracker m;
    CHECK(m.empty());
    for (double v : {5.0, 3.0, 3.0, 8.0})
        m.insert(v);
    CHECK(m.min() == 3.0);
    m.erase(3.0);
    CHECK(m.min() == 3.0);  // the other copy
    m.erase(3.0);
    CHECK(m.min() == 5.0);
    m.erase(8.0);  // not the smallest: cancelled only when it reaches the top
    CHECK(m.min() == 5.0);
    m.erase(5.0);
    CHECK(m.empty());
    // Random bag against std::multiset.
    gpuplan::detail::Rng rng(3);
    std::multiset<double> ref;
    std::vector<double> held;
    for (int step = 0; step < 100000; ++step) {
        if (held.empty() || rng.next() % 2 == 0) {
            const double v = static_cast<double>(rng.next() % 1000);
            m.insert(v);
            ref.insert(v);
            held.push_back(v);
        } else {
            const std::size_t i = rng.next() % held.size();
            m.erase(held[i]);
            ref.erase(ref.find(held[i]));
            held[i] = held.back();
            held.pop_back();
        }
        REQUIRE(m.empty() == ref.empty());
        if (!ref.empty()) REQUIRE(m.min() == *ref.begin());
    }
}

TEST_CASE("FailedShapes answers the same below and above its flat-list size") {
    // Failed: 2 GPUs × 1 pod on each of nodes 0..N−1 (pinned), and 4 × 2 unpinned. Covered:
    // a larger shape on the same target. Not covered: another target, or a smaller shape.
    for (std::size_t targets :
         {std::size_t{3}, FailedShapes::kFlat, FailedShapes::kFlat + 1, 4 * FailedShapes::kFlat}) {
        INFO(targets);
        FailedShapes failed;
        failed.add(ShapeKey{0, 4, 2});
        for (std::size_t n = 0; n + 1 < targets; ++n)
            failed.add(ShapeKey{0, 2, 1, PinLevel::Node, static_cast<int>(n)});
        const int last = static_cast<int>(targets) - 2;
        CHECK(failed.covers(ShapeKey{0, 8, 2}));
        CHECK(failed.covers(ShapeKey{0, 4, 3}));
        CHECK_FALSE(failed.covers(ShapeKey{0, 2, 2}));  // fewer GPUs per pod
        CHECK_FALSE(failed.covers(ShapeKey{1, 8, 2}));  // another model
        CHECK(failed.covers(ShapeKey{0, 4, 1, PinLevel::Node, last}));
        CHECK_FALSE(failed.covers(ShapeKey{0, 1, 1, PinLevel::Node, last}));
        CHECK_FALSE(failed.covers(ShapeKey{0, 4, 1, PinLevel::Node, last + 1}));
        CHECK_FALSE(failed.covers(ShapeKey{0, 4, 1, PinLevel::Rack, 0}));
        failed.clear();
        CHECK_FALSE(failed.covers(ShapeKey{0, 8, 2}));
        failed.add(ShapeKey{0, 1, 1, PinLevel::Node, last});  // usable again after clear
        CHECK(failed.covers(ShapeKey{0, 2, 1, PinLevel::Node, last}));
        CHECK_FALSE(failed.covers(ShapeKey{0, 8, 2}));
    }
}

TEST_CASE("MinTracker stores about as many values as are live, however removals come") {
    // A smallest value that never leaves keeps every later removal from reaching the top;
    // without pruning, 10,000 values that came and went would all stay stored.
    gpuplan::detail::MinTracker m;
    m.insert(1.0);
    for (int i = 0; i < 10000; ++i) {
        m.insert(5.0 + i);
        m.erase(5.0 + i);
    }
    CHECK(m.min() == 1.0);
    CHECK(m.storedValues() <= 2 * 65 + 1);  // pruned whenever removals pass 64 and 2 × live
    m.erase(1.0);
    CHECK(m.empty());
}

TEST_CASE("a group counts its live jobs before any place, and finds its m-th live one") {
    // Eleven jobs of one shape, 0..10, listed in that order (positions = job ids).
    // Remove 2, 3 and 7: 3 removed < 8 live, so they stay listed. Live: 0 1 4 5 6 8 9 10.
    //   live before position 5 (jobs 0..4): 0, 1, 4 → 3; before 11: 8; before 0: 0.
    //   live job number 0 is at position 0, number 2 (third) at 4, number 5 at 8, 7 at 10.
    //   before job 8's key: 0 1 4 5 6 → 5.
    // Then 9 is queued again after removal (requeued before compaction: the group is
    // compacted first) and 2 comes back in the middle: live 0 1 2 4 5 6 8 9 10.
    const std::vector<JobRecord> jobs = jobsOf({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    JobQueue q(&jobs, QueueOrder::PriorityFifo);
    for (std::uint32_t j = 0; j < 11; ++j)
        q.insert(j);
    for (std::uint32_t j : {2u, 3u, 7u})
        q.remove(j);
    q.compact();
    const JobQueue::Group& g = q.groups()[0];
    REQUIRE(g.jobs.size() == 11);
    CHECK(q.liveBefore(g, 5) == 3);
    CHECK(q.liveBefore(g, 11) == 8);
    CHECK(q.liveBefore(g, 0) == 0);
    CHECK(q.positionOfLive(g, 0) == 0);
    CHECK(q.positionOfLive(g, 2) == 4);
    CHECK(q.positionOfLive(g, 5) == 8);
    CHECK(q.positionOfLive(g, 7) == 10);
    CHECK(q.liveBeforeKey(g, q.orderKey(8)) == 5);
    q.remove(9);
    q.insert(9);  // compacts the group first: 0 1 4 5 6 8 10, then 9 in its place
    q.insert(2);
    REQUIRE(g.jobs == std::vector<std::uint32_t>{0, 1, 2, 4, 5, 6, 8, 9, 10});
    CHECK(q.liveBefore(g, 9) == 9);
    CHECK(q.positionOfLive(g, 7) == 7);
    CHECK(q.liveBeforeKey(g, q.orderKey(9)) == 7);
}
