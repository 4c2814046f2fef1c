#include "kueue_manifests.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "io/text_rules.hpp"
#include "kube_quantity.hpp"

namespace gpuplan::detail {

void ImportNotes::add(const std::string& key, const std::string& text, const SourcePlace& at,
                      const std::string& detail) {
    auto it = std::find_if(m_notes.begin(), m_notes.end(),
                           [&key](const Note& n) { return n.key == key; });
    if (it == m_notes.end()) it = m_notes.insert(m_notes.end(), Note{key, text, at, 0, {}});
    ++it->count;
    if (!detail.empty() && it->details.size() < 10 &&
        std::find(it->details.begin(), it->details.end(), detail) == it->details.end())
        it->details.push_back(detail);
}

std::vector<std::string> ImportNotes::lines() const {
    std::vector<std::string> out;
    for (const Note& n : m_notes) {
        std::string line = n.text;
        if (!n.details.empty()) {
            line += " [";
            for (std::size_t i = 0; i < n.details.size(); ++i)
                line += (i ? ", " : "") + escapedForMessage(n.details[i], 80);
            line += "]";
        }
        line += " (" + withThousands(n.count) + (n.count == 1 ? " place: " : " places, first ") +
                n.first.file + ": " + n.first.lineText() + ")";
        // InputError's rule: a name from a manifest ("a\0b" in YAML quotes) never cuts a note.
        out.push_back(escapedForMessage(line, std::string_view::npos));
    }
    return out;
}

namespace {

constexpr std::string_view kGroup = "kueue.x-k8s.io";
constexpr std::string_view kGpuResource = "nvidia.com/gpu";

std::string inQuotes(std::string_view text) {
    return "\"" + escapedForMessage(text) + "\"";
}
/// GPUs a quota may name: the scenario reader's bound.
constexpr double kMaxQuotaGpus = 1e7;
/// A fair-sharing weight's bound: the scenario reader's.
constexpr double kMaxWeight = 1e6;
/// Quotas of other resources (CPU, memory, pods) are skipped, but read: at most 1E (10^18) of
/// their unit, the largest SI suffix, where Kubernetes still keeps a quantity as an int64.
constexpr double kMaxOtherQuota = 1e18;

/// What a quota of `resource` counts, for messages: Kubernetes' units.
std::string quotaUnit(std::string_view resource) {
    if (resource == kGpuResource) return "GPUs";
    if (resource == "cpu") return "cores";
    if (resource == "memory" || resource == "ephemeral-storage" ||
        resource.starts_with("hugepages-"))
        return "bytes";
    if (resource == "pods") return "pods";
    return "units of " + inQuotes(resource);
}

bool hasContent(const YamlNode& n) {
    switch (n.kind) {
        case YamlNode::Kind::Null:
            return false;
        case YamlNode::Kind::Scalar:
            return !n.text.empty();
        default:
            return !n.items.empty();
    }
}

class ManifestReader {
public:
    ManifestReader(const std::string& file, KueueManifests& into) : m_file(file), m_out(into) {}

    void document(const YamlNode& doc) {
        const YamlNode& kind = required(map(doc, "a Kubernetes object"), "kind");
        const std::string kindText = text(kind);
        if (kindText == "List" || (kindText.ends_with("List") && doc.find("items"))) {
            for (const YamlNode& item : list(required(doc, "items"), KueueLimits::maxObjects))
                object(item);
            return;
        }
        object(doc);
    }

private:
    [[noreturn]] void fail(const YamlNode& at, const std::string& message) const {
        throw InputError(m_file, "line " + std::to_string(at.placeLine()), message);
    }
    SourcePlace place(const YamlNode& n) const { return {m_file, n.placeLine()}; }
    void note(const std::string& key, const std::string& text, const YamlNode& at,
              const std::string& detail = {}) {
        m_out.notes.add(key, text, place(at), detail);
    }

