// Kueue objects (kueue_manifests.hpp) → a scenario's teams, quotas and cohorts.
#include "gpuplan/import/kueue_import.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "io/text_rules.hpp"
#include "kueue_manifests.hpp"
#include "yaml_reader.hpp"

namespace gpuplan {

namespace {

using detail::escapedForMessage;
using detail::KueueClusterQueue;
using detail::KueueGpuQuota;
using detail::KueueManifests;
using detail::SourcePlace;

std::string inQuotes(std::string_view text) {
    return "\"" + escapedForMessage(text) + "\"";
}

std::string gpus(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

class Importer {
public:
    Importer(const Scenario& base, KueueManifests& manifests, const KueueImportOptions& options)
        : m_base(base), m_in(manifests), m_options(options) {
        // Indexes by name: a file of 20,000 objects must not cost their square.
        for (const auto& f : m_in.flavors)
            m_flavorByName.emplace(f.name, &f);
        for (std::size_t i = 0; i < m_in.clusterQueues.size(); ++i)
            m_queueByName.emplace(m_in.clusterQueues[i].name, i);
        for (const auto& c : m_in.cohorts)
            m_cohortByName.emplace(c.name, &c);
        for (const auto& q : m_in.clusterQueues)
            for (const KueueGpuQuota& g : q.gpuQuotas)
                m_quotaFlavors.insert(g.flavor);
        for (const auto& c : m_in.cohorts)
            for (const KueueGpuQuota& g : c.gpuQuotas)
                m_quotaFlavors.insert(g.flavor);
    }

    KueueImport run() {
        checkOptions();
        KueueImport result;
        result.scenario = m_base;
        Scenario& s = result.scenario;
        s.quotas.clear();
        s.cohorts = cohorts();
        const std::vector<std::string> teams = teamOfEachQueue();
        for (std::size_t i = 0; i < m_in.clusterQueues.size(); ++i) {
            const KueueClusterQueue& q = m_in.clusterQueues[i];
            QuotaDef quota;
            quota.team = teams[i];
            quota.cohort = q.cohort;
            quota.flavors = flavorQuotas(q.gpuQuotas, !q.cohort.empty(), "ClusterQueue");
            quota.fairShareWeight = q.weight.value_or(1);
            quota.reclaimWithinCohort = q.reclaimWithinCohort;
            quota.withinTeam = q.withinClusterQueue;
            if (quota.flavors.empty())
                m_in.notes.add("no-gpu-quota",
                               "ClusterQueues with no nvidia.com/gpu quota: their teams get no "
                               "GPUs, as Kueue admits no GPU job there",
                               q.at, q.name);
            s.quotas.push_back(std::move(quota));
            if (std::none_of(s.teams.begin(), s.teams.end(),
                             [&](const TeamDef& t) { return t.name == teams[i]; })) {
                s.teams.push_back(TeamDef{.name = teams[i], .color = {}});
                result.createdTeams.push_back(teams[i]);
            }
        }
        for (const TeamDef& t : s.teams)
            if (std::find(teams.begin(), teams.end(), t.name) == teams.end())
                result.unmanagedTeams.push_back(t.name);
        noteWeightsWithoutFairSharing();
        result.notes = m_in.notes.lines();
        result.clusterQueues = static_cast<int>(m_in.clusterQueues.size());
        result.cohorts = static_cast<int>(m_in.cohorts.size());
        result.resourceFlavors = static_cast<int>(m_in.flavors.size());
        result.localQueues = static_cast<int>(m_in.localQueues.size());
        return result;
    }

private:
    [[noreturn]] static void fail(const SourcePlace& at, const std::string& message) {
        throw InputError(at.file, at.lineText(), message);
    }
    [[noreturn]] static void failOption(const std::string& option, const std::string& message) {
        throw InputError(option, "", message);
    }
    void checkName(const std::string& name, const SourcePlace& at, const std::string& what) const {
        if (const auto problem = detail::nameProblem(name))
            fail(at,
                 what + " " + *problem + " (gpuplan names: 1–64 letters, digits, '.', '_', '-')");
    }

    std::string fleetModels() const {
        std::string list;
        for (const GpuModel& g : m_base.gpuModels) {
            list += (list.empty() ? "" : ", ") + g.id;
            if (!g.productLabels.empty()) list += " = " + g.productLabels.front();
        }
        return list.empty() ? "none" : list;
    }

    bool flavorNamed(const std::string& name) const {
        return m_flavorByName.count(name) || m_quotaFlavors.count(name);
    }

    void checkOptions() const {
        std::set<std::string> seen;
        for (const auto& [flavor, model] : m_options.flavorModels) {
            if (!seen.insert(flavor).second)
                failOption("--flavor", "flavor " + inQuotes(flavor) + " is mapped twice");
            if (!m_base.findGpu(model))
                failOption("--flavor", inQuotes(flavor + "=" + model) +
                                           ": no node of the scenario's fleet has GPU model " +
                                           inQuotes(model) + " (the fleet has " + fleetModels() +
                                           ")");
            if (!flavorNamed(flavor))
                failOption("--flavor", "no ResourceFlavor or quota in the files names flavor " +
                                           inQuotes(flavor));
        }
        seen.clear();
        for (const auto& [queueName, team] : m_options.queueTeams) {
            const std::string& queue = queueName;  // clang 14 cannot capture a binding
            if (!seen.insert(queue).second)
                failOption("--team", "ClusterQueue " + inQuotes(queue) + " is given twice");
            if (!m_queueByName.count(queue))
                failOption("--team", "no ClusterQueue " + inQuotes(queue) + " in the files");
            if (const auto problem = detail::nameProblem(team))
                failOption("--team", "team " + *problem);
        }
    }

    /// The fleet GPU model a flavor's quota counts (rules in order: --flavor, the product
    /// label, the flavor's name).
    std::string modelOf(const KueueGpuQuota& quota) const {
        const std::string& name = quota.flavor;
        for (const auto& [flavor, model] : m_options.flavorModels)
            if (flavor == name) return model;
        const auto found = m_flavorByName.find(name);
        const detail::KueueResourceFlavor* rf =
            found == m_flavorByName.end() ? nullptr : found->second;
        const std::string mapHint =
            "; map it with --flavor " + escapedForMessage(name) + "=GPU_MODEL";
        if (rf && rf->gpuProduct) {
            const std::string& product = *rf->gpuProduct;
            if (product.find("-MIG-") != std::string::npos || product.ends_with("-SHARED"))
                fail(rf->gpuProductAt,
                     "ResourceFlavor " + inQuotes(name) + " selects nodes labelled " +
                         inQuotes(product) +
                         ", whose nvidia.com/gpu counts MIG instances or shared replicas, not "
                         "GPUs: not supported; give the quota in whole GPUs of a flavor of "
                         "unshared nodes instead");
            for (const GpuModel& g : m_base.gpuModels)
                for (const std::string& label : g.productLabels)
                    if (detail::equalIgnoringCase(label, product)) return g.id;
            fail(rf->gpuProductAt, "ResourceFlavor " + inQuotes(name) +
                                       " selects nvidia.com/gpu.product " + inQuotes(product) +
                                       ", which is no GPU model of the scenario's fleet (" +
                                       fleetModels() + ")" + mapHint);
        }
        if (m_base.findGpu(name)) return name;
        const std::string why = !rf ? "no ResourceFlavor " + inQuotes(name) + " is in the files"
                                    : "its ResourceFlavor has no nvidia.com/gpu.product node label";
        fail(!rf ? quota.at : rf->at, "flavor " + inQuotes(name) +
                                          " maps to no GPU model of the scenario's fleet: " + why +
                                          " and no fleet GPU model is called " + inQuotes(name) +
                                          " (the fleet has " + fleetModels() + ")" + mapHint);
    }

    /// A ClusterQueue's or Cohort's GPU quotas as gpuplan's, flavors of one model merged.
    std::vector<FlavorQuotaDef> flavorQuotas(const std::vector<KueueGpuQuota>& quotas,
                                             bool canShare, const std::string& owner) {
        std::vector<FlavorQuotaDef> out;
        std::vector<std::string> flavorNames;  // per out entry, for the merge note
        for (const KueueGpuQuota& q : quotas) {
            const std::string needs = owner == "Cohort" ? "spec.parentName" : "spec.cohort";
            if (q.borrowingLimitGpus && !canShare)
                fail(q.borrowingAt, "borrowingLimit needs " + needs +
                                        ": there is nothing to borrow from (Kueue refuses it too)");
            if (q.lendingLimitGpus && !canShare)
                fail(q.lendingAt, "lendingLimit needs " + needs +
                                      ": there is nothing to lend to (Kueue refuses it too)");
            if (q.lendingLimitGpus && *q.lendingLimitGpus > q.nominalGpus)
                fail(q.lendingAt, "lendingLimit " + gpus(*q.lendingLimitGpus) +
                                      " is more than the nominal quota " + gpus(q.nominalGpus));
            FlavorQuotaDef f{modelOf(q), q.nominalGpus, q.borrowingLimitGpus, q.lendingLimitGpus};
            const auto same = std::find_if(out.begin(), out.end(), [&](const FlavorQuotaDef& o) {
                return o.gpuModel == f.gpuModel;
            });
            if (same == out.end()) {
                out.push_back(f);
                flavorNames.push_back(q.flavor);
                continue;
            }
            // Kueue would let the queue borrow (lend) up to each flavor's limit: the sum. An
            // unset borrowing limit is no limit; an unset lending limit lends all the nominal.
            std::string& names = flavorNames[same - out.begin()];
            names += "+" + q.flavor;
            m_in.notes.add("merged-flavors",
                           "flavors of one GPU model merged into one quota (nominal quotas and "
                           "limits added): gpuplan's quotas are per GPU model",
                           q.at, names + " = " + f.gpuModel);
            if (!same->borrowingLimitGpus || !f.borrowingLimitGpus)
                same->borrowingLimitGpus.reset();
            else
                *same->borrowingLimitGpus += *f.borrowingLimitGpus;
            if (same->lendingLimitGpus || f.lendingLimitGpus)
                same->lendingLimitGpus = same->lendingLimitGpus.value_or(same->nominalGpus) +
                                         f.lendingLimitGpus.value_or(f.nominalGpus);
            same->nominalGpus += f.nominalGpus;
        }
        return out;
    }

    /// Cohort objects in file order, then the cohorts only named (Kueue makes those on the fly,
    /// with no quota of their own).
    std::vector<CohortDef> cohorts() {
        std::vector<CohortDef> out;
        const auto has = [&out](const std::string& name) {
            return std::any_of(out.begin(), out.end(),
                               [&](const CohortDef& c) { return c.name == name; });
        };
        for (const auto& c : m_in.cohorts) {
            checkName(c.name, c.at, "cohort");
            CohortDef def;
            def.name = c.name;
            def.parent = c.parent;
            def.fairSharing = m_options.fairSharing;
            def.flavors = flavorQuotas(c.gpuQuotas, !c.parent.empty(), "Cohort");
            def.fairShareWeight = c.weight.value_or(1);
            out.push_back(std::move(def));
        }
        const auto addNamed = [&](const std::string& name, const SourcePlace& at) {
            if (name.empty() || has(name)) return;
            checkName(name, at, "cohort");
            CohortDef def;
            def.name = name;
            def.fairSharing = m_options.fairSharing;
            out.push_back(std::move(def));
        };
        for (const auto& c : m_in.cohorts)
            addNamed(c.parent, c.parentAt);
        for (const auto& q : m_in.clusterQueues)
            addNamed(q.cohort, q.cohortAt);
        checkNoCycle();
        return out;
    }

    void checkNoCycle() const {
        for (const auto& start : m_in.cohorts) {
            std::string path = start.name;
            const detail::KueueCohort* c = &start;
            // A chain that runs into a cycle without `start` in it is reported from a member.
            for (std::size_t steps = 0; c && !c->parent.empty() && steps <= m_in.cohorts.size();
                 ++steps) {
                path += " → " + c->parent;
                if (c->parent == start.name)
                    fail(start.parentAt, "Cohort " + inQuotes(start.name) +
                                             " is its own ancestor (" + escapedForMessage(path) +
                                             "): Kueue stops admitting in such a cohort tree");
                const auto next = m_cohortByName.find(c->parent);
                c = next == m_cohortByName.end() ? nullptr : next->second;
            }
        }
    }

    /// The team each ClusterQueue's quota goes to.
    std::vector<std::string> teamOfEachQueue() {
        const auto& queues = m_in.clusterQueues;
        std::vector<std::vector<const detail::KueueLocalQueue*>> users(queues.size());
        std::map<std::string, std::size_t> queueOfNamespace;  // for namespaces with no --team
        for (const auto& lq : m_in.localQueues) {
            const auto found = m_queueByName.find(lq.clusterQueue);
            if (found == m_queueByName.end()) {
                m_in.notes.add("unknown-queue",
                               "LocalQueues left out: their ClusterQueue is in none of the files",
                               lq.at, lq.nameSpace + "/" + lq.name + " → " + lq.clusterQueue);
                continue;
            }
            const std::size_t i = found->second;
            const KueueClusterQueue* q = &queues[i];
            if (teamOption(q->name)) continue;
            const auto [it, first] = queueOfNamespace.emplace(lq.nameSpace, i);
            if (!first && it->second != i)
                fail(lq.at, "namespace " + inQuotes(lq.nameSpace) +
                                " has LocalQueues of ClusterQueues " +
                                inQuotes(queues[it->second].name) + " and " + inQuotes(q->name) +
                                ": a gpuplan team (a namespace) has one quota; give one of "
                                "the queues another team with --team CLUSTERQUEUE=TEAM");
            if (first) users[i].push_back(&lq);  // each namespace once
        }
        std::vector<std::string> teams;
        for (std::size_t i = 0; i < queues.size(); ++i) {
            const KueueClusterQueue& q = queues[i];
            std::string team;
            SourcePlace at = q.at;
            if (const std::string* option = teamOption(q.name)) {
                team = *option;
            } else if (users[i].size() > 1) {
                std::string names;
                for (const auto* u : users[i])
                    names += (names.empty() ? "" : ", ") + u->nameSpace;
                fail(q.at, "ClusterQueue " + inQuotes(q.name) + " is used by LocalQueues in " +
                               std::to_string(users[i].size()) + " namespaces (" +
                               escapedForMessage(names) +
                               "): gpuplan gives a quota to one team; name it with --team " +
                               escapedForMessage(q.name) + "=TEAM");
            } else if (users[i].size() == 1) {
                team = users[i].front()->nameSpace;
                at = users[i].front()->at;
            } else {
                team = q.name;  // no LocalQueue: the queue's own name
            }
            checkName(team, at, "team");
            for (std::size_t j = 0; j < i; ++j)
                if (teams[j] == team)
                    fail(q.at, "team " + inQuotes(team) +
                                   " would get the quotas of ClusterQueues " +
                                   inQuotes(queues[j].name) + " and " + inQuotes(q.name) +
                                   ": a gpuplan team has one quota (--team CLUSTERQUEUE=TEAM "
                                   "names another)");
            teams.push_back(std::move(team));
        }
        return teams;
    }

    const std::string* teamOption(const std::string& queue) const {
        for (const auto& [q, team] : m_options.queueTeams)
            if (q == queue) return &team;
        return nullptr;
    }

    void noteWeightsWithoutFairSharing() {
        if (m_options.fairSharing) return;
        const auto note = [&](const SourcePlace& at) {
            m_in.notes.add("weights-without-fair-sharing",
                           "fairSharing weights kept, but fair sharing is off: Kueue switches "
                           "it on in its Configuration (fairSharing.enable), which no manifest "
                           "holds; pass --fair-sharing if your cluster does",
                           at);
        };
        for (const auto& q : m_in.clusterQueues)
            if (q.weight) note(q.at);
        for (const auto& c : m_in.cohorts)
            if (c.weight) note(c.at);
    }

    const Scenario& m_base;
    KueueManifests& m_in;
    const KueueImportOptions& m_options;
    std::map<std::string, const detail::KueueResourceFlavor*> m_flavorByName;
    std::map<std::string, std::size_t> m_queueByName;
    std::map<std::string, const detail::KueueCohort*> m_cohortByName;
    std::set<std::string> m_quotaFlavors;  ///< flavors a GPU quota names
};

}  // namespace

KueueImport importKueue(const Scenario& base, const std::vector<KueueManifestText>& manifests,
                        const KueueImportOptions& options) {
    KueueManifests objects;
    detail::YamlBudget budget;
    for (const KueueManifestText& m : manifests)
        detail::readKueueManifests(detail::readYamlDocuments(m.text, m.file, budget), m.file,
                                   objects);
    return Importer(base, objects, options).run();
}

KueueImport importKueueFiles(const Scenario& base, const std::vector<std::filesystem::path>& files,
                             const KueueImportOptions& options) {
    KueueManifests objects;
    detail::YamlBudget budget;
    for (const std::filesystem::path& file : files) {
        const std::string name = file.string();
        detail::readKueueManifests(detail::readYamlDocuments(readTextFile(file), name, budget),
                                   name, objects);
    }
    return Importer(base, objects, options).run();
}

}  // namespace gpuplan
