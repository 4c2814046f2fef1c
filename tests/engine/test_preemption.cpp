// Preemption: kube-scheduler's priority preemption and Kueue's reclaim, each case worked by
// hand on small fleets of 8-GPU "n8" nodes. Runs check every invariant after each event.
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace gpuplan;

namespace {

JobDef prioritized(const std::string& name, int gpus, double durationS, double submitS,
                   int priority, const std::string& team = "t") {
    JobDef j = test::job(name, gpus, durationS, submitS);
    j.traits.priority = priority;
    j.traits.team = team;
    return j;
}

double startOf(const Results& r, const std::string& name) {
    return r.jobs[test::jobIndex(r, name)].firstStartS;
}

/// Any job by name (test::jobIndex finds explicit jobs only).
std::uint32_t anyJob(const Results& r, const std::string& name) {
    for (std::uint32_t i = 0; i < r.jobs.size(); ++i)
        if (r.jobName(i) == name) return i;
    throw std::invalid_argument("no job named " + name);
}

std::vector<double> preemptionsOf(const Results& r, const std::string& name) {
    std::vector<double> times;
    for (const RunSegment& seg : r.segments)
        if (seg.job == anyJob(r, name) && seg.end == SegmentEnd::Preempted)
            times.push_back(seg.endS);
    return times;
}

QuotaDef quota(const std::string& team, double nominal, const std::string& cohort,
               ReclaimPolicy reclaim = ReclaimPolicy::Never) {
    QuotaDef q;
    q.team = team;
    q.cohort = cohort;
    q.flavors = {FlavorQuotaDef{"tg", nominal, {}, {}}};
    q.reclaimWithinCohort = reclaim;
    return q;
}

CohortDef cohort(const std::string& name) {
    CohortDef c;
    c.name = name;
    return c;
}

}  // namespace

TEST_CASE("a higher-priority job evicts a lower one whole and takes its GPUs", "[preemption]") {
    // 2 nodes (16 GPUs). low: a 16-GPU gang of priority 0, 2 h, at 0. high: 8 GPUs, priority
    // 10, 1 h, at 100 s. With priority preemption high evicts all of low (a gang goes whole)
    // at 100 s and starts; low queues again and, needing 16, starts when high ends at 3700 s.
    Scenario s = test::smallFleet(1, 2, "n8");
    s.scheduler.preemption = PreemptionMode::Priority;
    s.jobs = {prioritized("low", 16, 7200, 0, 0), prioritized("high", 8, 3600, 100, 10)};
    const Results r = test::run(s);
    CHECK(startOf(r, "high") == 100);
    CHECK(preemptionsOf(r, "low") == std::vector<double>{100});
    const JobRecord& low = r.jobs[test::jobIndex(r, "low")];
    CHECK(r.segments[low.lastSegment].startS == 3700);
    CHECK(low.segmentCount == 2);
    // Just after, low waits with the Preempted token.
    const auto rows = r.pendingAt(100);
    bool found = false;
    for (const PendingJob& p : rows)
        if (p.job == test::jobIndex(r, "low")) {
            found = true;
            CHECK(p.token == ReasonToken::Preempted);
            CHECK_THAT(r.reasonText(p.reason), Catch::Contains("its priority 0 is below 10"));
        }
    CHECK(found);
    // The preemptions series counts it in the interval ending at the 120 s sample (samples
    // every 60 s take the count since the one before), and the team KPIs count it.
    for (const Series& series : r.series)
        if (series.name == "preemptions") {
            CHECK(series.values.at(1) == 0);  // 60 s
            CHECK(series.values.at(2) == 1);  // 120 s
        }
    CHECK(r.teamKpis.at(0).preemptions == 1);

    SECTION("without preemption, or with preemptionPolicy Never, high waits for low") {
        Scenario off = s;
        off.scheduler.preemption = PreemptionMode::Off;
        CHECK(startOf(test::run(off), "high") == 7200);
        Scenario never = s;
        never.jobs[1].traits.preemptionPolicy = PreemptionPolicy::Never;
        const Results rn = test::run(never);
        CHECK(startOf(rn, "high") == 7200);
        CHECK(preemptionsOf(rn, "low").empty());
    }
}

