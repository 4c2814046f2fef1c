// Racks and pods of a Slurm fleet from its topology.conf (the topology/tree plugin's file):
//   SwitchName=leaf1 Nodes=gpu[01-16]
//   SwitchName=spine1 Switches=leaf[1-2] LinkSpeed=100
// A leaf switch (one with Nodes=) is a rack named after it; the switch whose Switches= lists
// the leaf is its pod. A leaf under no switch leaves its nodes' pod unset (the builder's pod
// "cluster"). Nodes the file names that are not GPU nodes of the fleet are ignored; GPU nodes it
// does not name keep no rack (the builder's racks in name order), and the summary counts them.
//
// Names are Slurm hostlists: `gpu[01-16]`, `gpu[01-04,09]`, `a,b,c[1-2]`, `r[1-2]n[1-4]`, with
// the width of a range's first number kept (01 … 16). '#' starts a comment; keys are read
// ignoring case. Refused with the line: another kind of line (topology/block's BlockName=…),
// a switch defined twice, with both Nodes= and Switches=, under two parents or naming one not
// defined, a node under two leaves, names a rack cannot have, a hostlist of more than
// kMaxNames names (in all), an item over kMaxItemBytes or with more than kMaxBracketGroups
// [ranges]: bounded memory and time whatever the file holds.
#include <algorithm>
#include <map>
#include <optional>

#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "io/text_lines.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

namespace {

constexpr std::size_t kMaxLineBytes = 64 * 1024;
constexpr std::size_t kMaxNames = 200'000;  // InputLimits::maxNodes
constexpr std::size_t kMaxSwitches = 100'000;
constexpr long kMaxBracketGroups = 8;
/// A hostlist item's length: names are at most 64 characters, ranges add a few more.
constexpr std::size_t kMaxItemBytes = 256;

std::string inQuotes(std::string_view text) {
    return "\"" + detail::escapedForMessage(text, 80) + "\"";
}

class HostlistError {
public:
    std::string message;
};

/// Appends the names of one hostlist item ("r[1-2]n[01-04]": every combination, in order).
void expandItem(std::string_view item, const std::string& prefix, std::vector<std::string>& out) {
    const std::size_t open = item.find('[');
    if (open == std::string_view::npos) {
        if (item.find(']') != std::string_view::npos) throw HostlistError{"a ']' without '['"};
        out.push_back(prefix + std::string(item));
        if (out.size() > kMaxNames)
            throw HostlistError{"more than " + std::to_string(kMaxNames) + " names"};
        return;
    }
    const std::size_t close = item.find(']', open);
    if (close == std::string_view::npos) throw HostlistError{"a '[' without ']'"};
    const std::string head = prefix + std::string(item.substr(0, open));
    const std::string_view ranges = item.substr(open + 1, close - open - 1);
    const std::string_view rest = item.substr(close + 1);
    std::size_t start = 0;
    while (start <= ranges.size()) {
        std::size_t end = ranges.find(',', start);
        if (end == std::string_view::npos) end = ranges.size();
        const std::string_view range = ranges.substr(start, end - start);
        start = end + 1;
        const std::size_t dash = range.find('-');
        const std::string_view lo = range.substr(0, dash);
        const std::string_view hi = dash == std::string_view::npos ? lo : range.substr(dash + 1);
        const auto number = [](std::string_view s) -> std::optional<long long> {
            if (s.empty() || s.size() > 9 ||
                !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
                return std::nullopt;
            return std::stoll(std::string(s));
        };
        const auto first = number(lo), last = number(hi);
        if (!first || !last) throw HostlistError{"range " + inQuotes(range) + " is not N or N-M"};
        if (*last < *first) throw HostlistError{"range " + inQuotes(range) + " runs backwards"};
        if (static_cast<std::size_t>(*last - *first) >= kMaxNames)
            throw HostlistError{"more than " + std::to_string(kMaxNames) + " names"};
        for (long long n = *first; n <= *last; ++n) {
            std::string digits = std::to_string(n);
            if (digits.size() < lo.size()) digits.insert(0, lo.size() - digits.size(), '0');
            expandItem(rest, head + digits, out);
        }
    }
}

/// Every name of a Slurm hostlist ("gpu[01-03],cpu1").
std::vector<std::string> expandHostlist(std::string_view list) {
    std::vector<std::string> out;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= list.size(); ++i) {
        if (i < list.size()) {
            if (list[i] == '[') ++depth;
            if (list[i] == ']') --depth;
            if (list[i] != ',' || depth != 0) continue;
        }
        const std::string_view item = list.substr(start, i - start);
        start = i + 1;
        if (item.empty()) throw HostlistError{"an empty name"};
        if (item.size() > kMaxItemBytes)
            throw HostlistError{"a name of more than " + std::to_string(kMaxItemBytes) +
                                " characters"};
        // Slurm's hostlists have a few dimensions; more would nest the expansion deeply.
        if (std::count(item.begin(), item.end(), '[') > kMaxBracketGroups)
            throw HostlistError{"more than " + std::to_string(kMaxBracketGroups) +
                                " [ranges] in one name"};
        expandItem(item, "", out);
    }
    return out;
}

struct Switch {
    std::vector<std::string> nodes;
    std::vector<std::string> children;
    std::string parent;
    std::size_t line = 0;
};

class TopologyReader {
public:
    explicit TopologyReader(const std::string& file) : m_file(file) {}

