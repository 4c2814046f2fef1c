// Slurm's nodes as `scontrol show node --oneliner` prints them: one node a line, Key=Value
// fields separated by spaces. Values may hold spaces (`OS=Linux 5.15.0 #1 SMP ...`,
// `Reason=bad gpu [root@2026-10-01T08:00:00]`), so a line is split before each " Key=" whose
// Key is an identifier starting with a capital letter, as every scontrol key does: a Reason
// text with " Word=" in it is cut there (the rest is then an unknown field, ignored).
//
// Per node:
//  - GPUs: the `gpu` entries of Gres (`gpu:h100:8`, `gpu:h100:8(S:0-1)`, `gpu:8`, several
//    entries comma-separated; entries of other GRES such as `shard` ignored), else CfgTRES's
//    `gres/gpu:<type>=<n>` / `gres/gpu=<n>`. No GPU: the node is left out and counted. GPUs
//    of two types on one node are refused (a gpuplan node has one GPU model).
//  - GPU model: slurmGpuModel (--gpu-type first, then the catalog); an untyped or unknown
//    type is refused with the node and line, suggesting --gpu-type.
//  - CPUs: CPUEfctv (what jobs may use, without specialized cores) if present, else CPUTot.
//  - Memory: RealMemory in MB (Slurm's MB are MiB) ÷ 1024 = GiB. Slurm's default of 1 (not
//    configured) reads as not known.
//  - State: the base state and its +FLAGS. IDLE, ALLOCATED, MIXED, COMPLETING → Ready;
//    any DRAIN, DRAINING, DRAINED, MAINT, REBOOT_ISSUED, or FUTURE → Cordoned; DOWN, ERROR,
//    UNKNOWN, FAIL, NOT_RESPONDING, NO_RESPOND, INVALID_REG or a '*' (not responding: DOWN*,
//    IDLE*) → Failed (Failed before Cordoned). Flags that leave a node usable (CLOUD,
//    POWERED_DOWN, RESERVED, PLANNED, REBOOT_REQUESTED, …) keep it Ready. Any other state is
//    refused with the node and line. The Reason is kept: "IDLE+DRAIN: bad gpu [root@…]".
#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/gpu_type_names.hpp"
#include "io/text_lines.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