    const YamlNode& map(const YamlNode& n, const char* what) const {
        if (n.kind != YamlNode::Kind::Map)
            fail(n, std::string("expected ") + what + " (a map of keys), got " + describe(n));
        return n;
    }
    /// How a message names a value: its key, or "a list item".
    static std::string label(const YamlNode& n) {
        return n.key.empty() ? "a list item" : "\"" + escapedForMessage(n.key) + "\"";
    }
    const std::vector<YamlNode>& list(const YamlNode& n, long long maxItems) const {
        if (n.kind != YamlNode::Kind::Sequence)
            fail(n, label(n) + " must be a list, got " + describe(n));
        if (static_cast<long long>(n.items.size()) > maxItems)
            fail(n, label(n) + " has more than " + withThousands(maxItems) + " items (" +
                        withThousands(static_cast<long long>(n.items.size())) + ")");
        return n.items;
    }
    std::string text(const YamlNode& n) const {
        if (n.kind != YamlNode::Kind::Scalar)
            fail(n, label(n) + " must be text, got " + describe(n));
        if (n.text.empty()) fail(n, label(n) + " is empty: give its value, or leave the key out");
        return n.text;
    }
    /// Text a field may leave unset: null or "" (Kubernetes' empty string) is nothing; a list
    /// or a map where text belongs is refused, never read as unset.
    std::optional<std::string> optionalText(const YamlNode& n) const {
        if (n.isNull() || (n.kind == YamlNode::Kind::Scalar && n.text.empty())) return std::nullopt;
        return text(n);
    }
    static std::string describe(const YamlNode& n) {
        switch (n.kind) {
            case YamlNode::Kind::Null:
                return "nothing";
            case YamlNode::Kind::Scalar:
                return "text " + inQuotes(n.text);
            case YamlNode::Kind::Sequence:
                return "a list";
            default:
                return "a map";
        }
    }
    const YamlNode& required(const YamlNode& owner, std::string_view key) const {
        const YamlNode* n = owner.find(key);
        if (!n || n->isNull()) fail(owner, "\"" + std::string(key) + "\" is missing");
        return *n;
    }
    /// A quantity in [0, max] (max at most 1e18, so it prints as a whole number); `unit`
    /// names what it counts in messages. Only null leaves a quantity unset (Kubernetes refuses
    /// "" for one): an empty list or map is no limit either, but a mistake.
    double quantity(const YamlNode& n, double max, const std::string& unit) const {
        if (n.kind != YamlNode::Kind::Scalar)
            fail(n,
                 label(n) + " must be a quantity (like 8, 1.5, 500m or 64Gi), got " + describe(n));
        const std::string t = text(n);
        const std::optional<double> v = parseKubeQuantity(t);
        if (!v)
            fail(n, label(n) + ": " + inQuotes(t) +
                        " is not a Kubernetes quantity (like 8, 1.5, 500m or 64Gi)");
        if (*v < 0) fail(n, label(n) + " must not be negative, got " + inQuotes(t));
        if (*v > max)
            fail(n, label(n) + ": " + inQuotes(t) + " is more than " +
                        withThousands(std::llround(max)) + (unit.empty() ? "" : " " + unit));
        return *v;
    }
    void unknownField(const YamlNode& field, const std::string& kind) {
        note("unknown:" + kind + "." + field.key,
             "ignored spec." + escapedForMessage(field.key) + " of a " + kind +
                 ": gpuplan does not know this field",
             field);
    }

    void object(const YamlNode& o) {
        map(o, "a Kubernetes object");
        if (++m_out.objects > KueueLimits::maxObjects)
            fail(o, "more than " + withThousands(KueueLimits::maxObjects) +
                        " objects: too many for Kueue manifests");
        const std::string kind = text(required(o, "kind"));
        const YamlNode& apiVersionNode = required(o, "apiVersion");
        const std::string apiVersion = text(apiVersionNode);
        const std::string group = apiVersion.substr(0, apiVersion.find('/'));
        const bool known = kind == "ClusterQueue" || kind == "Cohort" || kind == "ResourceFlavor" ||
                           kind == "LocalQueue";
        if (group != kGroup || !known) {
            if (kind.ends_with("List") && o.find("items"))
                fail(o, "a " + escapedForMessage(kind) + " inside a list: give its items");
            note("other-kinds",
                 "skipped objects that are not Kueue ClusterQueues, Cohorts, ResourceFlavors "
                 "or LocalQueues",
                 o, kind);
            return;
        }
        const std::string version =
            apiVersion.find('/') == std::string::npos ? "" : apiVersion.substr(group.size() + 1);
        const bool versionOk = version == "v1beta1" || version == "v1beta2" ||
                               (kind == "Cohort" && version == "v1alpha1");
        if (!versionOk)
            fail(apiVersionNode, "apiVersion " + inQuotes(apiVersion) + " of a " + kind +
                                     " is not supported (kueue.x-k8s.io/v1beta1 or v1beta2" +
                                     (kind == "Cohort" ? ", or v1alpha1)" : ")"));
        const YamlNode& metadata = map(required(o, "metadata"), "\"metadata\"");
        const YamlNode& nameNode = required(metadata, "name");
        static const YamlNode kEmptySpec = [] {
            YamlNode n;
            n.kind = YamlNode::Kind::Map;
            return n;
        }();
        const YamlNode* spec = o.find("spec");
        if (!spec || spec->isNull()) spec = &kEmptySpec;
        map(*spec, "\"spec\"");
        if (kind == "ClusterQueue") clusterQueue(nameNode, *spec);
        if (kind == "Cohort") cohort(nameNode, *spec);
        if (kind == "ResourceFlavor") resourceFlavor(nameNode, *spec);
        if (kind == "LocalQueue") localQueue(metadata, nameNode, *spec);
    }

