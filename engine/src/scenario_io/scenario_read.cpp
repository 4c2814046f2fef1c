// Scenario JSON → Scenario, strictly: structure first (types, ranges, unknown keys), then
// references (node types, teams, GPU models, pin targets) and size bounds.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/import/trace_readers.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "gpuplan/model/openb.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/model/workload.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/run_cost.hpp"
#include "io/json_reader.hpp"
#include "io/text_rules.hpp"
#include "model/random.hpp"
#include "node_type_read.hpp"
#include "scenario_read_fleet_checks.hpp"
#include "scenario_read_jobs.hpp"
#include "scenario_read_pricing.hpp"
#include "scenario_read_quotas.hpp"
#include "scenario_read_scheduler.hpp"
#include "scenario_read_sharing.hpp"

namespace gpuplan {

using detail::JsonNode;
using detail::JsonObject;
using detail::kMaxTimeS;
using detail::readArrival;
using detail::readDistribution;

namespace {

constexpr double kMaxDemandMultiplier = 100;  // a hundredfold demand is already a new fleet

/// Keeps the pointer of every reference so semantic errors can point at the right place.
struct Reader {
    const Catalog& catalog;
    const std::string& file;
    const LoadOptions& options;
    std::filesystem::path baseDir;
    Scenario s;
    std::vector<std::pair<std::string, std::string>> teamRefs;       // pointer, team
    std::vector<std::pair<std::string, std::string>> gpuModelRefs;   // pointer, model id
    std::vector<std::pair<std::string, PinDef>> pinRefs;             // pointer, pin
    std::vector<std::pair<std::string, std::string>> nodeEventRefs;  // pointer, node name
    std::vector<std::pair<std::string, long long>> classJobEstimates;
    /// The scenario's own node types by id: a fleet of 200,000 groups looks each up once.
    std::unordered_map<std::string, std::size_t> definedTypeIndex;

    [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
        throw InputError(file, pointer.empty() ? "/" : pointer, message);
    }

    // ---- structure ----------------------------------------------------------------------

    PinDef pin(const JsonNode& node) {
        JsonObject o = node.object();
        PinDef p;
        int given = 0;
        for (auto [key, level] :
             {std::pair{"node", PinLevel::Node}, std::pair{"rack", PinLevel::Rack},
              std::pair{"pod", PinLevel::Pod}}) {
            if (auto v = o.optional(key)) {
                p.level = level;
                p.target = v->name();
                ++given;
            }
        }
        if (given != 1) o.fail("a pin names exactly one of \"node\", \"rack\" or \"pod\"");
        o.finish();
        pinRefs.push_back({node.pointer(), p});
        return p;
    }