namespace {

constexpr std::size_t kMaxLineBytes = 64 * 1024;
constexpr std::size_t kMaxFields = 512;
constexpr long long kMaxGpusPerNode = 1024;
constexpr long long kMaxCpusPerNode = 1'000'000;
constexpr long long kMaxRealMemoryMiB = 1LL << 40;  // 1 EiB
constexpr std::size_t kShownNames = 10;

using detail::wholeNumber;

std::string inQuotes(std::string_view text) {
    return "\"" + detail::escapedForMessage(text, 80) + "\"";
}

class NodeLine {
public:
    NodeLine(std::string_view line, std::size_t number, const std::string& file)
        : m_number(number), m_file(file) {
        if (line.size() > kMaxLineBytes)
            fail("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
        if (line.rfind("NodeName=", 0) != 0)
            fail(line.front() == ' ' || line.front() == '\t'
                     ? "an indented line: export with scontrol show node --oneliner (one node a "
                       "line)"
                     : "expected a line starting NodeName= (scontrol show node --oneliner)");
        split(line);
    }

    [[noreturn]] void fail(const std::string& message) const {
        throw InputError(m_file, "line " + std::to_string(m_number), message);
    }
    std::string place() const { return "line " + std::to_string(m_number); }

    std::optional<std::string_view> get(std::string_view key) const {
        const auto it = m_fields.find(key);
        if (it == m_fields.end()) return std::nullopt;
        return it->second;
    }

private:
    static bool identifierChar(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '_';
    }

    /// The length of "Key=" at `at` (a capital, identifier characters, '='), or 0.
    static std::size_t keyAt(std::string_view line, std::size_t at) {
        if (at >= line.size() || line[at] < 'A' || line[at] > 'Z') return 0;
        std::size_t i = at;
        while (i < line.size() && identifierChar(line[i]))
            ++i;
        return i < line.size() && line[i] == '=' ? i - at + 1 : 0;
    }

    void split(std::string_view line) {
        std::size_t keyStart = 0, keyLength = keyAt(line, 0);
        for (std::size_t i = 1; i <= line.size(); ++i) {
            const std::size_t next = i < line.size() && line[i - 1] == ' ' ? keyAt(line, i) : 0;
            if (i < line.size() && next == 0) continue;
            const std::string_view key = line.substr(keyStart, keyLength - 1);
            std::string_view value =
                line.substr(keyStart + keyLength, i - keyStart - keyLength - (next ? 1 : 0));
            while (!value.empty() && value.back() == ' ')
                value.remove_suffix(1);
            if (m_fields.size() == kMaxFields)
                fail("more than " + std::to_string(kMaxFields) + " fields");
            if (!m_fields.emplace(key, value).second)
                fail("field " + std::string(key) + " appears twice");
            keyStart = i;
            keyLength = next;
        }
    }

    std::size_t m_number;
    const std::string& m_file;
    std::map<std::string_view, std::string_view, std::less<>> m_fields;
};

/// GPUs of a node by type ("" = untyped), summed over entries.
using GpusByType = std::map<std::string, long long>;

void addGpus(GpusByType& gpus, std::string type, std::string_view count, const NodeLine& line,
             const char* field) {
    const auto n = wholeNumber(count);
    if (!n || *n > kMaxGpusPerNode)
        line.fail(std::string(field) + ": GPU count " + inQuotes(count) +
                  " is not a whole number from 0 to " + std::to_string(kMaxGpusPerNode));
    long long& total = gpus[std::move(type)];
    total += *n;
    if (total > kMaxGpusPerNode)
        line.fail(std::string(field) + ": more than " + std::to_string(kMaxGpusPerNode) + " GPUs");
}

/// "gpu:h100:8(S:0-1),gpu:a100:2,shard:8": entries split at commas outside parentheses.
GpusByType gresGpus(std::string_view gres, const NodeLine& line) {
    GpusByType gpus;
    if (gres.empty() || gres == "(null)") return gpus;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= gres.size(); ++i) {
        if (i < gres.size()) {
            if (gres[i] == '(') ++depth;
            if (gres[i] == ')') --depth;
            if (depth < 0) line.fail("Gres " + inQuotes(gres) + ": unbalanced parentheses");
            if (gres[i] != ',' || depth > 0) continue;
        }
        std::string_view entry = gres.substr(start, i - start);
        start = i + 1;
        if (const std::size_t paren = entry.find('('); paren != std::string_view::npos)
            entry = entry.substr(0, paren);
        std::vector<std::string_view> parts;
        std::size_t from = 0;
        while (parts.size() < 8) {
            const std::size_t colon = entry.find(':', from);
            const std::string_view part = entry.substr(from, colon - from);
            if (part != "no_consume") parts.push_back(part);
            if (colon == std::string_view::npos) break;
            from = colon + 1;
        }
        if (parts.empty() || parts[0] != "gpu") continue;
        if (parts.size() == 2)
            addGpus(gpus, "", parts[1], line, "Gres");
        else if (parts.size() == 3 && !parts[1].empty())
            addGpus(gpus, std::string(parts[1]), parts[2], line, "Gres");
        else
            line.fail("Gres entry " + inQuotes(entry) +
                      " is not gpu:<count> or gpu:<type>:<count>");
    }
    if (depth != 0) line.fail("Gres " + inQuotes(gres) + ": unbalanced parentheses");
    return gpus;
}

/// "cpu=64,mem=1031000M,billing=64,gres/gpu:h100=8,gres/gpu=8": typed counts, else untyped.
GpusByType tresGpus(std::string_view tres, const NodeLine& line) {
    GpusByType typed, untyped;
    std::size_t start = 0;
    while (start < tres.size()) {
        std::size_t end = tres.find(',', start);
        if (end == std::string_view::npos) end = tres.size();
        const std::string_view item = tres.substr(start, end - start);
        start = end + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view key = item.substr(0, eq);
        if (key == "gres/gpu")
            addGpus(untyped, "", item.substr(eq + 1), line, "CfgTRES");
        else if (key.rfind("gres/gpu:", 0) == 0 && key.size() > 9)
            addGpus(typed, std::string(key.substr(9)), item.substr(eq + 1), line, "CfgTRES");
    }
    return typed.empty() ? untyped : typed;
}

/// Ready, Cordoned or Failed from "MIXED+DRAIN", "DOWN*+DRAIN", "IDLE*", …
NodeState nodeState(std::string_view state, const NodeLine& line, std::string_view node) {
    static const std::set<std::string_view> kReadyBases = {"IDLE", "ALLOCATED", "MIXED",
                                                           "COMPLETING"};
    static const std::set<std::string_view> kFailedWords = {
        "DOWN",           "ERROR",      "UNKNOWN",     "FAIL",   "FAILING",
        "NOT_RESPONDING", "NO_RESPOND", "INVALID_REG", "INVALID"};
    static const std::set<std::string_view> kCordonedWords = {"DRAIN", "DRAINING",      "DRAINED",
                                                              "MAINT", "REBOOT_ISSUED", "FUTURE"};
    static const std::set<std::string_view> kHarmlessFlags = {
        "COMPLETING",       "RESERVED",      "PLANNED",    "CLOUD",          "POWERED_DOWN",
        "POWERING_UP",      "POWERING_DOWN", "POWER_DOWN", "POWER_UP",       "POWER_SAVE",
        "REBOOT_REQUESTED", "RESUME",        "UNDRAIN",    "DYNAMIC_FUTURE", "DYNAMIC_NORM",
        "PERFCTRS",         "BLOCKED"};
    if (state.empty()) line.fail("node " + std::string(node) + " has an empty State");
    bool failed = false, cordoned = false;
    std::size_t start = 0;
    for (bool first = true; start <= state.size(); first = false) {
        std::size_t end = state.find('+', start);
        if (end == std::string_view::npos) end = state.size();
        std::string_view word = state.substr(start, end - start);
        start = end + 1;
        if (!word.empty() && word.back() == '*') {  // not responding
            failed = true;
            word.remove_suffix(1);
        }
        const bool known = kFailedWords.count(word) || kCordonedWords.count(word) ||
                           (first ? kReadyBases.count(word) : kHarmlessFlags.count(word));
        if (!known)
            line.fail("node " + std::string(node) + ": unknown state " + inQuotes(word) +
                      " in State=" + detail::escapedForMessage(state, 80) +
                      " (known: IDLE, ALLOCATED, MIXED, COMPLETING, DOWN, ERROR, UNKNOWN, "
                      "FUTURE with flags such as DRAIN, MAINT, FAIL, NOT_RESPONDING, CLOUD)");
        failed = failed || kFailedWords.count(word) > 0;
        cordoned = cordoned || kCordonedWords.count(word) > 0;
    }
    return failed ? NodeState::Failed : cordoned ? NodeState::Cordoned : NodeState::Ready;
}

/// The names kept, then how many more of `count`.
std::string namesOf(const std::vector<std::string>& names, std::size_t count) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i ? ", " : "") + names[i];
    if (count > names.size()) out += " and " + std::to_string(count - names.size()) + " more";
    return out;
}

