// The fleet in words, counted from the built fleet (never from a scenario's name, which an
// edit does not change): "320 GPUs: 40 × DGX H100 in 2 pods (10 racks)", how it is bought,
// what arrives late and how its GPUs are shared. The report's page 1 and its comparison with
// the baseline read node types by the short names made here.
#pragma once

#include <QString>
#include <map>
#include <string>

#include "gpuplan/results/results.hpp"

namespace gpuplan::report {

/// A node type's name as a meeting says it: "DGX H100" for "NVIDIA DGX H100 / HGX H100 8-GPU
/// server" (the vendor, alternatives after " / ", a bracketed remark and "8-GPU server" left
/// out); its id when it has no name.
QString shortNodeTypeName(const NodeType& type);

/// Node type id → the name to show, short where that is unambiguous among the fleets given
/// (two types both "DGX A100" keep their full names).
class NodeTypeNames {
public:
    void add(const Fleet& fleet);
    QString operator()(const std::string& nodeTypeId) const;

private:
    std::map<std::string, NodeType> m_types;
};

/// Node types a headline names; past this many it counts them ("1,213 nodes of 15 types").
inline constexpr std::size_t kNamedNodeTypes = 3;

/// "320 GPUs: 40 × DGX H100 in 2 pods (10 racks)"; up to kNamedNodeTypes node types by count,
/// the most first.
QString fleetHeadline(const Fleet& fleet, const NodeTypeNames& names);

/// How the fleet is bought, delivered and shared, in a sentence or two (and its GPU models when
/// the headline could not name its node types): "256 GPUs reserved,
/// 64 on demand. 32 GPUs (pod-b-rack3) arrive at d2 00:00. MIG on 4 nodes (…)." Empty for
/// a fleet all reserved, all there from the start, all whole GPUs.
QString fleetDetails(const Fleet& fleet);

/// "on demand", "capacity block": a buying class in words.
QString buyingClassWords(BuyingClass c);

/// "1 rack", "2 racks", with thousands separators.
QString countOf(long long n, const QString& one, const QString& many);

}  // namespace gpuplan::report
