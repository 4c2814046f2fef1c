// The quota books: Kueue's available / potentialAvailable arithmetic on hand-built cohorts.
// Amounts in GPUs; the ledger counts 7000 units per GPU.
#include <catch2/catch.hpp>
#include <cmath>

#include "quota/quota_ledger.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using gpuplan::detail::QuotaLedger;

namespace {

CohortDef cohort(const std::string& name, const std::string& parent = "",
                 bool fairSharing = false) {
    CohortDef c;
    c.name = name;
    c.parent = parent;
    c.fairSharing = fairSharing;
    return c;
}

constexpr std::int64_t G = kGpuUnitsPerGpu;

FlavorQuotaDef flavor(double nominal, std::optional<double> borrowing = {},
                      std::optional<double> lending = {}) {
    return FlavorQuotaDef{"tg", nominal, borrowing, lending};
}

/// A 4-node "n8" fleet (32 tg GPUs) with teams a, b, c and the given quotas and cohorts.
struct Books {
    Scenario scenario;
    Fleet fleet;
    std::vector<std::string> teams{"a", "b", "c", "unmanaged"};
    QuotaLedger ledger;

    Books(std::vector<QuotaDef> quotas, std::vector<CohortDef> cohorts)
        : scenario(test::smallFleet(1, 4, "n8")) {
        for (const std::string& t : teams)
            scenario.teams.push_back(TeamDef{t, ""});
        scenario.quotas = std::move(quotas);
        scenario.cohorts = std::move(cohorts);
        fleet = Fleet::build(scenario);
        ledger = QuotaLedger(scenario, fleet, teams);
    }
    static constexpr int a = 0, b = 1, c = 2, unmanaged = 3, tg = 0;
};

QuotaDef quota(const std::string& team, const std::string& cohort, FlavorQuotaDef f) {
    QuotaDef q;
    q.team = team;
    q.cohort = cohort;
    q.flavors = {f};
    return q;
}

}  // namespace

TEST_CASE("a flat cohort lends unused nominal quota and says why a job waits", "[quota]") {
    // a: nominal 8, b: nominal 4, no limits: the cohort's pool is 8 + 4 = 12 GPUs.
    Books k({quota("a", "all", flavor(8)), quota("b", "all", flavor(4))}, {cohort("all")});
    QuotaLedger& q = k.ledger;
    CHECK(q.available(Books::a, Books::tg) == 12 * G);
    // a asks 10: 10 ≤ 12 available, beyond its nominal 8: admitted by borrowing.
    auto c = q.check(Books::a, Books::tg, 10 * G);
    CHECK(c.admits());
    CHECK(c.borrows);
    q.charge(Books::a, Books::tg, 10 * G);
    // b now has 12 − 10 = 2 available. Asking 4 it misses 2 and must wait (it could get 12
    // were a idle): WaitingForQuota, "2 more needed".
    c = q.check(Books::b, Books::tg, 4 * G);
    CHECK(c.verdict == ReasonToken::WaitingForQuota);
    CHECK(c.missingUnits == 2 * G);
    // 13 is more than the whole pool: never admissible.
    CHECK(q.check(Books::b, Books::tg, 13 * G).verdict == ReasonToken::ExceedsMaxQuota);
    // A team without a quota is not managed; a model the team has no quota for never admits.
    CHECK(q.check(Books::unmanaged, Books::tg, 100 * G).admits());
    CHECK_FALSE(q.manages(Books::c));
    q.checkInvariants();
    q.charge(Books::a, Books::tg, -10 * G);
    CHECK(q.available(Books::b, Books::tg) == 12 * G);
}

TEST_CASE("a lending limit keeps the rest of a team's quota for it alone", "[quota]") {
    // a: nominal 8, lends at most 2 → guaranteed 6, puts 2 in the pool; b: nominal 4, puts 4.
    // Pool = 6. b can get at most 6 (its own 4 plus a's 2), ever.
    Books k({quota("a", "all", flavor(8, {}, 2)), quota("b", "all", flavor(4))}, {cohort("all")});
    QuotaLedger& q = k.ledger;
    CHECK(q.check(Books::b, Books::tg, 7 * G).verdict == ReasonToken::ExceedsMaxQuota);
    REQUIRE(q.check(Books::b, Books::tg, 6 * G).admits());
    q.charge(Books::b, Books::tg, 6 * G);
    // a: its guaranteed 6 (unused) plus the pool's 6 − 6 = 0 → 6 available; asking 8 it waits
    // for 2 (it could have 6 + 6 = 12 were b idle); asking 6 it fits within its nominal quota.
    auto c = q.check(Books::a, Books::tg, 8 * G);
    CHECK(c.verdict == ReasonToken::WaitingForQuota);
    CHECK(c.missingUnits == 2 * G);
    c = q.check(Books::a, Books::tg, 6 * G);
    CHECK(c.admits());
    CHECK_FALSE(c.borrows);
    q.charge(Books::a, Books::tg, 6 * G);
    q.checkInvariants();
}

