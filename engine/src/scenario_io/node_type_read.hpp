// One node type from JSON: the catalog's entries and a scenario's own ("nodeTypes", e.g. an
// imported fleet's nodes with their CPU and memory) are read by the same rules.
#pragma once

#include "gpuplan/model/catalog.hpp"
#include "io/json_reader.hpp"

namespace gpuplan::detail {

enum class NodeTypeOrigin {
    Catalog,   ///< every field the catalog promises: name, NVLink domain, sources
    Scenario,  ///< name and NVLink domain optional (node, 1); no sources
};

/// The number at `key` in [min, max]; absent or null = nullopt.
std::optional<double> optionalNumber(JsonObject& o, std::string_view key, double min, double max);

/// Reads the fields of `o` (not its "id" or "sources"; the caller checks those) and finishes
/// nothing. The GPU model must be one of `catalog`'s.
NodeType readNodeType(JsonObject& o, const Catalog& catalog, NodeTypeOrigin origin);

}  // namespace gpuplan::detail
