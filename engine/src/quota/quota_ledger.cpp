#include "quota_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "gpuplan/model/mig_geometry.hpp"

namespace gpuplan::detail {

namespace {

std::int64_t unitsOf(double gpus) {
    return std::llround(gpus * kGpuUnitsPerGpu);
}

}  // namespace

QuotaLedger::QuotaLedger(const Scenario& scenario, const Fleet& fleet,
                         const std::vector<std::string>& teams) {
    if (scenario.quotas.empty()) return;
    m_models = static_cast<int>(fleet.gpuModels.size());
    // Cohorts first (their indices are their order), then one node per quota.
    auto cohortIndex = [&scenario](const std::string& name) {
        for (std::size_t i = 0; i < scenario.cohorts.size(); ++i)
            if (scenario.cohorts[i].name == name) return static_cast<int>(i);
        return -1;
    };
    for (const CohortDef& c : scenario.cohorts) {
        m_nodes.push_back({c.name, c.parent.empty() ? -1 : cohortIndex(c.parent), c.fairShareWeight,
                           c.fairSharing, -1, false});
        m_anyFairSharing |= c.fairSharing;
    }
    m_queueOfTeam.assign(teams.size(), -1);
    m_flavorsOfTeam.assign(teams.size(), {});
    m_reclaim.assign(teams.size(), ReclaimPolicy::Never);
    m_withinTeam.assign(teams.size(), WithinTeamPolicy::Never);
    for (const QuotaDef& q : scenario.quotas) {
        const int node = static_cast<int>(m_nodes.size());
        m_nodes.push_back({q.team, q.cohort.empty() ? -1 : cohortIndex(q.cohort), q.fairShareWeight,
                           false, -1, true});
        const auto team = std::find(teams.begin(), teams.end(), q.team);
        if (team == teams.end()) throw std::invalid_argument("quota for unknown team " + q.team);
        m_queueOfTeam[team - teams.begin()] = node;
        m_reclaim[team - teams.begin()] = q.reclaimWithinCohort;
        m_withinTeam[team - teams.begin()] = q.withinTeam;
    }
    const std::size_t cells = m_nodes.size() * static_cast<std::size_t>(m_models);
    m_subtreeQuota.assign(cells, 0);
    m_guaranteed.assign(cells, 0);
    m_borrowingLimit.assign(cells, kNoLimit);
    m_lendingLimit.assign(cells, kNoLimit);
    m_usage.assign(cells, 0);
    auto setQuotas = [&](int node, const std::vector<FlavorQuotaDef>& flavors,
                         std::vector<int>* order) {
        for (const FlavorQuotaDef& f : flavors) {
            const auto model = fleet.findGpuModel(f.gpuModel);
            if (!model) throw std::invalid_argument("quota for GPU model " + f.gpuModel);
            const std::size_t i = at(node, *model);
            m_subtreeQuota[i] = unitsOf(f.nominalGpus);  // a cohort's children add theirs below
            if (f.borrowingLimitGpus) m_borrowingLimit[i] = unitsOf(*f.borrowingLimitGpus);
            if (f.lendingLimitGpus) m_lendingLimit[i] = unitsOf(*f.lendingLimitGpus);
            if (order) order->push_back(*model);
        }
    };
    for (std::size_t c = 0; c < scenario.cohorts.size(); ++c)
        setQuotas(static_cast<int>(c), scenario.cohorts[c].flavors, nullptr);
    for (std::size_t t = 0; t < m_queueOfTeam.size(); ++t)
        if (m_queueOfTeam[t] >= 0) {
            const QuotaDef& q = scenario.quotas[m_queueOfTeam[t] - scenario.cohorts.size()];
            setQuotas(m_queueOfTeam[t], q.flavors, &m_flavorsOfTeam[t]);
        }
    // Children before parents: a node's subtree quota is final once all its children have
    // added theirs. Queues are leaves; cohorts are sorted deepest first. Depths and roots are
    // found once per node, parents first (a chain of cohorts costs its length, not its square).
    std::vector<int> depth(m_nodes.size(), -1);
    const auto place = [&](int n) {
        std::vector<int> up;  // n and its ancestors not yet placed
        for (int a = n; a >= 0 && depth[a] < 0; a = m_nodes[a].parent)
            up.push_back(a);
        for (auto a = up.rbegin(); a != up.rend(); ++a) {
            const int parent = m_nodes[*a].parent;
            depth[*a] = parent < 0 ? 0 : depth[parent] + 1;
            m_nodes[*a].root = parent < 0 ? *a : m_nodes[parent].root;
        }
    };
    std::vector<int> order(m_nodes.size());
    for (std::size_t n = 0; n < order.size(); ++n) {
        order[n] = static_cast<int>(n);
        place(order[n]);
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return depth[a] > depth[b]; });
    for (int n : order)
        for (int m = 0; m < m_models; ++m) {
            const std::size_t i = at(n, m);
            if (m_lendingLimit[i] != kNoLimit)
                m_guaranteed[i] = std::max<std::int64_t>(0, m_subtreeQuota[i] - m_lendingLimit[i]);
            if (m_nodes[n].parent >= 0)
                m_subtreeQuota[at(m_nodes[n].parent, m)] += m_subtreeQuota[i] - m_guaranteed[i];
        }
    // What stays fixed from here on, parents before children: the most a node could ever be
    // admitted for (root: its subtree quota; other: min(guaranteed + potential(parent),
    // subtreeQuota + borrowingLimit)), and what it puts in the pool itself (a cohort's own
    // quota is its subtree quota less what its children put in).
    m_potential.assign(cells, 0);
    m_ownInPool.assign(cells, 0);
    for (auto n = order.rbegin(); n != order.rend(); ++n)
        for (int m = 0; m < m_models; ++m) {
            const std::size_t i = at(*n, m);
            const int parent = m_nodes[*n].parent;
            m_potential[i] = m_subtreeQuota[i];
            if (parent >= 0) {
                m_potential[i] = m_guaranteed[i] + m_potential[at(parent, m)];
                if (m_borrowingLimit[i] != kNoLimit)
                    m_potential[i] =
                        std::min(m_potential[i], m_subtreeQuota[i] + m_borrowingLimit[i]);
                m_ownInPool[at(parent, m)] -= m_subtreeQuota[i] - m_guaranteed[i];
            }
            m_ownInPool[i] += m_subtreeQuota[i] - m_guaranteed[i];
        }
}