    /// Refuses a second object of one kind and name (across files).
    void checkUnique(const std::string& kind, const std::string& name, const YamlNode& at) {
        const auto [it, first] = m_out.firstPlace.emplace(kind + "/" + name, place(at));
        if (!first)
            fail(at, "a second " + kind + " " + inQuotes(name) + " (the first is at " +
                         it->second.file + ": " + it->second.lineText() + ")");
    }

    void clusterQueue(const YamlNode& nameNode, const YamlNode& spec) {
        KueueClusterQueue q;
        q.name = text(nameNode);
        q.at = place(nameNode);
        checkUnique("ClusterQueue", q.name, nameNode);
        for (const YamlNode& field : spec.items) {
            const std::string& key = field.key;
            if (key == "resourceGroups") {
                q.gpuQuotas = resourceGroups(field, "ClusterQueue");
            } else if (key == "cohort" || key == "cohortName") {  // v1beta1, v1beta2
                const std::optional<std::string> given = optionalText(field);
                if (!given) continue;
                const std::string& cohort = *given;
                if (!q.cohort.empty() && q.cohort != cohort)
                    fail(field, "spec.cohort and spec.cohortName name different cohorts (" +
                                    inQuotes(q.cohort) + ", " + inQuotes(cohort) + ")");
                q.cohort = cohort;
                q.cohortAt = place(field);
            } else if (key == "fairSharing") {
                q.weight = weight(field);
            } else if (key == "preemption") {
                preemption(field, q);
            } else if (key == "queueingStrategy") {
                const std::string s = text(field);
                if (s == "StrictFIFO")
                    note("strict-fifo",
                         "queueingStrategy StrictFIFO read as BestEffortFIFO: gpuplan's queue "
                         "lets a later job that fits start before an earlier one that does not",
                         field);
                else if (s != "BestEffortFIFO")
                    fail(field, "unknown queueingStrategy " + inQuotes(s) +
                                    " (StrictFIFO or BestEffortFIFO)");
            } else if (key == "namespaceSelector") {
                if (hasContent(field))
                    note("namespace-selector",
                         "namespaceSelector not evaluated: every LocalQueue's namespace is taken "
                         "as allowed to use its ClusterQueue",
                         field);
            } else if (key == "flavorFungibility") {
                flavorFungibility(field);
            } else if (key == "admissionChecks" || key == "admissionChecksStrategy") {
                if (hasContent(field))
                    note("admission-checks",
                         "admission checks ignored: gpuplan admits a job once its quota allows",
                         field);
            } else if (key == "stopPolicy") {
                const std::string s = text(field);
                if (s == "Hold" || s == "HoldAndDrain")
                    note("stopped",
                         "stopPolicy " + s +
                             " ignored: the ClusterQueue is imported as running, admitting jobs",
                         field);
                else if (s != "None")
                    fail(field,
                         "unknown stopPolicy " + inQuotes(s) + " (None, Hold or HoldAndDrain)");
            } else if (key == "admissionScope" || key == "concurrentAdmissionPolicy") {
                if (hasContent(field))
                    note(key, "ignored spec." + key + ": gpuplan does not model it", field);
            } else {
                unknownField(field, "ClusterQueue");
            }
        }
        m_out.clusterQueues.push_back(std::move(q));
        if (static_cast<long long>(m_out.clusterQueues.size()) > KueueLimits::maxQuotaHolders)
            fail(nameNode, "more than " + withThousands(KueueLimits::maxQuotaHolders) +
                               " ClusterQueues (a scenario holds at most that many quotas)");
    }

