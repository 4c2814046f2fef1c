// Scenario → canonical JSON: stable key order, only fields that differ from their defaults.
#include <nlohmann/json.hpp>

#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/openb.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan {

namespace {

using OJson = nlohmann::ordered_json;

template <class T>
void putIf(OJson& o, const char* key, const T& value, const T& defaultValue) {
    if (!(value == defaultValue)) o[key] = value;
}

OJson distribution(const DistributionDef& d) {
    OJson o;
    o["dist"] = toString(d.kind);
    switch (d.kind) {
        case DistKind::Fixed:
            o["value"] = d.value;
            break;
        case DistKind::Exponential:
            o["mean"] = d.mean;
            break;
        case DistKind::Lognormal:
            o["median"] = d.median;
            o["sigma"] = d.sigma;
            break;
        case DistKind::Uniform:
            o["low"] = d.low;
            o["high"] = d.high;
            break;
        case DistKind::Empirical:
            o["values"] = d.values;
            o["weights"] = d.weights;
            break;
    }
    if (d.min) o["min"] = *d.min;
    if (d.max) o["max"] = *d.max;
    return o;
}

/// A scenario's own node type, by the fields node_type_read.cpp reads.
OJson nodeType(const NodeType& t) {
    OJson o{{"id", t.id}};
    if (t.name != t.id) o["name"] = t.name;
    o["gpuModel"] = t.gpuModel;
    o["gpusPerNode"] = t.gpusPerNode;
    if (t.cpuCores) o["cpuCores"] = *t.cpuCores;
    if (t.ramGb) o["ramGb"] = *t.ramGb;
    if (t.nicCount) o["nicCount"] = *t.nicCount;
    if (t.nicGbps) o["nicGbps"] = *t.nicGbps;
    if (t.fabricGbpsPerNode) o["fabricGbpsPerNode"] = *t.fabricGbpsPerNode;
    if (t.maxPowerKw) o["maxPowerKw"] = *t.maxPowerKw;
    if (t.nvlinkDomain != NvlinkDomain::Node) o["nvlinkDomain"] = toString(t.nvlinkDomain);
    if (t.nodesPerNvlinkDomain != 1) o["nodesPerNvlinkDomain"] = t.nodesPerNvlinkDomain;
    if (!t.notes.empty()) o["notes"] = t.notes;
    return o;
}

OJson sharing(const GpuSharingDef& g) {
    const GpuSharingDef d;
    OJson o;
    o["mode"] = toString(g.mode);
    if (g.mode == SharingMode::Mps) {
        putIf(o, "mpsClients", g.mpsClients, d.mpsClients);
        putIf(o, "mpsComputeCapPct", g.mpsComputeCapPct, d.mpsComputeCapPct);
        putIf(o, "mpsMemoryLimitGb", g.mpsMemoryLimitGb, d.mpsMemoryLimitGb);
    }
    if (g.mode == SharingMode::TimeSlicing)
        putIf(o, "replicas", g.timeSliceReplicas, d.timeSliceReplicas);
    if (g.mode == SharingMode::Mig) {
        if (g.migLayouts.empty()) {
            o["migLayout"] = g.migLayout;
        } else {
            OJson runs = OJson::array();
            for (const MigLayoutRun& run : g.migLayouts) {
                OJson r;
                r["gpus"] = run.gpus;
                r["layout"] = run.layout;
                runs.push_back(std::move(r));
            }
            o["migLayouts"] = std::move(runs);
        }
        putIf(o, "dynamic", g.migDynamic, d.migDynamic);
        putIf(o, "reconfigureS", g.migReconfigureS, d.migReconfigureS);
    }
    return o;
}

void traits(OJson& o, const JobTraitsDef& t, bool withTeam) {
    const JobTraitsDef d;
    if (withTeam) o["team"] = t.team;
    putIf(o, "priority", t.priority, d.priority);
    if (t.gpuModel) o["gpuModel"] = *t.gpuModel;
    putIf(o, "gpusPerPod", t.gpusPerPod, d.gpusPerPod);
    putIf(o, "gpuMilli", t.gpuMilli, d.gpuMilli);
    if (!t.migProfile.empty()) o["migProfile"] = t.migProfile;
    putIf(o, "migMemoryGb", t.migMemoryGb, d.migMemoryGb);
    putIf(o, "cpuMilliPerPod", t.cpuMilliPerPod, d.cpuMilliPerPod);
    putIf(o, "memoryMiBPerPod", t.memoryMiBPerPod, d.memoryMiBPerPod);
    putIf(o, "memoryGbPerGpu", t.memoryGbPerGpu, d.memoryGbPerGpu);
    putIf(o, "smActivity", t.smActivity, d.smActivity);
    if (t.engineActive) o["engineActive"] = *t.engineActive;
    putIf(o, "mfu", t.mfu, d.mfu);
    if (t.precision != d.precision) o["precision"] = toString(t.precision);
    putIf(o, "matmulShare", t.matmulShare, d.matmulShare);
    if (t.flopsPerByte) o["flopsPerByte"] = *t.flopsPerByte;
    putIf(o, "topologySensitivity", t.topologySensitivity, d.topologySensitivity);
    putIf(o, "startupS", t.startupS, d.startupS);
    if (t.pin.level != PinLevel::None) o["pin"] = OJson{{toString(t.pin.level), t.pin.target}};
    if (t.preemptionPolicy != d.preemptionPolicy)
        o["preemptionPolicy"] = toString(t.preemptionPolicy);
    putIf(o, "checkpointIntervalS", t.checkpointIntervalS, d.checkpointIntervalS);
    putIf(o, "checkpointCostS", t.checkpointCostS, d.checkpointCostS);
    if (t.elasticMaxGpus > 0) o["elastic"] = OJson{{"maxGpus", t.elasticMaxGpus}};
}

OJson flavorQuotas(const std::vector<FlavorQuotaDef>& flavors) {
    OJson list = OJson::array();
    for (const FlavorQuotaDef& f : flavors) {
        OJson o{{"gpuModel", f.gpuModel}, {"nominalGpus", f.nominalGpus}};
        if (f.borrowingLimitGpus) o["borrowingLimitGpus"] = *f.borrowingLimitGpus;
        if (f.lendingLimitGpus) o["lendingLimitGpus"] = *f.lendingLimitGpus;
        list.push_back(o);
    }
    return list;
}

void pricing(OJson& root, const Scenario& s) {
    if (!s.pricing) return;
    OJson models = OJson::array();
    for (const GpuPriceDef& p : s.pricing->gpuModels) {
        OJson prices = OJson::object();
        for (int c = 0; c < kBuyingClassCount; ++c)
            if (const auto& v = p.usdPerGpuHour[c])
                prices[toString(static_cast<BuyingClass>(c))] = *v;
        models.push_back(OJson{{"gpuModel", p.gpuModel}, {"usdPerGpuHour", prices}});
    }
    root["pricing"] =
        OJson{{"book", s.pricing->book}, {"asOf", s.pricing->asOf}, {"gpuModels", models}};
}

void quotas(OJson& root, const Scenario& s) {
    if (!s.cohorts.empty()) {
        const CohortDef d;
        OJson list = OJson::array();
        for (const CohortDef& c : s.cohorts) {
            OJson o{{"name", c.name}};
            if (!c.parent.empty()) o["parent"] = c.parent;
            putIf(o, "fairSharing", c.fairSharing, d.fairSharing);
            if (!c.flavors.empty()) o["flavors"] = flavorQuotas(c.flavors);
            putIf(o, "fairShareWeight", c.fairShareWeight, d.fairShareWeight);
            list.push_back(o);
        }
        root["cohorts"] = list;
    }
    if (!s.quotas.empty()) {
        const QuotaDef d;
        OJson list = OJson::array();
        for (const QuotaDef& q : s.quotas) {
            OJson o{{"team", q.team}};
            if (!q.cohort.empty()) o["cohort"] = q.cohort;
            o["flavors"] = flavorQuotas(q.flavors);
            putIf(o, "fairShareWeight", q.fairShareWeight, d.fairShareWeight);
            if (q.reclaimWithinCohort != d.reclaimWithinCohort)
                o["reclaimWithinCohort"] = toString(q.reclaimWithinCohort);
            if (q.withinTeam != d.withinTeam) o["withinTeam"] = toString(q.withinTeam);
            list.push_back(o);
        }
        root["quotas"] = list;
    }
}

}  // namespace