TEST_CASE("preemption takes the fewest, lowest-priority, most recent victims", "[preemption]") {
    // 2 nodes. a (priority 1), b (priority 2), c (priority 1, admitted after a): 8 GPUs each,
    // 2 h, at 0, 1, 2 s — a and b fill the fleet, c waits. At 100 s, x (priority 5, 8 GPUs)
    // needs one node: candidates lowest priority first, then the most recently admitted: a
    // (priority 1) before b (2). a alone frees a node: b stays. Later c (queued, priority 1)
    // is never a victim (not bound).
    Scenario s = test::smallFleet(1, 2, "n8");
    s.scheduler.preemption = PreemptionMode::Priority;
    s.jobs = {prioritized("a", 8, 7200, 0, 1), prioritized("b", 8, 7200, 1, 2),
              prioritized("c", 8, 7200, 2, 1), prioritized("x", 8, 3600, 100, 5)};
    const Results r = test::run(s);
    CHECK(startOf(r, "x") == 100);
    CHECK(preemptionsOf(r, "a") == std::vector<double>{100});
    CHECK(preemptionsOf(r, "b").empty());
}

TEST_CASE("a team within its nominal quota reclaims what a borrowing team took",
          "[preemption][quota]") {
    // 2 nodes, cohort of a (8) and b (8, reclaimWithinCohort Any). a1 and a2 (8 GPUs, 1 h) at
    // 0: a2 borrows b's 8. b1 (8 GPUs) at 100 s fits b's nominal: it reclaims by evicting a2,
    // the more recently admitted of a's jobs, and starts at 100 s. a2 then waits for quota
    // (a uses 8 of 8, the pool is used) until a1 ends at 3600 s.
    Scenario s = test::smallFleet(1, 2, "n8");
    s.teams.push_back(TeamDef{"a", ""});
    s.teams.push_back(TeamDef{"b", ""});
    s.cohorts = {cohort("all")};
    s.quotas = {quota("a", 8, "all"), quota("b", 8, "all", ReclaimPolicy::Any)};
    s.jobs = {prioritized("a1", 8, 3600, 0, 0, "a"), prioritized("a2", 8, 3600, 0, 0, "a"),
              prioritized("b1", 8, 3600, 100, 0, "b")};
    const Results r = test::run(s);
    CHECK(startOf(r, "b1") == 100);
    CHECK(preemptionsOf(r, "a2") == std::vector<double>{100});
    CHECK(preemptionsOf(r, "a1").empty());
    const JobRecord& a2 = r.jobs[test::jobIndex(r, "a2")];
    CHECK(r.segments[a2.lastSegment].startS == 3600);

    SECTION("LowerPriority reclaims only from lower-priority borrowers") {
        Scenario lp = s;
        lp.quotas[1].reclaimWithinCohort = ReclaimPolicy::LowerPriority;
        const Results r2 = test::run(lp);  // equal priorities: nothing to reclaim
        CHECK(startOf(r2, "b1") == 3600);
        CHECK(preemptionsOf(r2, "a2").empty());
    }
    SECTION("Kueue's default, Never, does not reclaim") {
        Scenario never = s;
        never.quotas[1].reclaimWithinCohort = ReclaimPolicy::Never;
        CHECK(startOf(test::run(never), "b1") == 3600);
    }
}