    void preemption(const YamlNode& field, KueueClusterQueue& q) {
        for (const YamlNode& p : map(field, "\"preemption\"").items) {
            if (p.key == "reclaimWithinCohort") {
                const std::string s = text(p);
                if (s == "Never")
                    q.reclaimWithinCohort = ReclaimPolicy::Never;
                else if (s == "LowerPriority")
                    q.reclaimWithinCohort = ReclaimPolicy::LowerPriority;
                else if (s == "Any")
                    q.reclaimWithinCohort = ReclaimPolicy::Any;
                else
                    fail(p, "unknown reclaimWithinCohort " + inQuotes(s) +
                                " (Never, LowerPriority or Any)");
            } else if (p.key == "withinClusterQueue") {
                const std::string s = text(p);
                if (s == "Never")
                    q.withinClusterQueue = WithinTeamPolicy::Never;
                else if (s == "LowerPriority")
                    q.withinClusterQueue = WithinTeamPolicy::LowerPriority;
                else if (s == "LowerOrNewerEqualPriority")
                    q.withinClusterQueue = WithinTeamPolicy::LowerOrNewerEqualPriority;
                else
                    fail(p, "unknown withinClusterQueue " + inQuotes(s) +
                                " (Never, LowerPriority or LowerOrNewerEqualPriority)");
            } else if (p.key == "borrowWithinCohort") {
                const YamlNode* policy =
                    p.isNull() ? nullptr : map(p, "\"borrowWithinCohort\"").find("policy");
                const std::string s =
                    policy ? optionalText(*policy).value_or("Never") : std::string("Never");
                if (s == "LowerPriority")
                    note("borrow-within-cohort",
                         "preemption.borrowWithinCohort ignored: in gpuplan a job that borrows "
                         "never preempts; teams preempt only to reclaim their nominal quota or "
                         "within themselves",
                         p);
                else if (s != "Never")
                    fail(*policy, "unknown borrowWithinCohort policy " + inQuotes(s) +
                                      " (Never or LowerPriority)");
            } else {
                unknownField(p, "ClusterQueue preemption");
            }
        }
    }

    void flavorFungibility(const YamlNode& field) {
        if (field.isNull()) return;
        bool isDefault = true;
        for (const YamlNode& f : map(field, "\"flavorFungibility\"").items) {
            const std::string s = optionalText(f).value_or("");
            if (f.key == "whenCanBorrow") {
                if (s == "TryNextFlavor")
                    isDefault = false;
                else if (s != "MayStopSearch" && s != "Borrow" && !s.empty())
                    fail(f, "unknown whenCanBorrow " + inQuotes(s) +
                                " (MayStopSearch, Borrow or TryNextFlavor)");
            } else if (f.key == "whenCanPreempt") {
                if (s == "MayStopSearch" || s == "Preempt")
                    isDefault = false;
                else if (s != "TryNextFlavor" && !s.empty())
                    fail(f, "unknown whenCanPreempt " + inQuotes(s) +
                                " (MayStopSearch, Preempt or TryNextFlavor)");
            } else if (f.key == "preference") {
                isDefault = isDefault && s.empty();
            } else {
                unknownField(f, "ClusterQueue flavorFungibility");
            }
        }
        if (!isDefault)
            note("flavor-fungibility",
                 "flavorFungibility read as Kueue's default (whenCanBorrow MayStopSearch, "
                 "whenCanPreempt TryNextFlavor): gpuplan takes the first flavor in order that "
                 "fits, borrowing if it must",
                 field);
    }

    std::optional<double> weight(const YamlNode& field) {
        if (field.isNull()) return std::nullopt;
        std::optional<double> w;
        for (const YamlNode& f : map(field, "\"fairSharing\"").items) {
            if (f.key == "weight") {
                if (f.isNull()) continue;
                w = quantity(f, kMaxWeight, "");
                if (*w > 0 && *w < 1e-9)
                    fail(f, "\"weight\" must be 0 or above 0.000000001 (Kueue's rule)");
            } else {
                unknownField(f, "fairSharing");
            }
        }
        return w;
    }