std::span<const int> QuotaLedger::flavorsOf(int team) const {
    if (!manages(team)) return {};
    return m_flavorsOfTeam[team];
}

std::int64_t QuotaLedger::requestUnits(const JobSpec& job, const Fleet& fleet, int model) {
    switch (job.holdKind()) {
        case HoldKind::Mig: {
            // The instance the job asks on this model's family (its own slices there).
            const auto family = migFamilyFor(fleet.gpuModels[model]);
            if (!family) return 0;
            const auto profile =
                migProfileById(*family, job.migProfileId[static_cast<std::size_t>(*family)]);
            if (!profile) return 0;
            return std::int64_t{job.pods()} * unitsOfMigSlices(profile->computeSlices);
        }
        case HoldKind::Share:
        case HoldKind::Whole:
            return job.gpuUnits();
    }
    return 0;
}

std::int64_t QuotaLedger::podUnits(const PodPlacement& pod) {
    return pod.gpuUnits();
}

std::int64_t QuotaLedger::usedInParent(int node, int model) const {
    const std::size_t i = at(node, model);
    return std::max<std::int64_t>(0, m_usage[i] - m_guaranteed[i]);
}

std::int64_t QuotaLedger::availableAt(int node, int model, bool ownLimit) const {
    const std::size_t i = at(node, model);
    const int parent = m_nodes[node].parent;
    if (parent < 0) return m_subtreeQuota[i] - m_usage[i];
    const std::int64_t local = std::max<std::int64_t>(0, m_guaranteed[i] - m_usage[i]);
    std::int64_t fromParent = availableAt(parent, model, true);
    if (ownLimit && m_borrowingLimit[i] != kNoLimit) {
        const std::int64_t storedInParent = m_subtreeQuota[i] - m_guaranteed[i];
        fromParent =
            std::min(fromParent, storedInParent - usedInParent(node, model) + m_borrowingLimit[i]);
    }
    return local + fromParent;
}