TEST_CASE("priority preemption takes from another team only while it borrows",
          "[preemption][quota]") {
    // 2 nodes (16 GPUs), a cohort of a (8) and b (8), priority preemption, reclaim Never.
    // a1 (8 GPUs, priority 10, 10 h) and b1 (8 GPUs, priority 0, 10 h) at 0 fill the fleet,
    // each team at its nominal. a2 (8 GPUs, priority 10, 1 h) at 100 s cannot evict a1 (equal
    // priority) and would have to borrow, and b borrows nothing: b keeps its nominal share, so
    // a2 evicts no one and starts when a1 and b1 end at 36,000 s.
    Scenario s = test::smallFleet(1, 2, "n8");
    s.scheduler.preemption = PreemptionMode::Priority;
    s.teams.push_back(TeamDef{"a", ""});
    s.teams.push_back(TeamDef{"b", ""});
    s.cohorts = {cohort("all")};
    s.quotas = {quota("a", 8, "all"), quota("b", 8, "all")};
    s.jobs = {prioritized("a1", 8, 36000, 0, 10, "a"), prioritized("b1", 8, 36000, 0, 0, "b"),
              prioritized("a2", 8, 3600, 100, 10, "a")};
    const Results r = test::run(s);
    CHECK(startOf(r, "a2") == 36000);
    CHECK(preemptionsOf(r, "b1").empty());
    CHECK(preemptionsOf(r, "a1").empty());

    SECTION("its own team's lower-priority job is fair game") {
        // a1 at priority 0: a2 evicts it (a stays within its nominal), not b1.
        Scenario own = s;
        own.jobs[0] = prioritized("a1", 8, 36000, 0, 0, "a");
        const Results ro = test::run(own);
        CHECK(startOf(ro, "a2") == 100);
        CHECK(preemptionsOf(ro, "a1") == std::vector<double>{100});
        CHECK(preemptionsOf(ro, "b1").empty());
    }

    SECTION("a team that borrows loses its most recent job to a higher priority") {
        // b1 and b2 at 0: b uses 16, 8 of them borrowed from a. a2 (priority 10) at 100 s
        // fits a's nominal; b borrows, so priority takes b's most recently admitted job, b2.
        Scenario borrowing = s;
        borrowing.jobs = {prioritized("b1", 8, 36000, 0, 0, "b"),
                          prioritized("b2", 8, 36000, 0, 0, "b"),
                          prioritized("a2", 8, 3600, 100, 10, "a")};
        const Results rb = test::run(borrowing);
        CHECK(startOf(rb, "a2") == 100);
        CHECK(preemptionsOf(rb, "b2") == std::vector<double>{100});
        CHECK(preemptionsOf(rb, "b1").empty());
    }
    SECTION("without quotas, plain priority preemption takes b1 at once") {
        Scenario free = s;
        free.quotas.clear();
        free.cohorts.clear();
        const Results rf = test::run(free);
        CHECK(startOf(rf, "a2") == 100);
        CHECK(preemptionsOf(rf, "b1") == std::vector<double>{100});
    }
}