/// "a, b, c": what an ambiguous type could mean, for a message.
std::string candidates(std::string_view type, const Catalog& catalog) {
    std::string out;
    for (const std::string& id : slurmGpuTypeCandidates(type, catalog))
        out += (out.empty() ? "" : ", ") + id;
    return out;
}

class NodesReader {
public:
    NodesReader(const std::string& file, const Catalog& catalog, const SlurmNodeOptions& options)
        : m_file(file), m_catalog(catalog), m_options(options) {}

    ImportedFleet read(std::string_view text) {
        for (const auto& [type, model] : m_options.gpuTypeModels)
            if (!m_catalog.findGpu(model))
                throw InputError("--gpu-type", type + "=" + model,
                                 "no GPU model " + inQuotes(model) +
                                     " in the catalog (models: " + candidates("", m_catalog) + ")");
        detail::TextLines lines(text);
        std::string_view textLine;
        while (lines.next(textLine)) {
            if (textLine.empty()) continue;
            node(NodeLine(textLine, lines.lineNumber(), m_file));
        }
        if (m_fleet.nodes.empty())
            throw InputError(m_file,
                             "line " + std::to_string(std::max<std::size_t>(1, lines.lineNumber())),
                             "no GPU node (" + std::to_string(m_withoutGpusCount) +
                                 " without GPUs): expected scontrol show node --oneliner "
                                 "output with Gres=gpu:… or CfgTRES=…gres/gpu…");
        summarize();
        return std::move(m_fleet);
    }

private:
    void node(const NodeLine& line) {
        ImportedNode n;
        n.name = std::string(*line.get("NodeName"));
        if (const auto problem = detail::nameProblem(n.name))
            line.fail("NodeName " + *problem + " (a node name)");
        n.file = m_file;
        n.place = line.place();
        GpusByType gpus = gresGpus(line.get("Gres").value_or(""), line);
        if (gpus.empty()) gpus = tresGpus(line.get("CfgTRES").value_or(""), line);
        std::erase_if(gpus, [](const auto& kv) { return kv.second == 0; });
        if (gpus.empty()) {
            // The first names for the summary, then only a count: bounded on a hostile file.
            if (m_withoutGpus.size() < kShownNames) m_withoutGpus.push_back(n.name);
            ++m_withoutGpusCount;
            return;
        }
        if (gpus.size() > 1) {
            std::string types;
            for (const auto& [type, count] : gpus)
                types += (types.empty() ? "" : ", ") + (type.empty() ? "untyped" : type);
            line.fail("node " + n.name + " has GPUs of several types (" + types +
                      "): a gpuplan node has one GPU model");
        }
        const auto& [type, count] = *gpus.begin();
        n.gpus = static_cast<int>(count);
        n.gpuModel = model(type, n.name, line);
        n.cpuCores = static_cast<double>(cpus(line, n.name));
        n.memoryGiB = memoryGiB(line, n.name);
        const std::string_view state = line.get("State").value_or("");
        n.state = nodeState(state, line, n.name);
        if (n.state != NodeState::Ready) {
            n.stateReason = detail::escapedForMessage(state, 80);
            if (const auto reason = line.get("Reason"); reason && !reason->empty())
                n.stateReason += ": " + detail::escapedForMessage(*reason, 200);
        }
        ++m_typeNodes[(type.empty() ? "gpu" : type) + " → " + n.gpuModel];
        if (m_fleet.nodes.size() == static_cast<std::size_t>(InputLimits::maxNodes))
            line.fail("more than " + detail::withThousands(InputLimits::maxNodes) + " GPU nodes");
        m_fleet.nodes.push_back(std::move(n));
    }