    void read(std::string_view text, ImportedFleet& fleet) {
        detail::TextLines lines(text);
        std::string_view line;
        while (lines.next(line)) {
            m_line = lines.lineNumber();
            if (line.size() > kMaxLineBytes)
                fail("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
            if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
                line = line.substr(0, hash);
            parseLine(line);
        }
        link();
        assign(fleet);
    }

private:
    [[noreturn]] void fail(const std::string& message, std::size_t line = 0) const {
        throw InputError(m_file, "line " + std::to_string(line ? line : m_line), message);
    }

    std::vector<std::string> names(std::string_view list, const char* key) const {
        try {
            return expandHostlist(list);
        } catch (const HostlistError& e) {
            fail(std::string(key) + "=" + detail::escapedForMessage(list, 80) + ": " + e.message);
        }
    }

    void parseLine(std::string_view line) {
        std::map<std::string, std::string_view> fields;
        std::size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                ++i;
            if (i == line.size()) break;
            std::size_t end = i;
            while (end < line.size() && line[end] != ' ' && line[end] != '\t')
                ++end;
            const std::string_view token = line.substr(i, end - i);
            i = end;
            const std::size_t eq = token.find('=');
            if (eq == std::string_view::npos || eq == 0)
                fail("expected Key=Value, got " + inQuotes(token));
            std::string key(token.substr(0, eq));
            for (char& c : key)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (!fields.emplace(key, token.substr(eq + 1)).second)
                fail("key " + inQuotes(token.substr(0, eq)) + " appears twice");
        }
        if (fields.empty()) return;
        const auto name = fields.find("switchname");
        if (name == fields.end())
            fail(fields.count("blockname")
                     ? "BlockName lines are topology/block's: only topology/tree's SwitchName "
                       "lines are read"
                     : "expected a SwitchName=… line (topology/tree)");
        const std::string switchName(name->second);
        if (const auto problem = detail::nameProblem(switchName))
            fail("SwitchName " + *problem + " (a switch is a rack or pod name)");
        if (m_switches.size() == kMaxSwitches)
            fail("more than " + std::to_string(kMaxSwitches) + " switches");
        auto [it, added] = m_switches.emplace(switchName, Switch{});
        if (!added)
            fail("switch " + switchName + " is defined twice (first at line " +
                 std::to_string(it->second.line) + ")");
        Switch& s = it->second;
        s.line = m_line;
        const auto nodes = fields.find("nodes");
        const auto children = fields.find("switches");
        if (nodes != fields.end() && children != fields.end())
            fail("switch " + switchName + " has both Nodes= and Switches=");
        if (nodes != fields.end()) s.nodes = names(nodes->second, "Nodes");
        if (children != fields.end()) s.children = names(children->second, "Switches");
        m_names += s.nodes.size() + s.children.size();
        if (m_names > kMaxNames)
            fail("more than " + std::to_string(kMaxNames) + " node and switch names in the file");
    }

    void link() {
        for (auto& [name, s] : m_switches)
            for (const std::string& child : s.children) {
                const auto it = m_switches.find(child);
                if (it == m_switches.end())
                    fail("switch " + name + " names switch " + inQuotes(child) +
                             ", which no SwitchName line defines",
                         s.line);
                if (!it->second.parent.empty())
                    fail("switch " + child + " is under both " + it->second.parent + " and " + name,
                         s.line);
                it->second.parent = name;
            }
    }

    void assign(ImportedFleet& fleet) const {
        std::map<std::string, const std::pair<const std::string, Switch>*> leafOf;
        for (const auto& entry : m_switches)
            for (const std::string& node : entry.second.nodes) {
                const auto [it, added] = leafOf.emplace(node, &entry);
                if (!added)
                    fail("node " + node + " is under both " + it->second->first + " and " +
                             entry.first,
                         entry.second.line);
            }
        std::vector<std::string> unplaced;
        std::map<std::string, int> racks;
        for (ImportedNode& n : fleet.nodes) {
            const auto it = leafOf.find(n.name);
            if (it == leafOf.end()) {
                unplaced.push_back(n.name);
                continue;
            }
            n.rack = it->second->first;
            n.pod = it->second->second.parent;
            ++racks[n.rack];
        }
        std::string line = "racks from " + m_file + ": " + std::to_string(racks.size()) +
                           " leaf switches as racks, the switches above them as pods";
        fleet.summary.mapped.push_back(line);
        if (!unplaced.empty()) {
            std::string list;
            for (std::size_t i = 0; i < unplaced.size() && i < 10; ++i)
                list += (i ? ", " : "") + unplaced[i];
            if (unplaced.size() > 10)
                list += " and " + std::to_string(unplaced.size() - 10) + " more";
            fleet.summary.assumptions.push_back(
                std::to_string(unplaced.size()) +
                (unplaced.size() == 1 ? " GPU node" : " GPU nodes") + " under no switch of " +
                m_file + ", in racks of their own in name order: " + list);
        }
    }

    const std::string& m_file;
    std::size_t m_line = 0;
    std::size_t m_names = 0;
    std::map<std::string, Switch> m_switches;
};

}  // namespace

void applySlurmTopology(std::string_view text, const std::string& sourceName,
                        ImportedFleet& fleet) {
    TopologyReader(sourceName).read(text, fleet);
}

void readSlurmTopology(const std::filesystem::path& file, ImportedFleet& fleet) {
    applySlurmTopology(readTextFile(file), file.string(), fleet);
}

}  // namespace gpuplan