TEST_CASE("a borrowing limit caps what a team takes from its cohort", "[quota]") {
    // a: nominal 8, may borrow 2; b: nominal 8. Pool 16.
    Books k({quota("a", "all", flavor(8, 2)), quota("b", "all", flavor(8))}, {cohort("all")});
    QuotaLedger& q = k.ledger;
    // a can never hold more than 8 + 2 = 10.
    CHECK(q.check(Books::a, Books::tg, 12 * G).verdict == ReasonToken::ExceedsMaxQuota);
    CHECK(q.available(Books::a, Books::tg) == 10 * G);
    q.charge(Books::a, Books::tg, 9 * G);
    // a uses 9: from the pool min(16 − 9, 8 − 9 + 2) = 1. Asking 2 it misses 1 although the
    // pool has 7 unused: the limit binds → BorrowingLimitReached.
    auto c = q.check(Books::a, Books::tg, 2 * G);
    CHECK(c.verdict == ReasonToken::BorrowingLimitReached);
    CHECK(c.missingUnits == 1 * G);
    q.checkInvariants();
    // Charged past its limit (what admission never does), the books refuse.
    q.charge(Books::a, Books::tg, 2 * G);
    CHECK_THROWS_WITH(q.checkInvariants(), Catch::Contains("borrows past its borrowing limit"));
}

TEST_CASE("nested cohorts: a child cohort borrows from its parent within its own limit",
          "[quota]") {
    // org ⊃ {ml ⊃ {a: 4, b: 4}, c: 8}. ml puts 8 in org's pool, c 8: org's pool 16.
    Books k(
        {quota("a", "ml", flavor(4)), quota("b", "ml", flavor(4)), quota("c", "org", flavor(8))},
        {cohort("org"), cohort("ml", "org")});
    QuotaLedger& q = k.ledger;
    REQUIRE(q.check(Books::a, Books::tg, 12 * G).admits());
    q.charge(Books::a, Books::tg, 12 * G);
    // ml uses 12 of org's pool; c has 16 − 12 = 4 left and waits for 4 more of its 8.
    auto c = q.check(Books::c, Books::tg, 8 * G);
    CHECK(c.verdict == ReasonToken::WaitingForQuota);
    CHECK(c.missingUnits == 4 * G);
    q.checkInvariants();

    // The same tree with ml allowed to borrow only 2 beyond its 8: a can never reach 12
    // (potential = min(0 + 16, 8 + 2) = 10).
    CohortDef ml = cohort("ml", "org");
    ml.flavors = {flavor(0, 2)};
    Books limited(
        {quota("a", "ml", flavor(4)), quota("b", "ml", flavor(4)), quota("c", "org", flavor(8))},
        {cohort("org"), ml});
    CHECK(limited.ledger.check(Books::a, Books::tg, 12 * G).verdict ==
          ReasonToken::ExceedsMaxQuota);
    CHECK(limited.ledger.check(Books::a, Books::tg, 10 * G).admits());
}

TEST_CASE("quota counts shares and MIG instances by their GPU-equivalents", "[quota]") {
    Books k({}, {});
    JobSpec share;
    share.gpus = 2;  // two pods of 300 milli-GPU: 0.6 GPU = 4,200 units
    share.gpusPerPod = 1;
    share.gpuMilli = 300;
    CHECK(QuotaLedger::requestUnits(share, k.fleet, Books::tg) == 4200);
    JobSpec whole;
    whole.gpus = 16;
    whole.gpusPerPod = 8;
    CHECK(QuotaLedger::requestUnits(whole, k.fleet, Books::tg) == 16 * G);
    // A placed pod of 3 whole GPUs, a 250 milli share, a 3g instance (3 of 7 compute slices).
    CHECK(QuotaLedger::podUnits(PodPlacement{.node = 0, .gpuMask = 0b111}) == 3 * G);
    CHECK(QuotaLedger::podUnits(PodPlacement{.node = 0, .milliGpu = 250, .gpuMask = 1}) == 1750);
    CHECK(
        QuotaLedger::podUnits(PodPlacement{
            .node = 0, .milliGpu = 1000, .migInstance = 0, .migComputeSlices = 3, .gpuMask = 1}) ==
        3000);
}