QuotaCheck QuotaLedger::check(int team, int model, std::int64_t units) const {
    QuotaCheck c;
    const int node = queueOf(team);
    if (node < 0) return c;
    const auto flavors = flavorsOf(team);
    if (units <= 0 || std::find(flavors.begin(), flavors.end(), model) == flavors.end()) {
        c.verdict = ReasonToken::ExceedsMaxQuota;  // no quota of this model at all
        c.missingUnits = std::max<std::int64_t>(units, 0);
        return c;
    }
    const std::int64_t available = availableAt(node, model, true);
    if (units <= available) {
        c.borrows = m_usage[at(node, model)] + units > m_subtreeQuota[at(node, model)];
        return c;
    }
    c.missingUnits = units - available;
    if (units > m_potential[at(node, model)])
        c.verdict = ReasonToken::ExceedsMaxQuota;
    else if (m_borrowingLimit[at(node, model)] != kNoLimit &&
             units <= availableAt(node, model, false))
        c.verdict = ReasonToken::BorrowingLimitReached;
    else
        c.verdict = ReasonToken::WaitingForQuota;
    return c;
}

void QuotaLedger::charge(int team, int model, std::int64_t units) {
    int node = queueOf(team);
    if (node < 0 || units == 0) return;
    // Up the tree: each cohort's usage is what its children use beyond their guaranteed part.
    std::int64_t delta = units;
    while (node >= 0 && delta != 0) {
        const std::int64_t before = usedInParent(node, model);
        m_usage[at(node, model)] += delta;
        delta = usedInParent(node, model) - before;
        node = m_nodes[node].parent;
    }
}

void QuotaLedger::chargePods(int team, const Fleet& fleet, std::span<const PodPlacement> pods,
                             int sign) {
    if (!manages(team) || pods.empty()) return;
    std::int64_t units = 0;
    for (const PodPlacement& pod : pods)
        units += podUnits(pod);
    charge(team, fleet.nodes[pods.front().node].gpuModel, sign * units);
}

ReclaimPolicy QuotaLedger::reclaimPolicy(int team) const {
    return manages(team) ? m_reclaim[team] : ReclaimPolicy::Never;
}

WithinTeamPolicy QuotaLedger::withinTeamPolicy(int team) const {
    return manages(team) ? m_withinTeam[team] : WithinTeamPolicy::Never;
}

bool QuotaLedger::shareTree(int teamA, int teamB) const {
    const int a = queueOf(teamA), b = queueOf(teamB);
    if (a < 0 || b < 0) return false;
    if (a == b) return true;
    return m_nodes[a].parent >= 0 && m_nodes[b].parent >= 0 && m_nodes[a].root == m_nodes[b].root;
}

std::int64_t QuotaLedger::usage(int team, int model) const {
    const int node = queueOf(team);
    return node < 0 ? 0 : m_usage[at(node, model)];
}

std::int64_t QuotaLedger::nominal(int team, int model) const {
    const int node = queueOf(team);
    return node < 0 ? 0 : m_subtreeQuota[at(node, model)];
}

std::int64_t QuotaLedger::available(int team, int model) const {
    const int node = queueOf(team);
    return node < 0 ? 0 : availableAt(node, model, true);
}

std::int64_t QuotaLedger::potential(int team, int model) const {
    const int node = queueOf(team);
    return node < 0 ? 0 : m_potential[at(node, model)];
}

double QuotaLedger::share(int team, int model, std::int64_t extraUnits) const {
    const int node = queueOf(team);
    if (node < 0 || m_nodes[node].parent < 0) return 0;
    std::int64_t borrowed = 0;
    for (int m = 0; m < m_models; ++m) {
        const std::size_t i = at(node, m);
        borrowed += std::max<std::int64_t>(
            0, m_usage[i] + (m == model ? extraUnits : 0) - m_subtreeQuota[i]);
    }
    if (borrowed == 0) return 0;  // weight 0 too: only borrowing makes its share infinite
    if (m_nodes[node].weight <= 0) return std::numeric_limits<double>::infinity();
    const int root = m_nodes[node].root;
    std::int64_t lendable = 0;
    for (int m = 0; m < m_models; ++m)
        lendable += m_subtreeQuota[at(root, m)];
    if (lendable <= 0) return 0;
    return static_cast<double>(borrowed) / static_cast<double>(lendable) / m_nodes[node].weight;
}