std::string scenarioToJson(const Scenario& s) {
    const Scenario d;
    OJson root;
    root["format"] = "gpuplan-scenario";
    root["formatVersion"] = kScenarioFormatVersion;
    if (!s.name.empty()) root["name"] = s.name;
    if (!s.description.empty()) root["description"] = s.description;
    root["seed"] = s.seed;
    root["horizonS"] = s.horizonS;
    root["sampleIntervalS"] = s.sampleIntervalS;
    putIf(root, "warmupS", s.warmupS, d.warmupS);
    putIf(root, "replications", s.replications, d.replications);
    putIf(root, "demandMultiplier", s.demandMultiplier, d.demandMultiplier);

    OJson fabric = OJson::object();
    putIf(fabric, "rackUplinkOversubscription", s.fabric.rackUplinkOversubscription,
          d.fabric.rackUplinkOversubscription);
    putIf(fabric, "podUplinkOversubscription", s.fabric.podUplinkOversubscription,
          d.fabric.podUplinkOversubscription);
    putIf(fabric, "fallbackFabricGBpsPerGpu", s.fabric.fallbackFabricGBpsPerGpu,
          d.fabric.fallbackFabricGBpsPerGpu);
    if (!fabric.empty()) root["fabric"] = fabric;

    if (!s.definedNodeTypes.empty()) {
        OJson types = OJson::array();
        for (const NodeType& t : s.definedNodeTypes)
            types.push_back(nodeType(t));
        root["nodeTypes"] = types;
    }

    OJson pods = OJson::array();
    if (s.nodeList)
        root["topology"] = OJson{
            {"nodeList", {{"format", toString(s.nodeList->format)}, {"file", s.nodeList->file}}}};
    for (const PodDef& pod : s.pods) {
        OJson po;
        po["name"] = pod.name;
        po["count"] = pod.count;
        OJson racks = OJson::array();
        for (const RackDef& rack : pod.racks) {
            OJson ro;
            ro["name"] = rack.name;
            ro["count"] = rack.count;
            OJson groups = OJson::array();
            for (const NodeGroupDef& g : rack.nodes) {
                const NodeGroupDef dg;
                OJson go;
                go["name"] = g.name;
                go["count"] = g.count;
                go["nodeType"] = g.nodeType;
                if (g.buyingClass != dg.buyingClass) go["buyingClass"] = toString(g.buyingClass);
                if (g.usdPerGpuHour) go["usdPerGpuHour"] = *g.usdPerGpuHour;
                if (g.state != dg.state) go["state"] = toString(g.state);
                putIf(go, "readyAtS", g.readyAtS, dg.readyAtS);
                if (g.sharing != dg.sharing) go["sharing"] = sharing(g.sharing);
                putIf(go, "speed", g.speed, dg.speed);
                groups.push_back(go);
            }
            ro["nodes"] = groups;
            racks.push_back(ro);
        }
        po["racks"] = racks;
        pods.push_back(po);
    }
    if (!s.nodeList) root["topology"] = OJson{{"pods", pods}};

    OJson teams = OJson::array();
    for (const TeamDef& t : s.teams) {
        OJson o{{"name", t.name}};
        if (!t.color.empty()) o["color"] = t.color;
        teams.push_back(o);
    }
    root["teams"] = teams;

    quotas(root, s);
    pricing(root, s);
    if (s.failures) {
        root["failures"] = OJson{{"repairS", s.failures->repairS}};
        if (s.failures->mtbfGpuHours != FailureDef::kLlama3MtbfGpuHours)
            root["failures"]["mtbfGpuHours"] = s.failures->mtbfGpuHours;
        if (s.failures->hotSpareNodes > 0)
            root["failures"]["hotSpareNodes"] = s.failures->hotSpareNodes;
    }
    if (s.onDemand) {
        root["onDemand"] = OJson{{"provisioningDelayS", s.onDemand->provisioningDelayS},
                                 {"idleTimeoutS", s.onDemand->idleTimeoutS}};
        if (s.onDemand->maxNodes) root["onDemand"]["maxNodes"] = *s.onDemand->maxNodes;
    }
    if (s.buyingMix) {
        root["buyingMix"] = OJson{{"reservedNodes", s.buyingMix->reservedNodes},
                                  {"spotNodes", s.buyingMix->spotNodes}};
        if (s.buyingMix->fillOrder != BuyingMixDef{}.fillOrder) {
            OJson order = OJson::array();
            for (BuyingClass c : s.buyingMix->fillOrder)
                order.push_back(toString(c));
            root["buyingMix"]["fillOrder"] = order;
        }
    }
    if (s.spot) {
        root["spot"] = OJson{{"monthlyInterruptionFraction", s.spot->monthlyInterruptionFraction},
                             {"noticeS", s.spot->noticeS},
                             {"returnS", s.spot->returnS}};
    }

    root["scheduler"] = OJson{{"queueOrder", toString(s.scheduler.queueOrder)},
                              {"placement", toString(s.scheduler.placement)},
                              {"backfill", toString(s.scheduler.backfill)}};
    if (s.scheduler.preemption != d.scheduler.preemption)
        root["scheduler"]["preemption"] = toString(s.scheduler.preemption);
    if (s.scheduler.preemptionGraceS != d.scheduler.preemptionGraceS)
        root["scheduler"]["preemptionGraceS"] = s.scheduler.preemptionGraceS;
    if (s.scheduler.thrashingPreemptions != d.scheduler.thrashingPreemptions)
        root["scheduler"]["thrashingPreemptions"] = s.scheduler.thrashingPreemptions;
    if (s.scheduler.starvationWaitS != d.scheduler.starvationWaitS)
        root["scheduler"]["starvationWaitS"] = s.scheduler.starvationWaitS;
    if (s.scheduler.elasticGrowAfterIdleS != d.scheduler.elasticGrowAfterIdleS)
        root["scheduler"]["elasticGrowAfterIdleS"] = s.scheduler.elasticGrowAfterIdleS;

    if (!s.jobClasses.empty()) {
        OJson classes = OJson::array();
        for (const JobClassDef& c : s.jobClasses) {
            OJson o{{"name", c.name}};
            traits(o, c.traits, true);
            OJson a{{"process", toString(c.arrival.process)}};
            switch (c.arrival.process) {
                case ArrivalProcess::Poisson:
                    a["ratePerHour"] = c.arrival.ratePerHour;
                    break;
                case ArrivalProcess::Diurnal:
                    a["ratePerHour"] = c.arrival.ratePerHour;
                    a["amplitude"] = c.arrival.amplitude;
                    a["peakHourOfDay"] = c.arrival.peakHourOfDay;
                    break;
                case ArrivalProcess::List:
                    a["timesS"] = c.arrival.timesS;
                    break;
                case ArrivalProcess::Tide:
                    a["minReplicas"] = c.arrival.minReplicas;
                    a["maxReplicas"] = c.arrival.maxReplicas;
                    a["peakHourOfDay"] = c.arrival.peakHourOfDay;
                    break;
            }
            o["arrival"] = a;
            o["gpus"] = distribution(c.gpus);
            if (c.arrival.process != ArrivalProcess::Tide)
                o["durationS"] = distribution(c.durationS);
            if (c.maxJobs) o["maxJobs"] = *c.maxJobs;
            if (c.minAvailable) o["minAvailable"] = *c.minAvailable;
            classes.push_back(o);
        }
        root["jobClasses"] = classes;
    }
    if (!s.jobs.empty()) {
        OJson jobs = OJson::array();
        for (const JobDef& j : s.jobs) {
            OJson o{{"name", j.name}};
            traits(o, j.traits, true);
            o["submitS"] = j.submitS;
            o["gpus"] = j.gpus;
            o["durationS"] = j.durationS;
            jobs.push_back(o);
        }
        root["jobs"] = jobs;
    }
    if (!s.traces.empty()) {
        OJson traces = OJson::array();
        for (const TraceDef& t : s.traces) {
            const TraceDef dt;
            OJson o{{"format", toString(t.format)}, {"file", t.file}};
            putIf(o, "teamPrefix", t.teamPrefix, dt.teamPrefix);
            putIf(o, "timeScale", t.timeScale, dt.timeScale);
            putIf(o, "durationScale", t.durationScale, dt.durationScale);
            putIf(o, "offsetS", t.offsetS, dt.offsetS);
            putIf(o, "maxJobs", t.maxJobs, dt.maxJobs);
            traits(o, t.traits, false);
            if (!t.gpuTypes.empty()) {
                OJson types = OJson::object();
                for (const auto& [type, model] : t.gpuTypes)
                    types[type] = model;
                o["gpuTypes"] = std::move(types);
            }
            traces.push_back(o);
        }
        root["traces"] = traces;
    }
    if (!s.nodeEvents.empty()) {
        OJson events = OJson::array();
        for (const NodeEventDef& e : s.nodeEvents)
            events.push_back(
                OJson{{"timeS", e.timeS}, {"node", e.node}, {"state", toString(e.state)}});
        root["nodeEvents"] = events;
    }
    return root.dump(2) + "\n";
}