    std::string model(const std::string& type, const std::string& node, const NodeLine& line) {
        const std::string key = type.empty() ? "gpu" : type;
        std::string id = slurmGpuModel(key, m_catalog, m_options);
        if (!id.empty()) return id;
        if (type.empty())
            line.fail("node " + node +
                      " has untyped GPUs (gpu:<count>): name their model with --gpu-type "
                      "gpu=MODEL");
        const std::string maybe = candidates(type, m_catalog);
        throw SlurmGpuTypeError(
            m_file, line.place(),
            "node " + node + ": GPU type " + inQuotes(type) +
                (maybe.empty() ? " matches no catalog GPU model"
                               : " is not one catalog GPU model (it could be " + maybe + ")") +
                "; name it with --gpu-type " + detail::escapedForMessage(type, 40) + "=MODEL",
            type, slurmGpuTypeCandidates(type, m_catalog));
    }

    long long cpus(const NodeLine& line, const std::string& node) const {
        const char* key = line.get("CPUEfctv") ? "CPUEfctv" : "CPUTot";
        const auto text = line.get(key);
        if (!text) return 0;
        const auto n = wholeNumber(*text);
        if (!n || *n > kMaxCpusPerNode)
            line.fail("node " + node + ": " + key + " " + inQuotes(*text) +
                      " is not a whole number of CPUs");
        return *n;
    }