TEST_CASE("fair sharing: a team's share is what it borrows over the pool, over its weight",
          "[quota]") {
    QuotaDef a = quota("a", "all", flavor(4));
    QuotaDef b = quota("b", "all", flavor(4));
    b.fairShareWeight = 2;
    Books k({a, b}, {cohort("all", "", true)});
    QuotaLedger& q = k.ledger;
    // Pool 8. a using 6 borrows 2: share 2 / 8 / 1 = 0.25. b borrowing the same 2 with weight 2:
    // 0.125. Not borrowing: 0.
    q.charge(Books::a, Books::tg, 6 * G);
    CHECK(q.share(Books::a, Books::tg, 0) == Approx(0.25));
    CHECK(q.share(Books::b, Books::tg, 6 * G) == Approx(0.125));
    CHECK(q.share(Books::b, Books::tg, 2 * G) == 0);
    // Weight 0: an infinite share once it borrows (Kueue), none while it does not.
    QuotaDef z = quota("a", "all", flavor(4));
    z.fairShareWeight = 0;
    Books kz({z, b}, {cohort("all", "", true)});
    kz.ledger.charge(Books::a, Books::tg, 4 * G);
    CHECK(kz.ledger.share(Books::a, Books::tg, 0) == 0);
    CHECK(kz.ledger.share(Books::a, Books::tg, 1 * G) == std::numeric_limits<double>::infinity());
}

TEST_CASE("every team's used, borrowed and lent quota in one walk of a nested tree", "[quota]") {
    // top (own quota 4) ⊃ {mid ⊃ {a: 8, b: 4}, c: 4}; mid holds none itself. top's pool:
    // 4 + (8 + 4) + 4 = 20 GPUs. a uses 14 (borrows 14 − 8 = 6), c uses 2, b nothing.
    CohortDef top = cohort("top");
    top.flavors = {flavor(4)};
    Books k(
        {quota("a", "mid", flavor(8)), quota("b", "mid", flavor(4)), quota("c", "top", flavor(4))},
        {top, cohort("mid", "top")});
    QuotaLedger& q = k.ledger;
    q.charge(Books::a, Books::tg, 14 * G);
    q.charge(Books::c, Books::tg, 2 * G);
    q.checkInvariants();
    const auto now = q.nowByTeam();
    REQUIRE(now.size() == k.teams.size());
    CHECK(now[Books::a].nominal == 8 * G);
    CHECK(now[Books::a].used == 14 * G);
    CHECK(now[Books::a].borrowed == 6 * G);
    // The tree's 6 borrowed GPUs are lent in proportion to the unused quota each put in the
    // pool: top's own 4, a's 8 − 14 → 0, b's 4, c's 4 − 2 = 2; 10 in all. b lends
    // 6 × 4 / 10 = 2.4, c 6 × 2 / 10 = 1.2 (top's own 2.4 is no team's); a lends nothing.
    CHECK(now[Books::a].lent == 0);
    CHECK(now[Books::b].lent == 24 * G / 10);
    CHECK(now[Books::c].lent == 12 * G / 10);
    CHECK(now[Books::c].borrowed == 0);
    CHECK(now[Books::unmanaged].used == 0);
    CHECK(now[Books::unmanaged].lent == 0);
}

TEST_CASE("a cohort chain's books: checks, potential and charges reach the root", "[quota]") {
    // c0 ⊃ c1 ⊃ … ⊃ c199 ⊃ a (nominal 4), and b (nominal 4) in c0: the pool at c0 is 8.
    std::vector<CohortDef> chain = {cohort("c0")};
    for (int i = 1; i < 200; ++i)
        chain.push_back(cohort("c" + std::to_string(i), "c" + std::to_string(i - 1)));
    Books k({quota("a", "c199", flavor(4)), quota("b", "c0", flavor(4))}, chain);
    QuotaLedger& q = k.ledger;
    CHECK(q.potential(Books::a, Books::tg) == 8 * G);
    CHECK(q.shareTree(Books::a, Books::b));
    q.charge(Books::a, Books::tg, 6 * G);  // borrows 2 of b's 4 through 200 cohorts
    q.checkInvariants();
    CHECK(q.available(Books::b, Books::tg) == 2 * G);
    CHECK(q.check(Books::b, Books::tg, 4 * G).verdict == ReasonToken::WaitingForQuota);
    const auto now = q.nowByTeam();
    CHECK(now[Books::a].borrowed == 2 * G);
    CHECK(now[Books::b].lent == 2 * G);  // the only unused quota in the pool: all of it lent
}