TEST_CASE("under fair sharing a team takes only from a team whose share stays at least its own",
          "[preemption][quota][fair]") {
    // Kueue's strategies: the job's team's share with the job admitted must be ≤ the victim
    // team's share without the victim (LessThanOrEqualToFinalShare) or < its share now
    // (LessThanInitialShare). share = GPUs used above nominal ÷ the cohort's nominal sum.
    // 3 nodes (24 GPUs); a, b, c nominal 8 each, one fair-sharing cohort; priority preemption.
    // a1 (8, priority 10) and b1, b2 (8 each, priority 0), all 10 h, at 0 fill the fleet: b
    // borrows 8. (a1's equal priority keeps a2 from taking it instead.)
    // a2 (8 GPUs, priority 10) at 100 s: a would borrow 8 → share 8/24 = 1/3. b's share now
    // 8/24 = 1/3, without b2 0. 1/3 ≤ 0? no; 1/3 < 1/3? no: a2 waits until 36,000 s.
    Scenario s = test::smallFleet(1, 3, "n8");
    s.scheduler.preemption = PreemptionMode::Priority;
    for (const char* t : {"a", "b", "c"})
        s.teams.push_back(TeamDef{t, ""});
    s.cohorts = {cohort("all")};
    s.cohorts[0].fairSharing = true;
    s.quotas = {quota("a", 8, "all"), quota("b", 8, "all"), quota("c", 8, "all")};
    s.jobs = {prioritized("a1", 8, 36000, 0, 10, "a"), prioritized("b1", 8, 36000, 0, 0, "b"),
              prioritized("b2", 8, 36000, 0, 0, "b"), prioritized("a2", 8, 3600, 100, 10, "a")};
    const Results r = test::run(s);
    CHECK(startOf(r, "a2") == 36000);
    CHECK(preemptionsOf(r, "b2").empty());

    SECTION("without fair sharing, priority takes from the borrower at once") {
        Scenario classic = s;
        classic.cohorts[0].fairSharing = false;
        const Results rc = test::run(classic);
        CHECK(startOf(rc, "a2") == 100);
        CHECK(preemptionsOf(rc, "b2") == std::vector<double>{100});
    }
    SECTION("a team far above its share gives way") {
        // A fourth node and team d (nominal 8): lendable 32. b runs b1..b3 (24, borrowing 16,
        // share 16/32 = 1/2). a2: a's share with it 8/32 = 1/4; b's without b3 8/32 = 1/4:
        // 1/4 ≤ 1/4, so a2 evicts b3, b's most recently admitted job, at 100 s.
        Scenario wide = s;
        wide.pods[0].racks[0].nodes[0].count = 4;
        wide.teams.push_back(TeamDef{"d", ""});
        wide.quotas.push_back(quota("d", 8, "all"));
        wide.jobs.insert(wide.jobs.begin() + 3, prioritized("b3", 8, 36000, 0, 0, "b"));
        const Results rw = test::run(wide);
        CHECK(startOf(rw, "a2") == 100);
        CHECK(preemptionsOf(rw, "b3") == std::vector<double>{100});
        CHECK(preemptionsOf(rw, "b1").empty());
        CHECK(preemptionsOf(rw, "b2").empty());
    }
}