    /// The nvidia.com/gpu quotas of resourceGroups, flavors in order; other resources are
    /// counted in a note; MIG and shared-GPU resources are refused.
    std::vector<KueueGpuQuota> resourceGroups(const YamlNode& field, const std::string& owner) {
        std::vector<KueueGpuQuota> out;
        if (field.isNull()) return out;
        std::set<std::string> flavorsSeen;
        bool gpuSeen = false;
        for (const YamlNode& group : list(field, 16)) {
            map(group, "a resource group");
            std::set<std::string> covered;
            for (const YamlNode& r : list(required(group, "coveredResources"), 64)) {
                const std::string name = text(r);
                refuseSharedGpuResource(r, name);
                if (name == kGpuResource && gpuSeen)
                    fail(r, "nvidia.com/gpu is covered by two resource groups (Kueue allows one)");
                gpuSeen = gpuSeen || name == kGpuResource;
                covered.insert(name);
            }
            for (const YamlNode& g : group.items)
                if (g.key != "coveredResources" && g.key != "flavors")
                    unknownField(g, owner + " resource group");
            for (const YamlNode& flavor : list(required(group, "flavors"), 64)) {
                map(flavor, "a flavor's quotas");
                const YamlNode& nameNode = required(flavor, "name");
                const std::string name = text(nameNode);
                if (!flavorsSeen.insert(name).second)
                    fail(nameNode, "flavor " + inQuotes(name) + " is listed twice in this " +
                                       owner + " (Kueue allows a flavor once)");
                for (const YamlNode& quota : list(required(flavor, "resources"), 64))
                    resourceQuota(quota, nameNode, covered, out);
                for (const YamlNode& f : flavor.items)
                    if (f.key != "name" && f.key != "resources") unknownField(f, owner + " flavor");
            }
        }
        return out;
    }

    void refuseSharedGpuResource(const YamlNode& at, const std::string& resource) const {
        if (resource.starts_with("nvidia.com/mig-"))
            fail(at, inQuotes(resource) +
                         ": MIG instances as a resource of their own (MIG strategy mixed) are "
                         "not supported; gpuplan's quotas count GPU-equivalents per GPU model, so "
                         "give the flavor an nvidia.com/gpu quota in GPUs instead (a 1g instance "
                         "is 1/7 of a GPU)");
        if (resource.starts_with("nvidia.com/gpu."))
            fail(at, inQuotes(resource) +
                         ": shared-GPU replicas (time-slicing or MPS renamed resources) are not "
                         "supported; gpuplan's quotas count GPU-equivalents, so give the flavor "
                         "an nvidia.com/gpu quota in whole GPUs instead");
    }

    void resourceQuota(const YamlNode& quota, const YamlNode& flavorName,
                       const std::set<std::string>& covered, std::vector<KueueGpuQuota>& out) {
        map(quota, "a resource quota");
        const YamlNode& nameNode = required(quota, "name");
        const std::string resource = text(nameNode);
        if (!covered.count(resource))
            fail(nameNode, "resource " + inQuotes(resource) +
                               " is not in this resource group's coveredResources");
        const bool gpu = resource == kGpuResource;
        const double max = gpu ? kMaxQuotaGpus : kMaxOtherQuota;
        const std::string unit = quotaUnit(resource);
        KueueGpuQuota q;
        q.flavor = flavorName.text;
        q.at = place(flavorName);
        q.nominalGpus = quantity(required(quota, "nominalQuota"), max, unit);
        for (const YamlNode& f : quota.items) {
            // Only a missing or null limit is no limit.
            if (f.key == "borrowingLimit" && !f.isNull()) {
                q.borrowingLimitGpus = quantity(f, max, unit);
                q.borrowingAt = place(f);
            } else if (f.key == "lendingLimit" && !f.isNull()) {
                q.lendingLimitGpus = quantity(f, max, unit);
                q.lendingAt = place(f);
            } else if (f.key != "name" && f.key != "nominalQuota" && f.key != "borrowingLimit" &&
                       f.key != "lendingLimit") {
                unknownField(f, "resource quota");
            }
        }
        if (gpu)
            out.push_back(std::move(q));
        else
            note("other-resources",
                 "skipped quotas of resources other than nvidia.com/gpu (gpuplan's quotas count "
                 "GPUs)",
                 nameNode, resource);
    }