    /// A pod's GPU share, MIG instance, CPU and memory (engine/README.md, "Resource model").
    void resources(JsonObject& o, JobTraitsDef& t) {
        std::optional<JsonNode> milli = o.optional("gpuMilli");
        if (milli) t.gpuMilli = static_cast<int>(milli->integer(1, 1000));
        std::optional<JsonNode> profile = o.optional("migProfile");
        std::optional<JsonNode> memoryGb = o.optional("migMemoryGb");
        if (profile) {
            t.migProfile = profile->string(32);
            if (!isMigProfileName(t.migProfile))
                profile->fail("no MIG-capable GPU has a profile \"" +
                              detail::escapedForMessage(t.migProfile) +
                              "\" (e.g. \"1g.10gb\", \"3g.40gb\")");
        }
        if (memoryGb) {
            if (profile) memoryGb->fail("give \"migProfile\" or \"migMemoryGb\", not both");
            t.migMemoryGb = memoryGb->number(0.001, 1e5);
            bool known = false;
            for (MigFamily f : kMigFamilies)
                known |= smallestProfileWithMemory(f, t.migMemoryGb).has_value();
            if (!known) memoryGb->fail("no MIG profile of any GPU has that much memory");
        }
        const bool mig = profile || memoryGb;
        if (mig && milli) milli->fail("a MIG pod takes an instance, not a milli-GPU share");
        if ((mig || t.gpuMilli < 1000) && t.gpusPerPod > 1)
            fail(o.pointer() + "/gpusPerPod",
                 "a pod with a GPU share or a MIG instance has one GPU (gpusPerPod 1)");
        if (auto v = o.optional("cpuMilliPerPod"))
            t.cpuMilliPerPod = static_cast<int>(v->integer(0, 100'000'000));
        if (auto v = o.optional("memoryMiBPerPod"))
            t.memoryMiBPerPod = static_cast<int>(v->integer(0, 1'000'000'000));
    }

    /// Reads the trait keys of a job class, explicit job or trace (team only where asked).
    JobTraitsDef traits(JsonObject& o, bool withTeam) {
        JobTraitsDef t;
        if (withTeam) {
            JsonNode team = o.required("team");
            t.team = team.name();
            teamRefs.push_back({team.pointer(), t.team});
        }
        if (auto v = o.optional("priority"))
            t.priority = static_cast<int>(v->integer(-1'000'000'000, 1'000'000'000));
        if (auto v = o.optional("gpuModel")) {
            t.gpuModel = v->name();
            gpuModelRefs.push_back({v->pointer(), *t.gpuModel});
        }
        if (auto v = o.optional("gpusPerPod")) t.gpusPerPod = static_cast<int>(v->integer(1, 64));
        resources(o, t);
        if (auto v = o.optional("memoryGbPerGpu")) t.memoryGbPerGpu = v->number(0, 1e5);
        if (auto v = o.optional("smActivity")) t.smActivity = v->number(0, 1);
        if (auto v = o.optional("engineActive")) {
            t.engineActive = v->number(0, 1);
            // SM_ACTIVE counts SMs × time, so it cannot exceed the time the engine is active.
            const double smShare = t.smActivity * t.gpuMilli / 1000.0;
            if (*t.engineActive < smShare - 1e-9)
                v->fail("engine activity " + detail::shortNumber(*t.engineActive) +
                        " is below the SM activity it implies, " + detail::shortNumber(smShare) +
                        " (smActivity " + detail::shortNumber(t.smActivity) + " × " +
                        std::to_string(t.gpuMilli) +
                        " milli-GPU): kernels keep SMs busy only while they run");
        }
        if (auto v = o.optional("mfu")) t.mfu = v->number(0, 1);
        if (auto v = o.optional("precision")) {
            t.precision =
                v->enumeration<Precision>({{"bf16", Precision::Bf16}, {"fp8", Precision::Fp8}});
        }
        if (auto v = o.optional("matmulShare")) t.matmulShare = v->number(0, 1);
        // Above 1e6 FLOP/B every GPU's roofline is flat (ridge points are a few hundred).
        if (auto v = o.optional("flopsPerByte")) {
            t.flopsPerByte = v->number(0, 1e6);
            // Below 0.01 FLOP/B no GPU computes a thousandth of its peak (an H100 at 0.01 is
            // 0.003 %); 0 would do no work at all.
            if (*t.flopsPerByte < 0.01)
                v->fail("an arithmetic intensity of " + detail::shortNumber(*t.flopsPerByte) +
                        " FLOPs per byte does no work (at least 0.01); leave it out for "
                        "compute-bound kernels");
        }
        if (auto v = o.optional("topologySensitivity")) t.topologySensitivity = v->number(0, 1);
        if (auto v = o.optional("startupS")) t.startupS = v->number(0, 1e7);
        if (auto v = o.optional("pin")) t.pin = pin(*v);
        if (auto v = o.optional("preemptionPolicy"))
            t.preemptionPolicy = v->enumeration<PreemptionPolicy>(
                {{"PreemptLowerPriority", PreemptionPolicy::PreemptLowerPriority},
                 {"Never", PreemptionPolicy::Never}});
        if (auto v = o.optional("checkpointIntervalS")) t.checkpointIntervalS = v->number(0, 1e7);
        if (auto v = o.optional("checkpointCostS")) {
            t.checkpointCostS = v->number(0, 1e7);
            if (t.checkpointCostS > 0 && t.checkpointIntervalS == 0)
                v->fail("a checkpoint cost needs \"checkpointIntervalS\" (how often it is paid)");
        }
        if (auto v = o.optional("elastic")) {
            JsonObject e = v->object();
            t.elasticMaxGpus = static_cast<int>(e.required("maxGpus").integer(1, 1'000'000));
            e.finish();
            if (t.gpuMilli < 1000 || !t.migProfile.empty() || t.migMemoryGb > 0)
                v->fail(
                    "an elastic job grows by whole GPUs: not with a GPU share or a MIG instance");
        }
        return t;
    }

    /// A node state by name; draining and repairing only as events (a group starts in neither).
    static NodeState nodeState(const JsonNode& v, bool asEvent) {
        const NodeState state = v.enumeration<NodeState>({{"provisioning", NodeState::Provisioning},
                                                          {"ready", NodeState::Ready},
                                                          {"cordoned", NodeState::Cordoned},
                                                          {"failed", NodeState::Failed},
                                                          {"draining", NodeState::Draining},
                                                          {"repairing", NodeState::Repairing}});
        if (!asEvent && (state == NodeState::Draining || state == NodeState::Repairing))
            v.fail(
                "a node group starts provisioning, ready, cordoned or failed; drain or repair "
                "it with a node event");
        return state;
    }

    void topology(JsonObject& root) {
        JsonObject topo = root.required("topology").object();
        std::optional<JsonNode> listNode = topo.optional("nodeList");
        if (listNode) {
            if (topo.has("pods"))
                fail(topo.pointer() + "/pods", "give \"pods\" or \"nodeList\", not both");
            s.nodeList = nodeList(*listNode);
            topo.finish();
            return;
        }
        JsonNode podsNode = topo.required("pods");
        const auto pods = podsNode.array(10000);
        if (pods.empty()) podsNode.fail("a fleet needs at least one pod");
        for (const JsonNode& podNode : pods) {
            JsonObject po = podNode.object();
            PodDef pod;
            if (auto v = po.optional("name")) pod.name = v->name();
            if (auto v = po.optional("count")) pod.count = static_cast<int>(v->integer(1, 100000));
            JsonNode racksNode = po.required("racks");
            const auto racks = racksNode.array(10000);
            if (racks.empty()) racksNode.fail("a pod needs at least one rack");
            for (const JsonNode& rackNode : racks) {
                JsonObject ro = rackNode.object();
                RackDef rack;
                if (auto v = ro.optional("name")) rack.name = v->name();
                if (auto v = ro.optional("count"))
                    rack.count = static_cast<int>(v->integer(1, 100000));
                JsonNode groupsNode = ro.required("nodes");
                const auto groups = groupsNode.array(1000);
                if (groups.empty()) groupsNode.fail("a rack needs at least one node group");
                for (const JsonNode& groupNode : groups) {
                    JsonObject go = groupNode.object();
                    NodeGroupDef g;
                    if (auto v = go.optional("name")) g.name = v->name();
                    if (auto v = go.optional("count"))
                        g.count = static_cast<int>(v->integer(1, 200000));
                    JsonNode typeNode = go.required("nodeType");
                    g.nodeType = typeNode.name();
                    const NodeType* type = catalog.findNodeType(g.nodeType);
                    if (auto own = definedTypeIndex.find(g.nodeType); own != definedTypeIndex.end())
                        type = &s.definedNodeTypes[own->second];
                    if (!type)
                        typeNode.fail("unknown node type \"" + g.nodeType +
                                      "\" (not in the catalog nor the scenario's \"nodeTypes\")");
                    if (auto v = go.optional("buyingClass"))
                        g.buyingClass = v->enumeration<BuyingClass>(
                            {{"reserved", BuyingClass::Reserved},
                             {"on-demand", BuyingClass::OnDemand},
                             {"spot", BuyingClass::Spot},
                             {"capacity-block", BuyingClass::CapacityBlock},
                             {"on-prem", BuyingClass::OnPrem}});
                    if (auto v = go.optional("usdPerGpuHour"))
                        g.usdPerGpuHour = v->number(0, kMaxUsdPerGpuHour);
                    if (type) {
                        const auto classNode = go.optional("buyingClass");
                        detail::checkGroupPriced(s, g, type->gpuModel,
                                                 classNode ? *classNode : groupNode);
                    }
                    if (auto v = go.optional("state")) g.state = nodeState(*v, false);
                    if (auto v = go.optional("readyAtS")) {
                        g.readyAtS = v->number(0, kMaxTimeS);
                        if (g.readyAtS == 0)
                            v->fail(
                                "must be after 0 (omit \"readyAtS\" for nodes that stay "
                                "provisioning)");
                        if (g.state != NodeState::Provisioning)
                            v->fail("\"readyAtS\" only applies to \"state\": \"provisioning\"");
                    }
                    if (auto v = go.optional("sharing"))
                        g.sharing = detail::readSharing(*v, *type, catalog);
                    if (auto v = go.optional("speed")) {
                        g.speed = v->number(0, 1);
                        if (g.speed < 0.01)
                            v->fail("a node's pace is above 0.01 (1 = healthy, 0.5 = half speed)");
                    }
                    go.finish();
                    addHardware(*type);
                    rack.nodes.push_back(std::move(g));
                }
                ro.finish();
                pod.racks.push_back(std::move(rack));
            }
            po.finish();
            s.pods.push_back(std::move(pod));
        }
        topo.finish();
        // The same count the fleet edits and Fleet::build use; it points at the node group
        // where the fleet first passes a limit.
        const FleetSizeCheck size = checkFleetSize(s);
        if (!size.refusal.empty())
            fail("/topology/pods/" + std::to_string(size.pod) + "/racks/" +
                     std::to_string(size.rack) + "/nodes/" + std::to_string(size.group),
                 size.refusal);
    }

    /// A fleet from a node list file: read now (the topology needs it), its GPU models and
    /// node types taken from the fleet it builds.
    NodeListDef nodeList(const JsonNode& node) {
        JsonObject o = node.object();
        NodeListDef d;
        d.format =
            o.required("format").enumeration<NodeListFormat>({{"openb", NodeListFormat::Openb}});
        JsonNode fileNode = o.required("file");
        d.file = fileNode.filePath("node list");
        o.finish();
        if (options.preloadedNodeList && options.preloadedNodeList->file == d.file) {
            d.data = options.preloadedNodeList;
        } else {
            auto data = std::make_shared<NodeListData>();
            const std::filesystem::path path = findDataFile(d.file, fileNode, "node list");
            data->file = d.file;
            data->resolvedPath = path.string();
            data->nodes = parseOpenbNodes(readNamedFile(path, fileNode), path.string());
            d.data = std::move(data);
        }
        try {
            const Fleet fleet = openbFleet(d.data->nodes);
            s.gpuModels = fleet.gpuModels;
            s.nodeTypes = fleet.nodeTypes;
        } catch (const std::invalid_argument& e) {
            fileNode.fail(d.data->resolvedPath + ": " + e.what());
        }
        return d;
    }

    void definedNodeTypes(JsonObject& root) {
        auto node = root.optional("nodeTypes");
        if (!node) return;
        for (const JsonNode& item : node->array(10000)) {
            JsonObject o = item.object();
            NodeType t = detail::readNodeType(o, catalog, detail::NodeTypeOrigin::Scenario);
            if (catalog.findNodeType(t.id))
                o.required("id").fail("node type \"" + t.id +
                                      "\" is the catalog's; give the scenario's own another id");
            if (!definedTypeIndex.emplace(t.id, s.definedNodeTypes.size()).second)
                o.required("id").fail("duplicate node type id \"" + t.id + "\"");
            o.finish();
            s.definedNodeTypes.push_back(std::move(t));
        }
    }

    void addHardware(const NodeType& type) {
        if (!s.findNodeType(type.id)) s.nodeTypes.push_back(type);
        if (!s.findGpu(type.gpuModel)) s.gpuModels.push_back(*catalog.findGpu(type.gpuModel));
    }

    void jobClasses(JsonObject& root) {
        auto node = root.optional("jobClasses");
        if (!node) return;
        std::unordered_set<std::string> names;
        for (const JsonNode& item : node->array(1000)) {
            JsonObject o = item.object();
            JobClassDef c;
            JsonNode nameNode = o.required("name");
            c.name = nameNode.name();
            if (!names.insert(c.name).second)
                nameNode.fail("duplicate job class name \"" + c.name + "\"");
            c.traits = traits(o, true);
            c.arrival = readArrival(o.required("arrival"));
            c.gpus = readDistribution(o.required("gpus"), 1, 100000);
            // A tide's replicas last their windows.
            if (c.arrival.process == ArrivalProcess::Tide) {
                if (auto d = o.optional("durationS"))
                    d->fail("a tide's replicas run as long as the curve wants them: no durationS");
            } else {
                c.durationS = readDistribution(o.required("durationS"), 1, kMaxTimeS);
            }
            if (auto v = o.optional("maxJobs"))
                c.maxJobs = static_cast<int>(v->integer(0, InputLimits::maxJobsPerClass));
            if (auto v = o.optional("minAvailable"))
                c.minAvailable = static_cast<int>(v->integer(0, InputLimits::maxJobsPerClass));
            o.finish();
            classJobEstimates.push_back({item.pointer(), expectedJobs(c)});
            s.jobClasses.push_back(std::move(c));
        }
    }

    long long expectedJobs(const JobClassDef& c) const {
        return static_cast<long long>(
            std::ceil(expectedClassJobs(c, s.demandMultiplier, s.horizonS)));
    }

    void jobs(JsonObject& root) {
        auto node = root.optional("jobs");
        if (!node) return;
        std::unordered_set<std::string> names;
        for (const JsonNode& item : node->array(InputLimits::maxJobsPerClass)) {
            JsonObject o = item.object();
            JobDef j;
            JsonNode nameNode = o.required("name");
            j.name = nameNode.name();
            if (!names.insert(j.name).second)
                nameNode.fail("duplicate job name \"" + j.name + "\"");
            j.traits = traits(o, true);
            j.submitS = o.required("submitS").number(0, kMaxTimeS);
            JsonNode gpusNode = o.required("gpus");
            j.gpus = static_cast<int>(gpusNode.integer(1, 100000));
            if (j.traits.gpusPerPod > 0 && j.gpus % j.traits.gpusPerPod != 0)
                gpusNode.fail("must be a multiple of gpusPerPod (" +
                              std::to_string(j.traits.gpusPerPod) + ")");
            if (j.traits.elasticMaxGpus > 0 && j.traits.elasticMaxGpus <= j.gpus)
                fail(o.pointer() + "/elastic/maxGpus", "an elastic job grows above its gpus (" +
                                                           std::to_string(j.gpus) +
                                                           "): maxGpus must be more");
            j.durationS = o.required("durationS").number(1, kMaxTimeS);
            o.finish();
            s.jobs.push_back(std::move(j));
        }
    }

    void traces(JsonObject& root) {
        auto node = root.optional("traces");
        if (!node) return;
        for (const JsonNode& item : node->array(16)) {
            JsonObject o = item.object();
            TraceDef t;
            t.format =
                o.required("format").enumeration<TraceFormat>({{"philly", TraceFormat::Philly},
                                                               {"openb", TraceFormat::Openb},
                                                               {"sacct", TraceFormat::Sacct}});
            JsonNode fileNode = o.required("file");
            t.file = fileNode.filePath("trace file");
            if (auto v = o.optional("teamPrefix")) {
                // Team names are the prefix and the trace's cluster ids: the same rule holds.
                t.teamPrefix = v->string(32);
                if (auto problem = detail::nameProblem(t.teamPrefix);
                    problem && !t.teamPrefix.empty())
                    v->fail("teamPrefix " + *problem);
            }
            if (auto v = o.optional("timeScale")) t.timeScale = v->number(1e-6, 1e6);
            if (auto v = o.optional("durationScale")) t.durationScale = v->number(1e-6, 1e6);
            if (auto v = o.optional("offsetS")) t.offsetS = v->number(0, kMaxTimeS);
            if (auto v = o.optional("maxJobs"))
                t.maxJobs = static_cast<int>(v->integer(0, InputLimits::maxJobsPerClass));
            t.traits = traits(o, false);
            if (t.format == TraceFormat::Openb) podOwnTraits(o, t.traits);
            if (auto v = o.optional("gpuTypes")) t.gpuTypes = gpuTypes(*v, t.format);
            o.finish();
            if (options.loadTraces) t.data = loadTrace(t, fileNode);
            s.traces.push_back(std::move(t));
        }
    }

    /// A sacct trace's {"TYPE": "MODEL", …}: Slurm GPU types and the catalog models they are.
    std::vector<std::pair<std::string, std::string>> gpuTypes(const JsonNode& node,
                                                              TraceFormat format) const {
        if (format != TraceFormat::Sacct)
            node.fail("only applies to \"format\": \"sacct\" (Slurm's GPU types)");
        JsonObject o = node.object();
        if (node.raw().size() > 64) node.fail("more than 64 GPU types");
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& [type, value] : node.raw().items()) {
            JsonNode model = o.required(type);
            if (auto problem = detail::nameProblem(type)) model.fail("GPU type " + *problem);
            out.emplace_back(type, model.name());
            if (!catalog.findGpu(out.back().second))
                model.fail("unknown GPU model \"" + out.back().second + "\" (not in the catalog)");
        }
        return out;
    }

    /// An openb pod list gives each pod's GPUs, share, CPU, memory and models: the traits
    /// that would say them too are refused rather than silently overridden.
    void podOwnTraits(JsonObject& o, const JobTraitsDef& t) const {
        const JobTraitsDef d;
        const std::pair<const char*, bool> given[] = {
            {"gpuModel", t.gpuModel.has_value()},
            {"gpusPerPod", t.gpusPerPod != d.gpusPerPod},
            {"gpuMilli", t.gpuMilli != d.gpuMilli},
            {"migProfile", !t.migProfile.empty()},
            {"migMemoryGb", t.migMemoryGb != d.migMemoryGb},
            {"cpuMilliPerPod", t.cpuMilliPerPod != d.cpuMilliPerPod},
            {"memoryMiBPerPod", t.memoryMiBPerPod != d.memoryMiBPerPod}};
        for (const auto& [key, set] : given)
            if (set)
                fail(o.pointer() + "/" + key,
                     std::string("an openb pod list gives each pod's own \"") + key +
                         "\" (its num_gpu, gpu_milli, gpu_spec, cpu_milli and memory_mib "
                         "columns); remove the key");
    }

    std::shared_ptr<const TraceData> loadTrace(const TraceDef& t, const JsonNode& fileNode) const {
        const std::filesystem::path path = findDataFile(t.file, fileNode, "trace file");
        const std::string text = readNamedFile(path, fileNode);
        switch (t.format) {
            case TraceFormat::Openb:
                return parseOpenbTrace(text, path.string());
            case TraceFormat::Sacct:
                return parseSacct(text, path.string()).data;
            case TraceFormat::Philly:
                break;
        }
        return parsePhillyTrace(text, path.string());
    }

    /// A file this scenario names at `fileNode`: what keeps it from being read is reported there.
    std::string readNamedFile(const std::filesystem::path& path, const JsonNode& fileNode) const {
        return readTextFile(path, FileNamedBy{file, fileNode.pointer()});
    }

    /// A trace or node list file: an absolute path as it is; a relative one in the
    /// scenario's folder, then the data folders.
    std::filesystem::path findDataFile(const std::string& file, const JsonNode& fileNode,
                                       const char* what) const {
        namespace fs = std::filesystem;
        std::vector<fs::path> candidates;
        const fs::path given(file);
        if (given.is_absolute()) {
            candidates.push_back(given);
        } else {
            if (!baseDir.empty()) candidates.push_back(baseDir / given);
            for (const fs::path& d : options.dataDirs)
                candidates.push_back(d / given);
        }
        std::string looked;
        for (const fs::path& c : candidates) {
            // Anything at the path is the trace, to be read or refused with what it is (a
            // folder, a FIFO, a dangling link); only a path with nothing there is looked past.
            std::error_code ec;
            if (fs::exists(fs::symlink_status(c, ec))) return c;
            looked += (looked.empty() ? "" : ", ") + detail::escapedForMessage(c.string(), 400);
        }
        fileNode.fail(
            std::string(what) + " \"" + detail::escapedForMessage(file, 400) +
            "\" not found (looked in: " + (looked.empty() ? std::string("nowhere") : looked) +
            "); set GPUPLAN_DATA_DIR or pass --data-dir to the folder holding it");
    }

    void nodeEvents(JsonObject& root) {
        auto node = root.optional("nodeEvents");
        if (!node) return;
        for (const JsonNode& item : node->array(1'000'000)) {
            JsonObject o = item.object();
            NodeEventDef e;
            e.timeS = o.required("timeS").number(0, kMaxTimeS);
            JsonNode target = o.required("node");
            e.node = target.name();
            nodeEventRefs.push_back({target.pointer(), e.node});
            e.state = nodeState(o.required("state"), true);
            o.finish();
            s.nodeEvents.push_back(std::move(e));
        }
    }

    // ---- references ---------------------------------------------------------------------

    /// Every GPU model an openb pod list allows must be a model of the fleet: a pod list
    /// meant for another fleet would otherwise pend for reasons nobody could see.
    void openbTraceModels() const {
        for (std::size_t i = 0; i < s.traces.size(); ++i) {
            const TraceDef& t = s.traces[i];
            if (!t.data || t.format != TraceFormat::Openb) continue;
            for (std::size_t m = 0; m < t.data->gpuModels.size(); ++m)
                if (!s.findGpu(t.data->gpuModels[m]))
                    fail("/traces/" + std::to_string(i) + "/file",
                         t.data->resolvedPath + ": pod " + t.data->gpuModelFirstPod[m] +
                             " allows GPU model \"" + t.data->gpuModels[m] +
                             "\" (gpu_spec), which no node of the fleet has");
        }
    }

    /// Every GPU type a sacct trace's jobs ask must be one catalog model (by "gpuTypes", then
    /// gpuModelNamedBy's rule). A model no node has joins the scenario's models: such jobs pend
    /// on the reservation layer, as a job asking that model would.
    void sacctTraceModels() {
        for (std::size_t i = 0; i < s.traces.size(); ++i) {
            const TraceDef& t = s.traces[i];
            if (!t.data || t.format != TraceFormat::Sacct) continue;
            const std::vector<std::string> models = sacctTypeModels(t, catalog.gpuModels);
            for (std::size_t m = 0; m < models.size(); ++m) {
                if (models[m].empty()) {
                    const std::string& type = t.data->gpuModels[m];
                    std::string maybe;
                    for (const std::string& id : slurmGpuTypeCandidates(type, catalog))
                        maybe += (maybe.empty() ? "" : ", ") + id;
                    fail("/traces/" + std::to_string(i) + "/file",
                         t.data->resolvedPath + ": " + t.data->gpuModelFirstPod[m] +
                             ": GPU type \"" + type + "\" (ReqTRES) " +
                             (maybe.empty()
                                  ? "matches no catalog GPU model"
                                  : "is not one catalog GPU model (it could be " + maybe + ")") +
                             "; name it in \"gpuTypes\", e.g. {\"" + type + "\": \"MODEL\"}");
                }
                if (!s.findGpu(models[m])) s.gpuModels.push_back(*catalog.findGpu(models[m]));
            }
        }
    }

    void resolve() {
        for (const auto& [pointer, team] : teamRefs) {
            // Captured by name: clang 14 cannot capture a structured binding.
            const bool known =
                std::any_of(s.teams.begin(), s.teams.end(),
                            [&name = team](const TeamDef& t) { return t.name == name; });
            if (!known) fail(pointer, "unknown team \"" + team + "\" (add it to \"teams\")");
        }
        for (const auto& [pointer, id] : gpuModelRefs) {
            if (s.findGpu(id)) continue;  // a node has it (a node list's models are not listed)
            const GpuModel* g = catalog.findGpu(id);
            if (!g) fail(pointer, "unknown GPU model \"" + id + "\" (not in the catalog)");
            // A model no node has is allowed: such a job pends on the reservation layer.
            if (!s.findGpu(id)) s.gpuModels.push_back(*g);
        }
        sacctTraceModels();
        Fleet fleet;
        try {
            fleet = Fleet::build(s);
        } catch (const std::invalid_argument& e) {
            fail("/topology", e.what());
        }
        openbTraceModels();
        // What the built fleet makes of the failures, spot, the buying mix and the prices.
        if (const auto problem = detail::fleetProblem(s, fleet))
            fail(problem->pointer, problem->message);
        for (const auto& [pointer, pin] : pinRefs) {
            const bool found = (pin.level == PinLevel::Node && fleet.findNode(pin.target)) ||
                               (pin.level == PinLevel::Rack && fleet.findRack(pin.target)) ||
                               (pin.level == PinLevel::Pod && fleet.findPod(pin.target));
            if (!found)
                fail(pointer, std::string("no ") + toString(pin.level) + " named \"" + pin.target +
                                  "\" in the topology");
        }
        if (const auto problem = detail::pinProblem(s, fleet))
            fail(problem->pointer, problem->message);
        // An explicit job may not take a name the generated jobs use ("<class>-<n>"): the UI
        // and exports tell jobs apart by name.
        for (std::size_t i = 0; i < s.jobs.size(); ++i) {
            const std::string& name = s.jobs[i].name;
            const auto dash = name.rfind('-');
            if (dash == std::string::npos || dash + 1 == name.size() ||
                name.find_first_not_of("0123456789", dash + 1) != std::string::npos)
                continue;
            const std::string stem = name.substr(0, dash);
            bool generated = false;
            for (const TraceDef& t : s.traces)
                generated = generated || stem == toString(t.format);
            for (const JobClassDef& c : s.jobClasses)
                generated = generated || c.name == stem;
            if (generated)
                fail("/jobs/" + std::to_string(i) + "/name",
                     "\"" + name + "\" is a name the scenario's generated jobs use; pick another");
        }
        long long eventNodes = 0;
        for (const auto& [pointer, name] : nodeEventRefs) {
            if (fleet.findNode(name))
                eventNodes += 1;
            else if (auto r = fleet.findRack(name))
                eventNodes += fleet.racks[*r].nodeCount;
            else if (auto p = fleet.findPod(name))
                eventNodes += fleet.pods[*p].nodeCount;
            else
                fail(pointer, "no node, rack or pod named \"" + name + "\" in the topology");
            if (eventNodes > InputLimits::maxNodeEventNodes)
                fail(pointer, "node events change more than " +
                                  std::to_string(InputLimits::maxNodeEventNodes) +
                                  " node states in all; use fewer or narrower events");
        }
        long long total = static_cast<long long>(s.jobs.size());
        for (const auto& [pointer, n] : classJobEstimates) {
            if (n > InputLimits::maxJobsPerClass)
                fail(pointer, "would submit about " + std::to_string(n) +
                                  " jobs in the horizon (limit " +
                                  std::to_string(InputLimits::maxJobsPerClass) +
                                  "); lower the rate or set maxJobs");
            total += n;
        }
        for (const TraceDef& t : s.traces)
            if (t.data)
                total += t.maxJobs > 0 ? std::min<long long>(t.maxJobs, t.data->jobs.size())
                                       : static_cast<long long>(t.data->jobs.size());
        if (total > InputLimits::maxJobs)
            fail("/", "would submit about " + std::to_string(total) + " jobs (limit " +
                          std::to_string(InputLimits::maxJobs) + ")");
        // Last: everything it reads is known valid by now.
        if (const std::string excess = budgetExcess(estimateRunCost(s, fleet), options.budget);
            !excess.empty())
            fail("/", excess);
    }

    void read(const detail::Json& doc) {
        JsonObject root = JsonNode(doc, "", file).object();
        JsonNode format = root.required("format");
        if (format.string(64) != "gpuplan-scenario") format.fail("expected \"gpuplan-scenario\"");
        JsonNode version = root.required("formatVersion");
        const long long v = version.integer(0, 1'000'000);
        if (v != kScenarioFormatVersion)
            version.fail("format version " + std::to_string(v) +
                         " is not supported (this build reads " +
                         std::to_string(kScenarioFormatVersion) + ")");
        if (auto n = root.optional("name")) s.name = n->prose(256);
        if (auto n = root.optional("description")) s.description = n->prose(16384);
        if (auto n = root.optional("seed")) s.seed = n->unsignedInteger();
        if (auto n = root.optional("horizonS")) s.horizonS = n->number(1, InputLimits::maxHorizonS);
        if (auto n = root.optional("sampleIntervalS")) {
            s.sampleIntervalS = n->number(1, InputLimits::maxHorizonS);
            if (s.horizonS / s.sampleIntervalS > InputLimits::maxSamples)
                n->fail("gives more than " + std::to_string(InputLimits::maxSamples) +
                        " samples over the horizon; use a longer interval");
        }
        if (auto n = root.optional("warmupS")) {
            s.warmupS = n->number(0, InputLimits::maxHorizonS);
            if (s.warmupS >= s.horizonS)
                n->fail("must be shorter than horizonS (" + detail::shortNumber(s.horizonS) +
                        " s): the KPIs measure what comes after it");
        }
        if (auto n = root.optional("replications"))
            s.replications = static_cast<int>(n->integer(1, Scenario::kMaxReplications));
        // Read before the job classes: their job-count estimates scale with it.
        if (auto n = root.optional("demandMultiplier")) {
            s.demandMultiplier = n->number(0, kMaxDemandMultiplier);
            if (s.demandMultiplier <= 0) n->fail("must be above 0 (1 = demand as given)");
        }
        if (auto n = root.optional("fabric")) {
            JsonObject f = n->object();
            if (auto v = f.optional("rackUplinkOversubscription"))
                s.fabric.rackUplinkOversubscription = v->number(1, 1000);
            if (auto v = f.optional("podUplinkOversubscription"))
                s.fabric.podUplinkOversubscription = v->number(1, 1000);
            if (auto v = f.optional("fallbackFabricGBpsPerGpu"))
                s.fabric.fallbackFabricGBpsPerGpu = v->number(0.001, 1e5);
            f.finish();
        }
        readPricing(root, s, catalog);  // before the topology: each node group needs a price
        definedNodeTypes(root);         // before the topology: its node groups may name them
        topology(root);
        if (auto n = root.optional("teams")) {
            for (const JsonNode& item : n->array(1000)) {
                JsonObject o = item.object();
                TeamDef t;
                JsonNode nameNode = o.required("name");
                t.name = nameNode.name();
                for (const TeamDef& other : s.teams)
                    if (other.name == t.name) nameNode.fail("duplicate team \"" + t.name + "\"");
                if (auto c = o.optional("color")) {
                    t.color = c->string(7);
                    const bool ok = t.color.size() == 7 && t.color[0] == '#' &&
                                    std::all_of(t.color.begin() + 1, t.color.end(), ::isxdigit);
                    if (!ok) c->fail("expected a colour like \"#1f77b4\"");
                }
                o.finish();
                s.teams.push_back(std::move(t));
            }
        }
        readScheduler(root, s.scheduler);
        readQuotas(root, s);
        jobClasses(root);
        jobs(root);
        traces(root);
        nodeEvents(root);
        readFailures(root, s);
        readSpot(root, s);
        readBuying(root, s);
        root.finish();
        resolve();
    }
};

}  // namespace

Scenario parseScenario(std::string_view text, const std::string& sourceName, const Catalog& catalog,
                       const LoadOptions& options, const std::filesystem::path& baseDir) {
    const detail::Json doc = detail::parseStrict(text, sourceName);
    Reader reader{catalog, sourceName, options, baseDir, {}, {}, {}, {}, {}, {}, {}};
    reader.read(doc);
    return std::move(reader.s);
}

Scenario loadScenario(const std::filesystem::path& file, const Catalog& catalog,
                      const LoadOptions& options) {
    return parseScenario(readTextFile(file), file.string(), catalog, options, folderOf(file));
}

void validateScenario(const Scenario& scenario, const Catalog& catalog, const RunBudget& budget) {
    LoadOptions options;
    options.loadTraces = false;
    options.budget = budget;
    if (scenario.nodeList) options.preloadedNodeList = scenario.nodeList->data;
    parseScenario(scenarioToJson(scenario), scenario.name.empty() ? "scenario" : scenario.name,
                  catalog, options);
}

}  // namespace gpuplan