TEST_CASE("under fair sharing victims come from the highest share first, by the strategies in turn",
          "[preemption][quota][fair]") {
    // Kueue's fair-sharing preemption: the team with the highest share gives first, and a
    // candidate must pass LessThanOrEqualToFinalShare; those that fail are tried again with
    // LessThanInitialShare only if no candidate passes the first. 6 nodes (48 GPUs); one
    // fair-sharing cohort: a, b, c nominal 8 each, d 24 with no jobs — lendable L = 48.
    // At 0: a1 (8 GPUs, priority 10: a at its nominal), c1..c4 (4 GPUs each: c uses 16,
    // borrows 8) and b1 (24 GPUs, a gang of 3: b borrows 16), priority 0, all 10 h: fleet and
    // quota full. (a1's priority keeps a2 from taking it within its team instead.)
    // a2 (4 GPUs, priority 10) at 100 s: a would borrow 4, share A' = 4/48.
    //   b's share 16/48 is the highest: its candidate b1, the most recently admitted job of
    //   all, leaves b at 0 < A': the first strategy refuses it.
    //   c's share 8/48: c4 leaves c at 4/48 ≥ A': taken; a2 fits (4 GPUs and 4 of quota).
    // So c4 goes, not b1 — which the classic order (newest first) would have evicted, 24 GPUs
    // for a 4-GPU job.
    Scenario s = test::smallFleet(1, 6, "n8");
    s.scheduler.preemption = PreemptionMode::Priority;
    for (const char* t : {"a", "b", "c", "d"})
        s.teams.push_back(TeamDef{t, ""});
    s.cohorts = {cohort("all")};
    s.cohorts[0].fairSharing = true;
    s.quotas = {quota("a", 8, "all"), quota("b", 8, "all"), quota("c", 8, "all"),
                quota("d", 24, "all")};
    s.jobs = {prioritized("a1", 8, 36000, 0, 10, "a")};
    for (const char* c : {"c1", "c2", "c3", "c4"})
        s.jobs.push_back(prioritized(c, 4, 36000, 0, 0, "c"));
    JobDef b1 = prioritized("b1", 24, 36000, 0, 0, "b");
    b1.traits.gpusPerPod = 8;
    s.jobs.push_back(b1);
    s.jobs.push_back(prioritized("a2", 4, 3600, 100, 10, "a"));
    const Results r = test::run(s);
    CHECK(startOf(r, "a2") == 100);
    CHECK(preemptionsOf(r, "c4") == std::vector<double>{100});
    CHECK(preemptionsOf(r, "b1").empty());

    SECTION("of candidates that pass, the team with the highest share gives first") {
        // b runs b1..b6 (4 GPUs each) instead of the gang, and c's jobs come at 1 s, so are
        // admitted last: b still borrows 16 (share 16/48), c 8 (8/48). b6 leaves b at 12/48
        // ≥ A' = 4/48: it passes, and b gives first, though c4 comes first in the classic
        // order (the most recently admitted).
        Scenario many = s;
        many.jobs.erase(many.jobs.begin() + 5);  // the gang b1
        for (int i = 1; i <= 4; ++i)
            many.jobs[static_cast<std::size_t>(i)].submitS = 1;
        for (int i = 6; i >= 1; --i)
            many.jobs.insert(many.jobs.begin() + 1,
                             prioritized("b" + std::to_string(i), 4, 36000, 0, 0, "b"));
        const Results rm = test::run(many);
        CHECK(startOf(rm, "a2") == 100);
        CHECK(preemptionsOf(rm, "b6") == std::vector<double>{100});
        CHECK(preemptionsOf(rm, "c4").empty());
    }
    SECTION("when none passes the first strategy, the second takes the highest share's") {
        // Without c3 and c4, c uses its nominal 8 and is no candidate; d's nominal 16 makes
        // L = 40, again all used (a1 8 + c 8 + b1 24), one node idle: a2 waits for quota.
        // Its share with it 4/40; b1 alone is a candidate: refused by the first strategy
        // (b left at 0), taken by the second (4/40 < b's 16/40) — a 24-GPU gang for want of
        // 4 GPUs of quota, as Kueue would.
        Scenario one = s;
        one.quotas[3] = quota("d", 16, "all");
        one.jobs.erase(one.jobs.begin() + 3, one.jobs.begin() + 5);  // c3, c4
        const Results r1 = test::run(one);
        CHECK(startOf(r1, "a2") == 100);
        CHECK(preemptionsOf(r1, "b1") == std::vector<double>{100});
    }
}

TEST_CASE("preemption prefers victims whose class keeps its minAvailable", "[preemption]") {
    // 2 nodes. Class serving (priority 1, minAvailable 1): one 8-GPU job at 0 (2 h). Class
    // batch (priority 1): one 8-GPU job at 1 s (2 h), admitted later. x (priority 5, 8 GPUs) at
    // 100 s needs one of them. batch is both the more recent and budget-free: evicted. With the
    // budget on batch instead, serving (the budget-free one) goes although it is older.
    Scenario s = test::smallFleet(1, 2, "n8");
    s.scheduler.preemption = PreemptionMode::Priority;
    auto listed = [](const std::string& name, double at) {
        JobClassDef c = test::jobClass(name, 8, 0, 7200);
        c.arrival.process = ArrivalProcess::List;
        c.arrival.timesS = {at};
        c.traits.priority = 1;
        return c;
    };
    s.jobClasses = {listed("serving", 0), listed("batch", 1)};
    s.jobs = {prioritized("x", 8, 3600, 100, 5)};
    s.jobClasses[1].minAvailable = 1;  // batch's one job is protected
    const Results r = test::run(s);
    CHECK(startOf(r, "x") == 100);
    CHECK(preemptionsOf(r, "serving-0") == std::vector<double>{100});
    CHECK(preemptionsOf(r, "batch-0").empty());
    // Without the budget the more recently admitted one, batch, is the victim.
    s.jobClasses[1].minAvailable.reset();
    const Results free = test::run(s);
    CHECK(preemptionsOf(free, "batch-0") == std::vector<double>{100});
    CHECK(preemptionsOf(free, "serving-0").empty());
}