    void cohort(const YamlNode& nameNode, const YamlNode& spec) {
        KueueCohort c;
        c.name = text(nameNode);
        c.at = place(nameNode);
        checkUnique("Cohort", c.name, nameNode);
        for (const YamlNode& field : spec.items) {
            if (field.key == "parentName" || field.key == "parent") {  // v1beta1+, v1alpha1
                const std::optional<std::string> given = optionalText(field);
                if (!given) continue;
                const std::string& parent = *given;
                if (!c.parent.empty() && c.parent != parent)
                    fail(field, "spec.parent and spec.parentName name different cohorts");
                c.parent = parent;
                c.parentAt = place(field);
            } else if (field.key == "resourceGroups") {
                c.gpuQuotas = resourceGroups(field, "Cohort");
            } else if (field.key == "fairSharing") {
                c.weight = weight(field);
            } else {
                unknownField(field, "Cohort");
            }
        }
        m_out.cohorts.push_back(std::move(c));
        if (static_cast<long long>(m_out.cohorts.size()) > KueueLimits::maxQuotaHolders)
            fail(nameNode, "more than " + withThousands(KueueLimits::maxQuotaHolders) + " Cohorts");
    }

    void resourceFlavor(const YamlNode& nameNode, const YamlNode& spec) {
        KueueResourceFlavor f;
        f.name = text(nameNode);
        f.at = place(nameNode);
        checkUnique("ResourceFlavor", f.name, nameNode);
        for (const YamlNode& field : spec.items) {
            if (field.key == "nodeLabels") {
                if (field.isNull()) continue;
                if (const YamlNode* product =
                        map(field, "\"nodeLabels\"").find("nvidia.com/gpu.product")) {
                    f.gpuProduct = text(*product);
                    f.gpuProductAt = place(*product);
                }
            } else if (field.key != "nodeTaints" && field.key != "tolerations" &&
                       field.key != "topologyName") {
                unknownField(field, "ResourceFlavor");  // taints and topology: not about quota
            }
        }
        m_out.flavors.push_back(std::move(f));
    }

    void localQueue(const YamlNode& metadata, const YamlNode& nameNode, const YamlNode& spec) {
        KueueLocalQueue q;
        q.name = text(nameNode);
        q.at = place(nameNode);
        const YamlNode* ns = metadata.find("namespace");
        if (!ns || !optionalText(*ns))
            fail(nameNode, "LocalQueue " + inQuotes(q.name) +
                               " has no metadata.namespace (its namespace is the team that uses "
                               "the ClusterQueue)");
        q.nameSpace = text(*ns);
        checkUnique("LocalQueue", q.nameSpace + "/" + q.name, nameNode);
        for (const YamlNode& field : spec.items) {
            if (field.key == "clusterQueue") {
                q.clusterQueue = text(field);
            } else if (field.key == "stopPolicy") {
                const std::string s = text(field);
                if (s != "None")
                    note("local-stopped",
                         "LocalQueue stopPolicy " + inQuotes(s) +
                             " ignored: its team's jobs are admitted",
                         field);
            } else if (field.key == "fairSharing") {
                if (hasContent(field))
                    note("admission-fair-sharing",
                         "LocalQueue fairSharing (admission fair sharing) ignored: jobs within a "
                         "team are ordered by the scenario's queue order",
                         field);
            } else {
                unknownField(field, "LocalQueue");
            }
        }
        if (q.clusterQueue.empty())
            fail(nameNode, "LocalQueue " + inQuotes(q.nameSpace + "/" + q.name) +
                               " has no spec.clusterQueue");
        m_out.localQueues.push_back(std::move(q));
    }

    const std::string& m_file;
    KueueManifests& m_out;
};

}  // namespace

void readKueueManifests(const std::vector<YamlNode>& documents, const std::string& file,
                        KueueManifests& into) {
    ManifestReader reader(file, into);
    for (const YamlNode& doc : documents)
        reader.document(doc);
}

}  // namespace gpuplan::detail