std::vector<QuotaLedger::TeamQuotaNow> QuotaLedger::nowByTeam() const {
    std::vector<TeamQuotaNow> out(m_queueOfTeam.size());
    if (!enabled()) return out;
    // Per tree (by its root) and model: what its ClusterQueues borrow, and the unused quota
    // its nodes put in the pool (a cohort's own quota; a queue's, less what it uses of it).
    std::vector<std::int64_t> borrowedInTree(m_usage.size(), 0), unusedInPool(m_usage.size(), 0);
    const auto unusedOf = [this](std::size_t i) {
        return std::max<std::int64_t>(
            0, m_ownInPool[i] - std::max<std::int64_t>(0, m_usage[i] - m_guaranteed[i]));
    };
    for (int n = 0; n < static_cast<int>(m_nodes.size()); ++n)
        for (int m = 0; m < m_models; ++m) {
            const std::size_t i = at(n, m), tree = at(m_nodes[n].root, m);
            if (!m_nodes[n].queue) {
                unusedInPool[tree] += std::max<std::int64_t>(0, m_ownInPool[i]);
                continue;
            }
            borrowedInTree[tree] += std::max<std::int64_t>(0, m_usage[i] - m_subtreeQuota[i]);
            unusedInPool[tree] += unusedOf(i);
        }
    for (std::size_t team = 0; team < m_queueOfTeam.size(); ++team) {
        const int node = m_queueOfTeam[team];
        if (node < 0) continue;
        TeamQuotaNow& t = out[team];
        for (int m = 0; m < m_models; ++m) {
            const std::size_t i = at(node, m);
            t.nominal += m_subtreeQuota[i];
            t.used += m_usage[i];
            t.borrowed += std::max<std::int64_t>(0, m_usage[i] - m_subtreeQuota[i]);
            if (m_nodes[node].parent < 0) continue;  // in no cohort: lends to no one
            // Its tree's borrowing, split in proportion to the unused quota each put in.
            const std::size_t tree = at(m_nodes[node].root, m);
            const std::int64_t mine = unusedOf(i);
            if (unusedInPool[tree] > 0 && borrowedInTree[tree] > 0)
                t.lent += std::min(mine, borrowedInTree[tree] * mine / unusedInPool[tree]);
        }
    }
    return out;
}

void QuotaLedger::checkInvariants() const {
    if (!enabled()) return;
    std::vector<std::int64_t> fromChildren(m_usage.size(), 0);
    for (int n = 0; n < static_cast<int>(m_nodes.size()); ++n)
        if (m_nodes[n].parent >= 0)
            for (int m = 0; m < m_models; ++m)
                fromChildren[at(m_nodes[n].parent, m)] += usedInParent(n, m);
    for (int n = 0; n < static_cast<int>(m_nodes.size()); ++n) {
        const bool isQueue = m_nodes[n].queue;
        for (int m = 0; m < m_models; ++m) {
            const std::size_t i = at(n, m);
            if (!isQueue && m_usage[i] != fromChildren[i])
                throw std::logic_error("invariant: cohort " + m_nodes[n].name +
                                       "'s quota usage is not its children's");
            if (m_usage[i] < 0)
                throw std::logic_error("invariant: negative quota usage in " + m_nodes[n].name);
            if (m_borrowingLimit[i] != kNoLimit &&
                m_usage[i] > m_subtreeQuota[i] + m_borrowingLimit[i])
                throw std::logic_error("invariant: " + m_nodes[n].name +
                                       " borrows past its borrowing limit");
            // Lending: a node's guaranteed part never enters its parent's pool, so it lends
            // past its lending limit only if the tree as a whole is overdrawn at its root.
            if (m_nodes[n].parent < 0 && m_usage[i] > m_subtreeQuota[i])
                throw std::logic_error("invariant: " + m_nodes[n].name +
                                       " uses more quota than its tree holds (lent past a "
                                       "lending limit)");
        }
    }
}

}  // namespace gpuplan::detail
