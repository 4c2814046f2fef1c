#include "scenario_read_quotas.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace gpuplan::detail {

namespace {

/// GPU-equivalents a quota may name: far above any fleet the input limits accept.
constexpr double kMaxQuotaGpus = 1e7;

std::string gpus(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::vector<FlavorQuotaDef> readFlavors(const JsonNode& node, const Scenario& s, bool inCohort) {
    std::vector<FlavorQuotaDef> flavors;
    std::set<std::string> seen;
    for (const JsonNode& item : node.array(1000)) {
        JsonObject o = item.object();
        FlavorQuotaDef f;
        JsonNode model = o.required("gpuModel");
        f.gpuModel = model.name();
        if (!s.findGpu(f.gpuModel))
            model.fail("no node of the fleet has GPU model \"" + f.gpuModel + "\"");
        if (!seen.insert(f.gpuModel).second)
            model.fail("a second quota for GPU model \"" + f.gpuModel + "\" in one list");
        f.nominalGpus = o.required("nominalGpus").number(0, kMaxQuotaGpus);
        if (auto v = o.optional("borrowingLimitGpus")) {
            if (!inCohort) v->fail("borrowing needs a cohort to borrow from (set \"cohort\")");
            f.borrowingLimitGpus = v->number(0, kMaxQuotaGpus);
        }
        if (auto v = o.optional("lendingLimitGpus")) {
            if (!inCohort) v->fail("lending needs a cohort to lend to (set \"cohort\")");
            f.lendingLimitGpus = v->number(0, kMaxQuotaGpus);
            if (*f.lendingLimitGpus > f.nominalGpus)
                v->fail("lends more than its nominal quota of " + gpus(f.nominalGpus) + " GPUs");
        }
        o.finish();
        flavors.push_back(std::move(f));
    }
    return flavors;
}

double readWeight(JsonObject& o) {
    if (auto v = o.optional("fairShareWeight")) return v->number(0, 1e6);
    return 1;
}

void readCohorts(const JsonNode& node, Scenario& s) {
    std::vector<std::optional<JsonNode>> parentNode;  // per cohort, checked once all are read
    for (const JsonNode& item : node.array(1000)) {
        JsonObject o = item.object();
        CohortDef c;
        JsonNode name = o.required("name");
        c.name = name.name();
        for (const CohortDef& other : s.cohorts)
            if (other.name == c.name) name.fail("duplicate cohort \"" + c.name + "\"");
        parentNode.push_back(o.optional("parent"));
        if (parentNode.back()) c.parent = parentNode.back()->name();
        if (auto v = o.optional("fairSharing")) c.fairSharing = v->boolean();
        if (auto v = o.optional("flavors")) c.flavors = readFlavors(*v, s, !c.parent.empty());
        c.fairShareWeight = readWeight(o);
        o.finish();
        s.cohorts.push_back(std::move(c));
    }
    // By name, hashed: the cycle check below walks every chain (a chain n deep costs n², not n³).
    std::unordered_map<std::string, const CohortDef*> byName;
    for (const CohortDef& c : s.cohorts)
        byName.emplace(c.name, &c);
    auto find = [&byName](const std::string& name) -> const CohortDef* {
        const auto it = byName.find(name);
        return it == byName.end() ? nullptr : it->second;
    };
    for (std::size_t i = 0; i < s.cohorts.size(); ++i)
        if (parentNode[i] && !find(s.cohorts[i].parent))
            parentNode[i]->fail("unknown cohort \"" + s.cohorts[i].parent +
                                "\" (add it to \"cohorts\")");
    // A parent chain longer than the cohorts is a cycle.
    for (std::size_t i = 0; i < s.cohorts.size(); ++i) {
        const CohortDef* c = &s.cohorts[i];
        for (std::size_t steps = 0; c && !c->parent.empty(); ++steps) {
            if (steps > s.cohorts.size())
                parentNode[i]->fail("cohort \"" + s.cohorts[i].name +
                                    "\" is its own ancestor (a cycle of \"parent\")");
            c = find(c->parent);
        }
    }
}

void readTeamQuotas(const JsonNode& node, Scenario& s) {
    for (const JsonNode& item : node.array(1000)) {
        JsonObject o = item.object();
        QuotaDef q;
        JsonNode team = o.required("team");
        q.team = team.name();
        if (std::none_of(s.teams.begin(), s.teams.end(),
                         [&q](const TeamDef& t) { return t.name == q.team; }))
            team.fail("unknown team \"" + q.team + "\" (add it to \"teams\")");
        for (const QuotaDef& other : s.quotas)
            if (other.team == q.team) team.fail("a second quota for team \"" + q.team + "\"");
        if (auto v = o.optional("cohort")) {
            q.cohort = v->name();
            if (std::none_of(s.cohorts.begin(), s.cohorts.end(),
                             [&q](const CohortDef& c) { return c.name == q.cohort; }))
                v->fail("unknown cohort \"" + q.cohort + "\" (add it to \"cohorts\")");
        }
        q.flavors = readFlavors(o.required("flavors"), s, !q.cohort.empty());
        q.fairShareWeight = readWeight(o);
        if (auto v = o.optional("reclaimWithinCohort"))
            q.reclaimWithinCohort =
                v->enumeration<ReclaimPolicy>({{"Never", ReclaimPolicy::Never},
                                               {"LowerPriority", ReclaimPolicy::LowerPriority},
                                               {"Any", ReclaimPolicy::Any}});
        if (auto v = o.optional("withinTeam"))
            q.withinTeam = v->enumeration<WithinTeamPolicy>(
                {{"Never", WithinTeamPolicy::Never},
                 {"LowerPriority", WithinTeamPolicy::LowerPriority},
                 {"LowerOrNewerEqualPriority", WithinTeamPolicy::LowerOrNewerEqualPriority}});
        o.finish();
        s.quotas.push_back(std::move(q));
    }
}

}  // namespace

void readQuotas(JsonObject& root, Scenario& s) {
    if (auto n = root.optional("cohorts")) readCohorts(*n, s);
    if (auto n = root.optional("quotas")) readTeamQuotas(*n, s);
}

}  // namespace gpuplan::detail