    double memoryGiB(const NodeLine& line, const std::string& node) {
        const auto text = line.get("RealMemory");
        if (!text) return 0;
        const auto mib = wholeNumber(*text);
        if (!mib || *mib > kMaxRealMemoryMiB)
            line.fail("node " + node + ": RealMemory " + inQuotes(*text) +
                      " is not a whole number of MB");
        if (*mib <= 1) {  // Slurm's default: memory not configured
            ++m_memoryUnknown;
            return 0;
        }
        return static_cast<double>(*mib) / 1024.0;
    }

    void summarize() {
        ImportSummary& s = m_fleet.summary;
        std::string types;
        for (const auto& [mapping, nodes] : m_typeNodes)
            types += (types.empty() ? "" : ", ") + mapping + " (" + std::to_string(nodes) +
                     (nodes == 1 ? " node)" : " nodes)");
        s.mapped.push_back("GPU types: " + types);
        if (m_withoutGpusCount > 0)
            s.skipped.push_back(std::to_string(m_withoutGpusCount) +
                                (m_withoutGpusCount == 1 ? " node" : " nodes") +
                                " without GPUs: " + namesOf(m_withoutGpus, m_withoutGpusCount));
        if (m_memoryUnknown > 0)
            s.assumptions.push_back(std::to_string(m_memoryUnknown) +
                                    (m_memoryUnknown == 1 ? " node" : " nodes") +
                                    " with RealMemory=1 (not configured): memory not a limit");
    }

    const std::string& m_file;
    const Catalog& m_catalog;
    const SlurmNodeOptions& m_options;
    ImportedFleet m_fleet;
    std::vector<std::string> m_withoutGpus;  ///< the first kShownNames
    std::size_t m_withoutGpusCount = 0;
    std::map<std::string, int> m_typeNodes;
    int m_memoryUnknown = 0;
};

}  // namespace

std::string slurmGpuModel(std::string_view type, const Catalog& catalog,
                          const SlurmNodeOptions& options) {
    return gpuModelNamedBy(type, catalog.gpuModels, options.gpuTypeModels);
}

std::vector<std::string> slurmGpuTypeCandidates(std::string_view type, const Catalog& catalog) {
    const std::string t = gpuTypeKey(type);
    std::vector<std::string> out;
    for (const GpuModel& g : catalog.gpuModels) {
        bool hit = gpuTypeKey(g.id).find(t) != std::string::npos ||
                   gpuTypeKey(g.name).find(t) != std::string::npos;
        for (const std::string& label : g.productLabels)
            hit = hit || gpuTypeKey(label).find(t) != std::string::npos;
        if (hit) out.push_back(g.id);
    }
    return out;
}

ImportedFleet parseSlurmNodes(std::string_view text, const std::string& sourceName,
                              const Catalog& catalog, const SlurmNodeOptions& options) {
    ImportedFleet fleet = NodesReader(sourceName, catalog, options).read(text);
    fleet.source = "scontrol show node (" + sourceName + ")";
    return fleet;
}

ImportedFleet readSlurmNodes(const std::filesystem::path& file, const Catalog& catalog,
                             const SlurmNodeOptions& options) {
    return parseSlurmNodes(readTextFile(file), file.string(), catalog, options);
}

}  // namespace gpuplan