Scenario rebaseTraces(const Scenario& scenario, const std::filesystem::path& folder,
                      const std::vector<std::filesystem::path>& dataDirs) {
    namespace fs = std::filesystem;
    auto rebase = [&](std::string& file, const std::string& resolvedPath) {
        if (fs::path(file).is_absolute()) return;
        std::error_code ec;
        bool viaDataDir = false;
        for (const fs::path& d : dataDirs)
            viaDataDir = viaDataDir || fs::is_regular_file(d / file, ec);
        if (viaDataDir) return;
        const fs::path found = fs::absolute(resolvedPath, ec);
        if (ec) return;
        const fs::path relative = found.lexically_relative(fs::absolute(folder, ec));
        file = (!ec && !relative.empty()) ? relative.generic_string() : found.generic_string();
    };
    Scenario out = scenario;
    for (TraceDef& t : out.traces)
        if (t.data) rebase(t.file, t.data->resolvedPath);
    if (out.nodeList && out.nodeList->data) {
        // The loaded rows stay shared; only the copy's name for the file changes.
        auto data = std::make_shared<NodeListData>(*out.nodeList->data);
        rebase(out.nodeList->file, data->resolvedPath);
        data->file = out.nodeList->file;
        out.nodeList->data = std::move(data);
    }
    return out;
}

void saveScenarioAtomic(const Scenario& scenario, const std::filesystem::path& file) {
    writeFileAtomic(file, scenarioToJson(scenario));
}

}  // namespace gpuplan
