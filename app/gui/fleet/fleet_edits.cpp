#include "fleet_edits.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "gpuplan/core/time_format.hpp"
#include "gpuplan/model/topology.hpp"

namespace gpuplan::app {

namespace {

/// Where a generated pod, rack or node comes from: definition and copy index per level (pod,
/// rack, node group); −1 below the entity's own level.
struct Address {
    std::array<int, 3> def{-1, -1, -1};
    std::array<int, 3> copy{-1, -1, -1};
    auto operator<=>(const Address&) const = default;
};
/// Where an entity of the scenario before an edit is after it; nullopt when the edit removes it.
using AddressMap = std::function<std::optional<Address>(Address)>;

struct NamedEntity {
    std::string name;
    Address address;
};

/// Every generated name with its address. Names come from Fleet::build, which lists pods,
/// racks and nodes in definition order, so the naming rule stays in topology.cpp.
std::vector<NamedEntity> namedEntities(const Scenario& s, const Fleet& fleet) {
    std::vector<NamedEntity> out;
    std::size_t pod = 0, rack = 0, node = 0;
    for (int pd = 0; pd < static_cast<int>(s.pods.size()); ++pd)
        for (int pc = 0; pc < s.pods[pd].count; ++pc) {
            Address a;
            a.def[0] = pd;
            a.copy[0] = pc;
            out.push_back({fleet.pods[pod++].name, a});
            const auto& racks = s.pods[pd].racks;
            for (int rd = 0; rd < static_cast<int>(racks.size()); ++rd)
                for (int rc = 0; rc < racks[rd].count; ++rc) {
                    Address ra = a;
                    ra.def[1] = rd;
                    ra.copy[1] = rc;
                    out.push_back({fleet.racks[rack++].name, ra});
                    const auto& groups = racks[rd].nodes;
                    for (int gd = 0; gd < static_cast<int>(groups.size()); ++gd)
                        for (int gc = 0; gc < groups[gd].count; ++gc) {
                            Address na = ra;
                            na.def[2] = gd;
                            na.copy[2] = gc;
                            out.push_back({fleet.nodes[node++].name, na});
                        }
                }
        }
    return out;
}

FleetEdit refuse(std::string reason) {
    return FleetEdit{std::nullopt, std::move(reason), {}};
}

// accept and finish take `after` by rvalue reference, not by value: callers read `after` in the
// label argument, and a by-value parameter may be moved into before that argument is evaluated
// (clang evaluates arguments left to right).
FleetEdit accept(Scenario&& after, std::string label) {
    return FleetEdit{std::move(after), {}, std::move(label)};
}

std::string inQuotes(const std::string& s) {
    return "\"" + s + "\"";
}

int defAt(const FleetDefPath& p, int level) {
    return level == 0 ? p.pod : level == 1 ? p.rack : p.group;
}

/// Whether `a` is at or below `level` inside the definitions `p` names above that level.
bool inside(const Address& a, const FleetDefPath& p, int level) {
    if (a.def[level] < 0) return false;
    for (int l = 0; l < level; ++l)
        if (a.def[l] != defAt(p, l)) return false;
    return true;
}

AddressMap unchanged() {
    return [](Address a) { return std::optional<Address>(a); };
}

AddressMap removedDef(FleetDefPath p) {
    const int level = p.level(), d = defAt(p, level);
    return [=](Address a) -> std::optional<Address> {
        if (!inside(a, p, level)) return a;
        if (a.def[level] == d) return std::nullopt;
        if (a.def[level] > d) --a.def[level];
        return a;
    };
}

/// `n` definitions inserted at `p`: the ones from there on move up.
AddressMap insertedDefs(FleetDefPath p, int n) {
    const int level = p.level(), d = defAt(p, level);
    return [=](Address a) -> std::optional<Address> {
        if (inside(a, p, level) && a.def[level] >= d) a.def[level] += n;
        return a;
    };
}

AddressMap keptCopies(FleetDefPath p, int count) {
    const int level = p.level(), d = defAt(p, level);
    return [=](Address a) -> std::optional<Address> {
        if (inside(a, p, level) && a.def[level] == d && a.copy[level] >= count) return std::nullopt;
        return a;
    };
}

/// Calls fn(definitions, index) on the list holding the definition at `p`.
template <class Fn>
decltype(auto) withSiblings(Scenario& s, const FleetDefPath& p, Fn&& fn) {
    switch (p.level()) {
        case 0:
            return fn(s.pods, p.pod);
        case 1:
            return fn(s.pods[p.pod].racks, p.rack);
        default:
            return fn(s.pods[p.pod].racks[p.rack].nodes, p.group);
    }
}

bool exists(const Scenario& s, const FleetDefPath& p) {
    if (p.pod < 0 || p.pod >= static_cast<int>(s.pods.size())) return false;
    const auto& racks = s.pods[p.pod].racks;
    if (p.rack < 0) return p.group < 0;
    if (p.rack >= static_cast<int>(racks.size())) return false;
    return p.group < 0 || p.group < static_cast<int>(racks[p.rack].nodes.size());
}

const char* levelName(int level) {
    return level == 0 ? "pod" : level == 1 ? "rack" : "node group";
}

std::string defName(Scenario& s, const FleetDefPath& p) {
    return withSiblings(s, p, [](auto& defs, int i) { return defs[i].name; });
}

/// Generated copies of all definitions beside `p` (the first fresh number worth trying).
int siblingCopies(Scenario& s, const FleetDefPath& p) {
    return withSiblings(s, p, [](auto& defs, int) {
        int n = 0;
        for (const auto& d : defs)
            n += d.count;
        return n;
    });
}

/// "rack3" → "rack": the stem fresh numbers go on.
std::string stemOf(const std::string& name) {
    const auto end = name.find_last_not_of("0123456789");
    return end == std::string::npos ? name : name.substr(0, end + 1);
}

/// Names the definition at `p` "<stem><n>" with the smallest n ≥ `from` whose generated names
/// collide with none in the fleet (Fleet::build is the judge of collisions). Returns why not:
/// the fleet is too big to build (checked first, so nothing huge is ever built), or no n
/// below from + 1000 is free.
std::string nameFreshly(Scenario& s, const FleetDefPath& p, const std::string& stem, int from) {
    if (std::string tooBig = checkFleetSize(s).refusal; !tooBig.empty()) return tooBig;
    for (int n = from; n < from + 1000; ++n) {
        withSiblings(s, p, [&](auto& defs, int i) { defs[i].name = stem + std::to_string(n); });
        try {
            Fleet::build(s);
            return {};
        } catch (const std::invalid_argument&) {
        }
    }
    return std::string("no free ") + levelName(p.level()) + " name";
}

/// The edit's scenario with every pin and node event carried to where `map` moves its target.
/// A pin whose target goes away refuses the edit; node events on it go with it.
FleetEdit finish(const Scenario& before, Scenario&& after, const AddressMap& map,
                 std::string label) {
    // Counted before anything is built: a count of 100000 must not allocate millions of nodes.
    if (std::string tooBig = checkFleetSize(after).refusal; !tooBig.empty()) return refuse(tooBig);
    Fleet beforeFleet, afterFleet;
    try {
        beforeFleet = Fleet::build(before);
        afterFleet = Fleet::build(after);
    } catch (const std::invalid_argument& e) {
        return refuse(std::string("the fleet's names would collide: ") + e.what());
    }
    std::unordered_map<std::string, Address> oldAddress;
    for (auto& e : namedEntities(before, beforeFleet))
        oldAddress.emplace(e.name, e.address);
    std::map<Address, std::string> newName;
    for (auto& e : namedEntities(after, afterFleet))
        newName.emplace(e.address, e.name);

    auto carried = [&](const std::string& name) -> std::optional<std::string> {
        const auto from = oldAddress.find(name);
        if (from == oldAddress.end()) return name;  // not ours to move (validation judges it)
        const std::optional<Address> to = map(from->second);
        if (!to) return std::nullopt;
        const auto it = newName.find(*to);
        return it == newName.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    std::string error;
    auto carryPin = [&](PinDef& pin, const std::string& who) {
        if (pin.level == PinLevel::None || !error.empty()) return;
        if (auto to = carried(pin.target))
            pin.target = *to;
        else
            error = who + " is pinned to " + toString(pin.level) + " " + inQuotes(pin.target) +
                    ", which this edit removes; unpin or move it first";
    };
    for (JobClassDef& c : after.jobClasses)
        carryPin(c.traits.pin, "job class " + inQuotes(c.name));
    for (JobDef& j : after.jobs)
        carryPin(j.traits.pin, "job " + inQuotes(j.name));
    for (TraceDef& t : after.traces)
        carryPin(t.traits.pin, "trace " + inQuotes(t.file));
    if (!error.empty()) return refuse(error);

    std::vector<NodeEventDef> events;
    int dropped = 0;
    for (NodeEventDef e : after.nodeEvents) {
        if (auto to = carried(e.node)) {
            e.node = *to;
            events.push_back(std::move(e));
        } else {
            ++dropped;
        }
    }
    after.nodeEvents = std::move(events);
    if (dropped > 0)
        label += " and " + std::to_string(dropped) +
                 (dropped == 1 ? " node event on it" : " node events on it");
    return accept(std::move(after), std::move(label));
}

/// Splits the definition holding copy `a.copy[level]` so that copy is a definition of its own
/// with count 1, and points `a` at it. Every generated name stays the same: copies before it
/// keep "<name>" with their count (or become "<name>0"), it and later ones become "<name><i>".
void isolate(Scenario& s, Address& a, int level) {
    FleetDefPath p{a.def[0], level >= 1 ? a.def[1] : -1, level >= 2 ? a.def[2] : -1};
    withSiblings(s, p, [&](auto& defs, int d) {
        auto def = defs[d];
        const int count = def.count, k = a.copy[level];
        if (count == 1) return;
        std::vector<std::decay_t<decltype(def)>> parts;
        if (k >= 2) {
            parts.push_back(def);
            parts.back().count = k;
        } else if (k == 1) {
            parts.push_back(def);
            parts.back().count = 1;
            parts.back().name = indexedName(def.name, count, 0);
        }
        for (int i = k; i < count; ++i) {
            parts.push_back(def);
            parts.back().count = 1;
            parts.back().name = indexedName(def.name, count, i);
        }
        defs.erase(defs.begin() + d);
        defs.insert(defs.begin() + d, parts.begin(), parts.end());
        a.def[level] = d + (k > 0 ? 1 : 0);
        a.copy[level] = 0;
    });
}

/// Hardware is resolved from the catalog when a file is read; an edit does the same, so the
/// scenario holds what the reader would give it: the node types its node groups use and their
/// GPU models, in order of first use, then GPU models only jobs ask for. A type no group uses
/// any more goes, so switching A → B → A gives back the scenario it started from. `added` is
/// a type (and its model) just taken from the catalog.
void keepUsedHardware(Scenario& s, const NodeType& added, const GpuModel& addedModel) {
    std::vector<NodeType> types;
    std::vector<GpuModel> models;
    auto has = [](const auto& items, const std::string& id) {
        return std::any_of(items.begin(), items.end(), [&](const auto& i) { return i.id == id; });
    };
    for (const PodDef& pod : s.pods)
        for (const RackDef& rack : pod.racks)
            for (const NodeGroupDef& g : rack.nodes) {
                if (has(types, g.nodeType)) continue;
                const NodeType* type = g.nodeType == added.id ? &added : s.findNodeType(g.nodeType);
                if (type) types.push_back(*type);  // unknown ones: validation names them
            }
    for (const NodeType& type : types) {
        if (has(models, type.gpuModel)) continue;
        const GpuModel* model =
            type.gpuModel == addedModel.id ? &addedModel : s.findGpu(type.gpuModel);
        if (model) models.push_back(*model);
    }
    std::set<std::string> asked;
    auto ask = [&](const JobTraitsDef& t) {
        if (t.gpuModel) asked.insert(*t.gpuModel);
    };
    for (const JobClassDef& c : s.jobClasses)
        ask(c.traits);
    for (const JobDef& j : s.jobs)
        ask(j.traits);
    for (const TraceDef& t : s.traces)
        ask(t.traits);
    for (const GpuModel& m : s.gpuModels)
        if (asked.count(m.id) && !has(models, m.id)) models.push_back(m);
    s.nodeTypes = std::move(types);
    s.gpuModels = std::move(models);
}

/// The address of a generated pod, rack or node named `name` (of the kind `level` says).
std::optional<Address> locate(const Scenario& s, const std::string& name, int level) {
    Fleet fleet;
    try {
        fleet = Fleet::build(s);  // refuses a fleet past InputLimits before building any of it
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
    for (const NamedEntity& e : namedEntities(s, fleet)) {
        if (e.name != name) continue;
        const int entityLevel = e.address.def[2] >= 0 ? 2 : e.address.def[1] >= 0 ? 1 : 0;
        if (level < 0 || entityLevel == level) return e.address;
    }
    return std::nullopt;
}

/// A fleet read from a node list has no pods, racks or node groups to edit: its nodes are
/// the file's. Node events (cordon, fail, repair) still apply to them.
std::optional<FleetEdit> nodeListRefusal(const Scenario& s) {
    if (!s.nodeList) return std::nullopt;
    return refuse("this fleet is the node list " + inQuotes(s.nodeList->file) +
                  ": its nodes come from that file and are not added or removed here "
                  "(cordon, fail and repair still work)");
}

}  // namespace

// ---- definitions ------------------------------------------------------------------------

FleetEdit addPod(const Scenario& s) {
    if (auto refusal = nodeListRefusal(s)) return *refusal;
    if (s.pods.empty()) return refuse("the fleet has no pod to copy a rack from");
    Scenario after = s;
    PodDef pod;
    pod.racks = {s.pods.back().racks.front()};
    pod.racks.front().count = 1;
    after.pods.push_back(pod);
    const FleetDefPath p{static_cast<int>(after.pods.size()) - 1};
    if (std::string why = nameFreshly(after, p, "pod", siblingCopies(after, p) - 1); !why.empty())
        return refuse(why);
    return accept(std::move(after), "Add pod " + inQuotes(defName(after, p)));
}

FleetEdit addRack(const Scenario& s, int pod) {
    if (!exists(s, {pod})) return refuse("no such pod");
    Scenario after = s;
    auto& racks = after.pods[pod].racks;
    RackDef rack = racks.back();
    rack.count = 1;
    racks.push_back(rack);
    const FleetDefPath p{pod, static_cast<int>(racks.size()) - 1};
    if (std::string why = nameFreshly(after, p, stemOf(rack.name), siblingCopies(after, p) - 1);
        !why.empty())
        return refuse(why);
    return accept(std::move(after), "Add rack " + inQuotes(defName(after, p)));
}

FleetEdit addNodeGroup(const Scenario& s, int pod, int rack) {
    if (!exists(s, {pod, rack})) return refuse("no such rack");
    Scenario after = s;
    auto& groups = after.pods[pod].racks[rack].nodes;
    groups.push_back(groups.back());
    const FleetDefPath p{pod, rack, static_cast<int>(groups.size()) - 1};
    if (std::string why =
            nameFreshly(after, p, stemOf(groups.back().name), static_cast<int>(groups.size()));
        !why.empty())
        return refuse(why);
    return accept(std::move(after), "Add node group " + inQuotes(defName(after, p)));
}

FleetEdit duplicateDef(const Scenario& s, FleetDefPath p) {
    if (!exists(s, p)) return refuse("nothing to duplicate there");
    Scenario after = s;
    FleetDefPath copy = p;
    const std::string name = defName(after, p);
    withSiblings(after, p, [&](auto& defs, int i) {
        auto def = defs[i];
        defs.insert(defs.begin() + i + 1, def);
    });
    (p.level() == 0 ? copy.pod : p.level() == 1 ? copy.rack : copy.group) += 1;
    if (std::string why = nameFreshly(after, copy, stemOf(name), siblingCopies(after, copy) - 1);
        !why.empty())
        return refuse(why);
    return finish(s, std::move(after), insertedDefs(copy, 1),
                  std::string("Duplicate ") + levelName(p.level()) + " " + inQuotes(name));
}

FleetEdit removeDef(const Scenario& s, FleetDefPath p) {
    if (!exists(s, p)) return refuse("nothing to remove there");
    Scenario after = s;
    const std::string name = defName(after, p);
    const bool last = withSiblings(after, p, [](auto& defs, int) { return defs.size() == 1; });
    if (last) {
        static const char* const why[] = {"the fleet needs at least one pod",
                                          "a pod needs at least one rack; remove the pod instead",
                                          "a rack needs at least one node group; remove the "
                                          "rack instead"};
        return refuse(why[p.level()]);
    }
    withSiblings(after, p, [](auto& defs, int i) { defs.erase(defs.begin() + i); });
    return finish(s, std::move(after), removedDef(p),
                  std::string("Remove ") + levelName(p.level()) + " " + inQuotes(name));
}

FleetEdit setCount(const Scenario& s, FleetDefPath p, int count) {
    if (!exists(s, p)) return refuse("no such definition");
    if (count < 1)
        return refuse(std::string("count must be at least 1 (to drop the ") + levelName(p.level()) +
                      ", remove it)");
    Scenario after = s;
    withSiblings(after, p, [&](auto& defs, int i) { defs[i].count = count; });
    return finish(s, std::move(after), keptCopies(p, count),
                  std::string("Set ") + levelName(p.level()) + " " + inQuotes(defName(after, p)) +
                      " count to " + std::to_string(count));
}

FleetEdit renameDef(const Scenario& s, FleetDefPath p, const std::string& name) {
    if (!exists(s, p)) return refuse("no such definition");
    if (name.empty()) return refuse("a name must not be empty");
    Scenario after = s;
    const std::string old = defName(after, p);
    withSiblings(after, p, [&](auto& defs, int i) { defs[i].name = name; });
    return finish(s, std::move(after), unchanged(),
                  std::string("Rename ") + levelName(p.level()) + " " + inQuotes(old) + " to " +
                      inQuotes(name));
}

FleetEdit setNodeType(const Scenario& s, FleetDefPath p, const std::string& nodeTypeId,
                      const Catalog& catalog) {
    if (p.level() != 2 || !exists(s, p)) return refuse("node types belong to node groups");
    const NodeType* type = catalog.findNodeType(nodeTypeId);
    for (const NodeType& own : s.definedNodeTypes)  // an imported fleet's own types
        if (own.id == nodeTypeId) type = &own;
    if (!type)
        return refuse("unknown node type " + inQuotes(nodeTypeId) +
                      " (not in the catalog nor the scenario's own)");
    const GpuModel* model = catalog.findGpu(type->gpuModel);
    if (!model) return refuse("the catalog lacks GPU model " + inQuotes(type->gpuModel));
    Scenario after = s;
    after.pods[p.pod].racks[p.rack].nodes[p.group].nodeType = nodeTypeId;
    keepUsedHardware(after, *type, *model);
    return accept(std::move(after),
                  "Set node type of " + inQuotes(defName(after, p)) + " to " + nodeTypeId);
}

FleetEdit setBuyingClass(const Scenario& s, FleetDefPath p, BuyingClass buyingClass) {
    if (p.level() != 2 || !exists(s, p)) return refuse("buying classes belong to node groups");
    Scenario after = s;
    after.pods[p.pod].racks[p.rack].nodes[p.group].buyingClass = buyingClass;
    return accept(std::move(after), "Set buying class of " + inQuotes(defName(after, p)) + " to " +
                                        toString(buyingClass));
}

FleetEdit setReadyAt(const Scenario& s, FleetDefPath p, double readyAtS) {
    if (p.level() != 2 || !exists(s, p)) return refuse("delivery times belong to node groups");
    if (!(readyAtS >= 0)) return refuse("a delivery time must not be negative");
    const NodeState now = s.pods[p.pod].racks[p.rack].nodes[p.group].state;
    if (readyAtS > 0 && (now == NodeState::Cordoned || now == NodeState::Failed))
        return refuse(std::string("the group starts ") + toString(now) +
                      "; set its State to ready before giving it a delivery time");
    Scenario after = s;
    NodeGroupDef& g = after.pods[p.pod].racks[p.rack].nodes[p.group];
    g.readyAtS = readyAtS;
    if (readyAtS > 0)
        g.state = NodeState::Provisioning;
    else if (g.state == NodeState::Provisioning)
        g.state = NodeState::Ready;
    return accept(std::move(after),
                  readyAtS > 0 ? "Deliver " + inQuotes(g.name) + " at " + formatSimTime(readyAtS)
                               : "Deliver " + inQuotes(g.name) + " from the start");
}

FleetEdit setGroupState(const Scenario& s, FleetDefPath p, NodeState state) {
    if (p.level() != 2 || !exists(s, p)) return refuse("a state belongs to a node group");
    if (state != NodeState::Ready && state != NodeState::Cordoned && state != NodeState::Failed)
        return refuse(
            "a node group starts ready, cordoned or failed; set a delivery time to make it "
            "provisioning");
    // A delivery and a state are two edits, each named, not one dropping the other.
    if (s.pods[p.pod].racks[p.rack].nodes[p.group].state == NodeState::Provisioning)
        return refuse("the group is being delivered; set its Ready at to 0 (from the start) first");
    Scenario after = s;
    NodeGroupDef& g = after.pods[p.pod].racks[p.rack].nodes[p.group];
    g.state = state;
    return accept(std::move(after), "Start " + inQuotes(g.name) + " " + toString(state));
}

FleetEdit setUplinkOversubscription(const Scenario& s, bool rack, double ratio) {
    // The reader's range: 1 (full bisection) to 1000.
    if (!(ratio >= 1 && ratio <= 1000))
        return refuse("an oversubscription is 1:1 (full bisection) to 1000:1");
    Scenario after = s;
    (rack ? after.fabric.rackUplinkOversubscription : after.fabric.podUplinkOversubscription) =
        ratio;
    char text[32];
    std::snprintf(text, sizeof text, "%g:1", ratio);
    return accept(std::move(after),
                  std::string(rack ? "Rack" : "Pod") + " uplinks oversubscribed " + text);
}

// ---- generated pods, racks and nodes ----------------------------------------------------

FleetEdit duplicateRack(const Scenario& s, const std::string& rackName, int copies) {
    if (auto refusal = nodeListRefusal(s)) return *refusal;
    if (copies < 1) return refuse("nothing to add");
    std::optional<Address> a = locate(s, rackName, 1);
    if (!a) return refuse("no rack named " + inQuotes(rackName));
    Scenario work = s;
    isolate(work, *a, 0);
    const FleetDefPath rackPath{a->def[0], a->def[1]};
    const RackDef def = work.pods[rackPath.pod].racks[rackPath.rack];
    const std::string label = copies == 1
                                  ? "Duplicate rack " + rackName
                                  : "Add " + std::to_string(copies) + " racks like " + rackName;
    // One of several identical copies: more of them, when the new names are free.
    if (def.count > 1) {
        Scenario grown = work;
        grown.pods[rackPath.pod].racks[rackPath.rack].count += copies;
        FleetEdit edit = finish(work, std::move(grown), unchanged(), label);
        if (edit.ok()) return edit;
    }
    Scenario after = work;
    auto& racks = after.pods[rackPath.pod].racks;
    for (int i = 0; i < copies; ++i) {
        RackDef copy = def;
        copy.count = 1;
        racks.insert(racks.begin() + rackPath.rack + 1 + i, copy);
        const FleetDefPath p{rackPath.pod, rackPath.rack + 1 + i};
        if (std::string why = nameFreshly(after, p, stemOf(def.name), siblingCopies(after, p) - 1);
            !why.empty())
            return refuse(why);
    }
    return finish(work, std::move(after), insertedDefs({rackPath.pod, rackPath.rack + 1}, copies),
                  label);
}

FleetEdit removeRack(const Scenario& s, const std::string& rackName) {
    if (auto refusal = nodeListRefusal(s)) return *refusal;
    std::optional<Address> a = locate(s, rackName, 1);
    if (!a) return refuse("no rack named " + inQuotes(rackName));
    Scenario work = s;
    isolate(work, *a, 0);
    isolate(work, *a, 1);
    const FleetDefPath p{a->def[0], a->def[1]};
    if (work.pods[p.pod].racks.size() == 1)
        return refuse("rack " + inQuotes(rackName) +
                      " is its pod's only rack; remove the pod in the Fleet panel instead");
    Scenario after = work;
    after.pods[p.pod].racks.erase(after.pods[p.pod].racks.begin() + p.rack);
    return finish(work, std::move(after), removedDef(p), "Remove rack " + rackName);
}

FleetEdit removeNode(const Scenario& s, const std::string& nodeName) {
    if (auto refusal = nodeListRefusal(s)) return *refusal;
    std::optional<Address> a = locate(s, nodeName, 2);
    if (!a) return refuse("no node named " + inQuotes(nodeName));
    Scenario work = s;
    for (int level = 0; level < 3; ++level)
        isolate(work, *a, level);
    const FleetDefPath p{a->def[0], a->def[1], a->def[2]};
    auto& groups = work.pods[p.pod].racks[p.rack].nodes;
    if (groups.size() == 1)
        return refuse("node " + inQuotes(nodeName) + " is its rack's only node; remove the rack");
    Scenario after = work;
    auto& afterGroups = after.pods[p.pod].racks[p.rack].nodes;
    afterGroups.erase(afterGroups.begin() + p.group);
    return finish(work, std::move(after), removedDef(p), "Remove node " + nodeName);
}

FleetEdit addNodeEvent(const Scenario& s, const std::string& target, double timeS,
                       NodeState state) {
    bool known = locate(s, target, -1).has_value();
    if (s.nodeList && s.nodeList->data) {  // no definitions to locate: the built fleet's names
        const Fleet f = Fleet::build(s);
        known = f.findNode(target) || f.findRack(target) || f.findPod(target);
    }
    if (!known) return refuse("no node, rack or pod named " + inQuotes(target));
    if (!(timeS >= 0)) return refuse("an event's time must not be negative");
    Scenario after = s;
    after.nodeEvents.push_back(NodeEventDef{timeS, target, state});
    const char* verb = state == NodeState::Cordoned    ? "Cordon "
                       : state == NodeState::Failed    ? "Fail "
                       : state == NodeState::Ready     ? "Repair "
                       : state == NodeState::Draining  ? "Drain "
                       : state == NodeState::Repairing ? "Take down for repair "
                                                       : "Unprovision ";
    return accept(std::move(after), verb + target + " from " + formatSimTime(timeS));
}

FleetEdit addDelivery(const Scenario& s, const std::string& podName, double readyAtS) {
    if (auto refusal = nodeListRefusal(s)) return *refusal;
    if (!(readyAtS > 0))
        return refuse("a delivery arrives after t = 0; move the time scrubber to its date first");
    std::optional<Address> a;
    if (podName.empty()) {
        Address last;
        last.def[0] = static_cast<int>(s.pods.size()) - 1;
        last.copy[0] = s.pods.back().count - 1;
        a = last;
    } else {
        a = locate(s, podName, 0);
    }
    if (!a) return refuse("no pod named " + inQuotes(podName));
    Scenario after = s;
    isolate(after, *a, 0);
    auto& racks = after.pods[a->def[0]].racks;
    RackDef delivery = racks.front();
    delivery.count = 1;
    delivery.nodes.resize(1);
    delivery.nodes.front().state = NodeState::Provisioning;
    delivery.nodes.front().readyAtS = readyAtS;
    racks.push_back(delivery);
    const FleetDefPath p{a->def[0], static_cast<int>(racks.size()) - 1};
    if (std::string why = nameFreshly(after, p, "delivery", 1); !why.empty()) return refuse(why);
    return accept(std::move(after),
                  "Deliver rack " + defName(after, p) + " at " + formatSimTime(readyAtS));
}

namespace {
/// The node groups under the definitions `a` names down to `level` (its entity's level).
std::vector<FleetDefPath> groupsAt(const Scenario& s, const Address& a) {
    const int level = a.def[2] >= 0 ? 2 : a.def[1] >= 0 ? 1 : 0;
    std::vector<FleetDefPath> out;
    const auto& racks = s.pods[a.def[0]].racks;
    for (int r = 0; r < static_cast<int>(racks.size()); ++r) {
        if (level >= 1 && r != a.def[1]) continue;
        for (int g = 0; g < static_cast<int>(racks[r].nodes.size()); ++g)
            if (level < 2 || g == a.def[2]) out.push_back({a.def[0], r, g});
    }
    return out;
}
}  // namespace

std::vector<FleetDefPath> groupsOf(const Scenario& s, const std::string& name) {
    const std::optional<Address> a = locate(s, name, -1);
    return a ? groupsAt(s, *a) : std::vector<FleetDefPath>{};
}

std::optional<std::vector<FleetDefPath>> isolateGroups(Scenario& s, const std::string& name) {
    std::optional<Address> a = locate(s, name, -1);
    if (!a) return std::nullopt;
    const int level = a->def[2] >= 0 ? 2 : a->def[1] >= 0 ? 1 : 0;
    for (int l = 0; l <= level; ++l)
        isolate(s, *a, l);
    return groupsAt(s, *a);
}

}  // namespace gpuplan::app
