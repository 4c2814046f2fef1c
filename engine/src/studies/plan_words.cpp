// A plan in words (gpuplan/studies/plan_words.hpp).
#include "gpuplan/studies/plan_words.hpp"

#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>

namespace gpuplan {

namespace {

/// A pointer's tokens ("/a/b/0" → a, b, 0), unescaped as RFC 6901 says (nlohmann's reading,
/// the one the scenario reader and the sweeps use); none for text that is no pointer.
std::vector<std::string> tokensOf(const std::string& pointer) {
    std::vector<std::string> out;
    try {
        nlohmann::json::json_pointer p(pointer);
        while (!p.empty()) {
            out.insert(out.begin(), p.back());
            p.pop_back();
        }
    } catch (const nlohmann::json::exception&) {
        out.clear();
    }
    return out;
}

std::optional<std::size_t> indexOf(const std::string& token) {
    std::size_t v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
    return v;
}

std::optional<long long> integerOf(const std::string& text) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

std::string nodeTypeName(const Scenario& s, const std::string& id) {
    const NodeType* t = s.findNodeType(id);
    return t && !t->name.empty() ? t->name : id;
}

/// What a known place holds, and the noun its count counts ("rack"), or nullopt.
struct Place {
    std::string where;  ///< "pod-a ▸ rack"
    std::string noun;   ///< "rack", "node", "pod", "reserved node", "GPU"; "" for a choice
    std::string each;   ///< what one of them is: "of 4 × DGX H100"
};

std::optional<Place> placeOf(const Scenario& s, const std::vector<std::string>& t) {
    const auto at = [&t](std::size_t i) { return i < t.size() ? indexOf(t[i]) : std::nullopt; };
    if (t.size() >= 4 && t[0] == "topology" && t[1] == "pods") {
        const auto p = at(2);
        if (!p || *p >= s.pods.size()) return std::nullopt;
        const PodDef& pod = s.pods[*p];
        if (t.size() == 4 && t[3] == "count") return Place{pod.name, "pod", ""};
        if (t.size() < 6 || t[3] != "racks") return std::nullopt;
        const auto r = at(4);
        if (!r || *r >= pod.racks.size()) return std::nullopt;
        const RackDef& rack = pod.racks[*r];
        const std::string where = pod.name + " ▸ " + rack.name;
        if (t.size() == 6 && t[5] == "count") {
            std::string each;
            for (const NodeGroupDef& g : rack.nodes)
                each += (each.empty() ? "of " : " + ") + std::to_string(g.count) + " × " +
                        nodeTypeName(s, g.nodeType);
            return Place{where, "rack", each};
        }
        if (t.size() != 8 || t[5] != "nodes") return std::nullopt;
        const auto g = at(6);
        if (!g || *g >= rack.nodes.size()) return std::nullopt;
        const NodeGroupDef& group = rack.nodes[*g];
        const std::string groupWhere = where + " ▸ " + group.name;
        if (t[7] == "count")
            return Place{groupWhere, "node", "of " + nodeTypeName(s, group.nodeType) + " per rack"};
        if (t[7] == "nodeType") return Place{groupWhere + "'s node type", "", ""};
        return std::nullopt;
    }
    if (t.size() == 2 && t[0] == "buyingMix" && t[1] == "reservedNodes")
        return Place{"the buying mix", "reserved node", ""};
    if (t.size() == 2 && t[0] == "buyingMix" && t[1] == "spotNodes")
        return Place{"the buying mix", "spot node", ""};
    if (t.size() == 5 && t[0] == "quotas" && t[2] == "flavors" && t[4] == "nominalGpus") {
        const auto q = at(1), f = at(3);
        if (!q || *q >= s.quotas.size() || !f || *f >= s.quotas[*q].flavors.size())
            return std::nullopt;
        return Place{
            "team " + s.quotas[*q].team + "'s quota of " + s.quotas[*q].flavors[*f].gpuModel, "GPU",
            ""};
    }
    return std::nullopt;
}

std::string counted(long long n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

std::string describePlanPlace(const Scenario& scenario, const std::string& pointer) {
    const std::optional<Place> p = placeOf(scenario, tokensOf(pointer));
    if (!p) return pointer;
    if (p->noun.empty()) return p->where;
    return p->noun + "s in " + p->where;
}

std::string describePlanChange(const Scenario& scenario, const std::string& pointer,
                               const std::string& before, const std::string& after) {
    const std::optional<Place> p = placeOf(scenario, tokensOf(pointer));
    const std::optional<long long> from = integerOf(before), to = integerOf(after);
    if (!p) {
        if (before == after) return pointer + ": " + after + ", unchanged";
        return pointer + ": " + before + " → " + after;
    }
    if (p->noun.empty() || !from || !to) {
        if (before == after) return p->where + ": " + after + ", unchanged";
        return p->where + ": " + nodeTypeName(scenario, before) + " → " +
               nodeTypeName(scenario, after);
    }
    if (*from == *to) return p->where + ": " + counted(*to, p->noun) + ", unchanged";
    const long long delta = *to - *from;
    const std::string change =
        (delta > 0 ? "+" : "−") + counted(delta > 0 ? delta : -delta, p->noun);
    return change + (p->each.empty() ? "" : " " + p->each) + " in " + p->where + " (" +
           std::to_string(*from) + " → " + std::to_string(*to) + ")";
}

}  // namespace gpuplan
