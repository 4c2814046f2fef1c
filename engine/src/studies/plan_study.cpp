// The planner on a scenario (gpuplan/studies/plan_study.hpp): candidates set by JSON pointer,
// runs on common seeds in parallel, the search's budget checked before it starts.
#include "gpuplan/studies/plan_study.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>

#include "gpuplan/core/parallel_runs.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/studies/replications.hpp"
#include "io/json_reader.hpp"

namespace gpuplan {

using detail::Json;

namespace {

const char* const kVary = "--vary";
const char* const kTarget = "--target";
const char* const kObjective = "--objective";

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

/// A whole number the scenario sets, exactly (at most 10^15 either way: counts, quotas), or
/// nullopt: a real with a fraction, a bool, a string, or one too large to be a count.
std::optional<long long> wholeValue(const Json& v) {
    constexpr double kMost = 1e15;
    if (v.is_boolean() || !v.is_number()) return std::nullopt;
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (static_cast<double>(u) > kMost) return std::nullopt;
        return static_cast<long long>(u);
    }
    if (v.is_number_integer()) {
        const auto i = v.get<long long>();
        if (std::abs(static_cast<double>(i)) > kMost) return std::nullopt;
        return i;
    }
    const double d = v.get<double>();
    if (!std::isfinite(d) || std::floor(d) != d || std::abs(d) > kMost) return std::nullopt;
    return static_cast<long long>(d);
}

int coresFor(int threads) {
    return threads > 0 ? threads
                       : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::vector<std::string> pointersOf(const PlanQuestion& q) {
    std::vector<std::string> out;
    for (const PlanDimension& d : q.dimensions)
        out.push_back(d.pointer);
    return out;
}

}  // namespace

std::vector<std::string> planValuesIn(std::string_view scenarioJson,
                                      const std::vector<PlanDimension>& dimensions) {
    std::vector<std::string> out;
    const Json doc = Json::parse(scenarioJson, nullptr, false);
    for (const PlanDimension& d : dimensions) {
        std::string value;
        try {
            const Json::json_pointer pointer(d.pointer);
            if (!doc.is_discarded() && doc.contains(pointer)) {
                const Json& v = doc.at(pointer);
                if (d.isChoice() && v.is_string()) value = v.get<std::string>();
                if (!d.isChoice())
                    if (const std::optional<long long> whole = wholeValue(v))
                        value = std::to_string(*whole);
            }
        } catch (const nlohmann::json::exception&) {
            value.clear();
        }
        out.push_back(value);
    }
    return out;
}

PlanStudy::PlanStudy(std::string scenarioText, std::filesystem::path scenarioFile,
                     PlanQuestion question, const Catalog& catalog, LoadOptions loadOptions)
    : m_scenarioText(std::move(scenarioText)),
      m_scenarioFile(std::move(scenarioFile)),
      m_question(std::move(question)),
      m_catalog(&catalog),
      m_load(std::move(loadOptions)) {
    const std::string file = m_scenarioFile.string();
    if (m_question.targets.empty())
        throw InputError(kTarget, "", "a plan needs at least one --target");
    if (m_question.dimensions.empty())
        throw InputError(kVary, "", "a plan needs at least one --vary");
    if (m_question.replications < 2 || m_question.replications > 100)
        throw InputError("--replications", std::to_string(m_question.replications),
                         "a plan's candidates take 2 to 100 replications (an interval needs two)");

    // The scenario as it stands reads (what the plan's words name), and each pointer names a
    // value of the right kind it sets, once.
    m_scenario = parseScenario(m_scenarioText, file, catalog, m_load, folderOf(m_scenarioFile));
    const Json doc = detail::parseStrict(m_scenarioText, file);
    for (std::size_t a = 0; a < m_question.dimensions.size(); ++a) {
        const PlanDimension& d = m_question.dimensions[a];
        for (std::size_t b = 0; b < a; ++b) {
            const std::string& other = m_question.dimensions[b].pointer;
            if (other == d.pointer || d.pointer.starts_with(other + "/") ||
                other.starts_with(d.pointer + "/"))
                throw InputError(kVary, d.text,
                                 "sets the same place as " + m_question.dimensions[b].text);
        }
        if (d.pointer == "/seed")
            throw InputError(kVary, d.text,
                             "the planner runs every candidate on the same seeds (common random "
                             "numbers); a seed is not a change to plan");
        for (const char* measured : {"/horizonS", "/warmupS", "/sampleIntervalS", "/replications"})
            if (d.pointer == measured)
                throw InputError(kVary, d.text,
                                 std::string(measured + 1) +
                                     " changes what is measured, not the fleet or its rules");
        const Json* value = nullptr;
        try {
            const Json::json_pointer pointer(d.pointer);
            if (doc.contains(pointer)) value = &doc.at(pointer);
        } catch (const nlohmann::json::exception&) {
            throw InputError(kVary, d.text, "\"" + d.pointer + "\" is not a JSON pointer");
        }
        if (!value)
            throw InputError(kVary, d.text,
                             "the scenario " + file + " sets nothing at " + d.pointer +
                                 " (set it in the scenario first)");
        if (d.isChoice() && !value->is_string())
            throw InputError(kVary, d.text,
                             "a choice sets a string, and " + d.pointer + " in " + file + " is " +
                                 value->dump());
        // A whole number written as 64.0 (scenario_write writes quotas as reals) is one too.
        const std::optional<long long> whole = wholeValue(*value);
        if (!d.isChoice() && !whole)
            throw InputError(kVary, d.text,
                             "a range sets an integer, and " + d.pointer + " in " + file + " is " +
                                 value->dump());
        long long index = -1;
        if (d.isChoice()) {
            const auto it =
                std::find(d.choices.begin(), d.choices.end(), value->get<std::string>());
            if (it != d.choices.end()) index = it - d.choices.begin();
            m_current.push_back(value->get<std::string>());
        } else {
            if (*whole >= d.lo && *whole <= d.hi) index = *whole - d.lo;
            m_current.push_back(std::to_string(*whole));
        }
        m_baseline.push_back(index);
    }

    checkNodeTypeChoices(catalog);

    // The top of every combination of choices: a valid scenario, and the costliest run.
    std::vector<std::size_t> choiceDims;
    std::size_t combos = 1;
    for (std::size_t d = 0; d < m_question.dimensions.size(); ++d)
        if (m_question.dimensions[d].isChoice()) {
            choiceDims.push_back(d);
            combos *= m_question.dimensions[d].choices.size();
        }
    if (combos > 10000)
        throw InputError(
            kVary, "",
            "the choices make " + std::to_string(combos) + " combinations (at most 10,000)");
    Scenario first;
    for (std::size_t k = 0; k < combos; ++k) {
        PlanCandidate top(m_question.dimensions.size());
        std::size_t rest = k;
        for (std::size_t d = m_question.dimensions.size(); d > 0; --d) {
            const PlanDimension& dim = m_question.dimensions[d - 1];
            if (dim.isChoice()) {
                top[d - 1] = static_cast<long long>(rest % dim.choices.size());
                rest /= dim.choices.size();
            } else {
                top[d - 1] = dim.size() - 1;
            }
        }
        Scenario s = scenarioAt(top);
        s.replications = 1;
        const RunCost cost = estimateRunCost(s, Fleet::build(s));
        if (k == 0 || cost.workOps > m_costliestRun.workOps) m_costliestRun = cost;
        if (k == 0) first = std::move(s);
    }

    // The bottom of every range (with the first choices) is a valid scenario too: bisection
    // may reach it, and a value the scenario may not hold (a count of 0) fails now, not
    // halfway through the search.
    PlanCandidate bottom(m_question.dimensions.size(), 0);
    (void)scenarioAt(bottom);

    // The objective, and what the targets can name before a run.
    m_objectiveName =
        m_question.objective.empty() ? (first.pricing ? "cost" : "gpus") : m_question.objective;
    if (m_objectiveName == "cost") {
        m_objectiveKpi = "cost_usd";
        if (!first.pricing)
            throw InputError(kObjective, "cost",
                             "the scenario " + file +
                                 " has no prices (/pricing); use --objective gpus, or price it");
    } else if (m_objectiveName == "gpus") {
        m_objectiveKpi = "gpu_hours_provisioned";
    } else if (m_objectiveName == "power") {
        m_objectiveKpi = "peak_power_kw";
    } else {
        throw InputError(kObjective, m_objectiveName, "expected cost, gpus or power");
    }
    readWhatRunsReport(first);

    // The budget holds for every run the search could make, as many at once as it runs.
    if (const std::string excess = budgetExcess(searchCost(0), m_load.budget); !excess.empty())
        throw InputError(
            file, "",
            "the plan's search would make up to " + std::to_string(runBound()) + " runs (" +
                std::to_string(planCandidateBound(m_question.dimensions) + 1) + " candidates × " +
                std::to_string(m_question.replications) + " replications): " + excess);
}

std::string jobsFailingOn(const Scenario& scenario, const Catalog& catalog,
                          const std::string& nodeTypeNow, const std::string& nodeType) {
    const auto gpuOf = [&](const std::string& id) -> const GpuModel* {
        const NodeType* type = catalog.findNodeType(id);
        if (!type) type = scenario.findNodeType(id);
        return type ? catalog.findGpu(type->gpuModel) : nullptr;
    };
    const GpuModel* now = gpuOf(nodeTypeNow);
    const GpuModel* gpu = gpuOf(nodeType);
    if (!gpu || gpu->hbmGb <= 0) return {};  // the reader names an unknown type at the candidate
    std::string reason;
    // A job whose memory does not fit a GPU crash-loops there and then fails: a fleet of such
    // GPUs would meet a wait target by failing the jobs that wait. One that does not fit the
    // type now fails already.
    const auto check = [&](const JobTraitsDef& traits, const std::string& what) {
        if (!reason.empty() || (traits.gpuModel && *traits.gpuModel != gpu->id)) return;
        if (traits.memoryGbPerGpu <= gpu->hbmGb) return;
        if (now && traits.memoryGbPerGpu > now->hbmGb) return;
        char need[96];
        std::snprintf(need, sizeof need, " asks %g GB per GPU, and %s's GPUs hold %g GB",
                      traits.memoryGbPerGpu, nodeType.c_str(), gpu->hbmGb);
        reason = what + need;
    };
    for (const JobClassDef& c : scenario.jobClasses)
        check(c.traits, "job class " + c.name);
    for (const JobDef& j : scenario.jobs)
        check(j.traits, "job " + j.name);
    return reason;
}

void PlanStudy::checkNodeTypeChoices(const Catalog& catalog) const {
    for (std::size_t k = 0; k < m_question.dimensions.size(); ++k) {
        const PlanDimension& d = m_question.dimensions[k];
        if (!d.isChoice() || !d.pointer.ends_with("/nodeType")) continue;
        for (const std::string& id : d.choices)
            if (const std::string why = jobsFailingOn(m_scenario, catalog, m_current[k], id);
                !why.empty())
                throw InputError(kVary, d.text,
                                 why +
                                     ": its jobs would crash-loop there (a plan must not meet "
                                     "its targets by failing jobs)");
    }
}

void PlanStudy::readWhatRunsReport(const Scenario& top) {
    // The teams: the scenario's, its job sources', its traces' (with their prefix).
    const auto addTeam = [this](const std::string& team) {
        if (!team.empty() && std::find(m_teams.begin(), m_teams.end(), team) == m_teams.end())
            m_teams.push_back(team);
    };
    for (const TeamDef& t : top.teams)
        addTeam(t.name);
    for (const JobClassDef& c : top.jobClasses)
        addTeam(c.traits.team);
    for (const JobDef& j : top.jobs)
        addTeam(j.traits.team);
    for (const TraceDef& t : top.traces)
        if (t.data)
            for (const std::string& team : t.data->teams)
                addTeam(t.teamPrefix + team);
    // The KPIs a run reports depend on what the scenario holds (prices, spot, failures), not
    // on how long it runs: a short run of the top candidate names them and their units.
    Scenario probe = top;
    probe.warmupS = 0;
    probe.horizonS = std::min(top.horizonS, 2 * top.sampleIntervalS);
    RunOptions run;
    run.checkInvariants = false;
    run.maxPendingEntriesPerSample = 0;
    const Results probed = simulate(probe, run);
    std::vector<std::string> fleetNames, teamNames;
    for (const Kpi& k : probed.kpis)
        fleetNames.push_back(k.name);
    GroupKpis team;
    if (top.pricing) team.costUsd = 0;  // a priced run's teams have a chargeback
    const std::vector<Kpi> teamKpis = teamKpiList(team);
    for (const Kpi& k : teamKpis)
        teamNames.push_back(k.name);
    for (const PlanTarget& t : m_question.targets) {
        if (!t.team.empty() && std::find(m_teams.begin(), m_teams.end(), t.team) == m_teams.end())
            throw InputError(kTarget, t.text,
                             "no team \"" + t.team + "\" (the teams: " + joined(m_teams) + ")");
        const std::vector<Kpi>& list = t.team.empty() ? probed.kpis : teamKpis;
        const auto k = std::find_if(list.begin(), list.end(),
                                    [&t](const Kpi& kpi) { return kpi.name == t.kpi; });
        if (k == list.end())
            throw InputError(kTarget, t.text,
                             t.team.empty() ? "the runs report no KPI \"" + t.kpi +
                                                  "\" (they report " + joined(fleetNames) + ")"
                                            : "a team has no KPI \"" + t.kpi +
                                                  "\" (a team's KPIs: " + joined(teamNames) + ")");
        m_targetUnits.push_back(k->unit);
    }
    const Kpi* objective = probed.findKpi(m_objectiveKpi);
    if (!objective)
        throw InputError(kObjective, m_objectiveName,
                         "the runs report no KPI \"" + m_objectiveKpi + "\" to minimise");
    m_objectiveUnit = objective->unit;
}

std::string PlanStudy::valueJson(std::size_t dimension, long long index) const {
    const PlanDimension& d = m_question.dimensions[dimension];
    const std::string text = planValueText(d, index);
    return d.isChoice() ? Json(text).dump() : text;
}

Scenario PlanStudy::scenarioAt(const PlanCandidate& candidate) const {
    std::vector<std::string> values;
    for (std::size_t d = 0; d < candidate.size(); ++d)
        values.push_back(valueJson(d, candidate[d]));
    return scenarioWithValues(m_scenarioText, m_scenarioFile, pointersOf(m_question), values,
                              m_scenarioFile.string(), "plan candidate", *m_catalog, m_load);
}

std::optional<PlanEvaluation> PlanStudy::evaluate(const Scenario& scenario, int replication,
                                                  std::stop_token stop) const {
    RunOptions run;
    run.seed = replicationSeed(scenario.seed, replication);
    run.checkInvariants = false;
    run.maxPendingEntriesPerSample = 0;  // only KPIs are read
    const Results results = simulate(scenario, run, {}, stop);
    if (results.stopped) return std::nullopt;
    // The names were checked before the search (readWhatRunsReport): a KPI a run lacks
    // reads NaN, which no interval counts.
    PlanEvaluation e;
    for (const PlanTarget& t : m_question.targets) {
        if (t.team.empty()) {
            e.targetValues.push_back(results.kpi(t.kpi));
            continue;
        }
        // A team that submitted nothing in this run has an idle team's KPIs (0 GPU-hours, no
        // wait measured).
        const auto team = std::find_if(results.teamKpis.begin(), results.teamKpis.end(),
                                       [&t](const GroupKpis& g) { return g.name == t.team; });
        double value = std::numeric_limits<double>::quiet_NaN();
        for (const Kpi& k : teamKpiList(team != results.teamKpis.end() ? *team : GroupKpis{}))
            if (k.name == t.kpi) value = k.value;
        e.targetValues.push_back(value);
    }
    e.objective = results.kpi(m_objectiveKpi);
    return e;
}

std::size_t PlanStudy::runBound() const {
    return (planCandidateBound(m_question.dimensions) + 1) *  // + the baseline
           static_cast<std::size_t>(m_question.replications);
}

PlanSearchOptions PlanStudy::searchOptions(int threads) const {
    return planSearchOptions(m_question.dimensions, m_question.replications, baseline(), threads);
}

std::optional<PlanCandidate> PlanStudy::baseline() const {
    if (std::find(m_baseline.begin(), m_baseline.end(), -1) != m_baseline.end())
        return std::nullopt;
    return m_baseline;
}

RunCost PlanStudy::costOfRuns(std::size_t runCount, int threads) const {
    RunCost c = m_costliestRun;
    const auto runs = static_cast<double>(runCount);
    const double atOnce = std::clamp<double>(coresFor(threads), 1, m_question.replications);
    c.runs = runs;
    c.memoryBytes = m_costliestRun.memoryBytes * atOnce;
    c.workOps = m_costliestRun.workOps * runs;
    for (RunCostPart& p : c.parts) {
        p.memoryBytes *= atOnce;
        p.workOps *= runs;
    }
    return c;
}

namespace {

/// The scenarios of the last batch's candidates: racing asks the next replications of the same
/// candidate in the next batch, and reading a scenario may read its trace files again.
using ReadScenarios = std::vector<std::pair<PlanCandidate, std::shared_ptr<const Scenario>>>;

/// Runs a batch on up to `threads` threads, each distinct candidate's scenario read once (or
/// kept from the batch before, `read`, which then holds this batch's).
std::optional<std::vector<PlanEvaluation>> runBatch(const PlanStudy& study,
                                                    const std::vector<PlanRun>& runs, int threads,
                                                    ReadScenarios& read,
                                                    const std::function<void()>& oneDone,
                                                    std::stop_token stop) {
    ReadScenarios now;
    std::vector<const Scenario*> scenarioOf(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto same = [&](const auto& entry) { return entry.first == runs[i].candidate; };
        auto it = std::find_if(now.begin(), now.end(), same);
        if (it == now.end()) {
            const auto before = std::find_if(read.begin(), read.end(), same);
            now.emplace_back(runs[i].candidate, before != read.end()
                                                    ? before->second
                                                    : std::make_shared<const Scenario>(
                                                          study.scenarioAt(runs[i].candidate)));
            it = now.end() - 1;
        }
        scenarioOf[i] = it->second.get();
    }
    read = now;
    std::vector<PlanEvaluation> out(runs.size());
    const bool finished = runInParallel(
        runs.size(), threads,
        [&](std::size_t i, std::stop_token runStop) {
            std::optional<PlanEvaluation> e =
                study.evaluate(*scenarioOf[i], runs[i].replication, runStop);
            if (!e) return false;
            out[i] = std::move(*e);
            if (oneDone) oneDone();
            return true;
        },
        stop);
    if (!finished) return std::nullopt;
    return out;
}

}  // namespace

PlanSearchResult runPlanStudy(const PlanStudy& study, int threads, const ProgressFn& progress,
                              std::stop_token stop) {
    const int cores = coresFor(threads);
    std::mutex lock;
    std::size_t done = 0;
    const double bound = static_cast<double>(study.runBound());
    const std::function<void()> oneDone = [&] {
        const std::lock_guard held(lock);
        ++done;
        if (progress) progress(std::min(0.99, static_cast<double>(done) / bound));
    };
    ReadScenarios read;
    const PlanBatchEvaluator evaluate = [&](const std::vector<PlanRun>& runs) {
        return runBatch(study, runs, cores, read, oneDone, stop);
    };
    PlanSearchResult result = searchPlan(study.question().dimensions, study.question().targets,
                                         evaluate, study.searchOptions(cores));
    if (progress && !result.stopped) progress(1.0);
    return result;
}

std::size_t planShardRunCount(const PlanStudy& study, Shard shard) {
    const std::size_t total = planGridSize(study.question().dimensions) *
                              static_cast<std::size_t>(study.question().replications);
    const auto n = static_cast<std::size_t>(shard.count);
    const auto k = static_cast<std::size_t>(shard.index - 1);
    return total / n + (k < total % n ? 1 : 0);
}

PlanRunTable runPlanShard(const PlanStudy& study, Shard shard, int threads,
                          const ProgressFn& progress, std::stop_token stop) {
    const auto& dims = study.question().dimensions;
    const auto reps = static_cast<std::size_t>(study.question().replications);
    const std::size_t total = planGridSize(dims) * reps;
    std::vector<PlanRun> runs;
    for (std::size_t run = static_cast<std::size_t>(shard.index - 1); run < total;
         run += static_cast<std::size_t>(shard.count))
        runs.push_back({planCandidateAt(dims, run / reps), static_cast<int>(run % reps)});
    std::mutex lock;
    std::size_t done = 0;
    const std::function<void()> oneDone = [&] {
        const std::lock_guard held(lock);
        ++done;
        if (progress) progress(static_cast<double>(done) / static_cast<double>(runs.size()));
    };
    ReadScenarios read;
    // A run per thread at a time (a candidate's runs in one chunk share one read of it):
    // memory stays a few scenarios however large the shard.
    const std::size_t chunk = static_cast<std::size_t>(coresFor(threads));
    PlanRunTable table;
    for (std::size_t first = 0; first < runs.size();) {
        const std::size_t last = std::min(runs.size(), first + chunk);
        const std::vector<PlanRun> batch(runs.begin() + static_cast<std::ptrdiff_t>(first),
                                         runs.begin() + static_cast<std::ptrdiff_t>(last));
        const auto evaluations = runBatch(study, batch, threads, read, oneDone, stop);
        if (!evaluations) return {};
        for (std::size_t i = 0; i < batch.size(); ++i)
            table.add(batch[i].candidate, batch[i].replication, (*evaluations)[i]);
        first = last;
    }
    return table;
}

}  // namespace gpuplan
