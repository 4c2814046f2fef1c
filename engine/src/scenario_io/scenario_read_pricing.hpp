// Reading a scenario's "pricing" section (gpuplan/model/pricing.hpp), checking a node group has a
// price, and reading how the fleet is bought ("onDemand", "buyingMix").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/scenario.hpp"
#include "io/json_reader.hpp"

namespace gpuplan::detail {

/// Reads the optional "pricing" object into s.pricing: the book's name and date, and per GPU
/// model of the catalog its USD per GPU-hour by buying class ("reserved", "on-demand",
/// "spot", "capacity-block", "on-prem"). Fails (InputError, with the JSON pointer) on an
/// unknown model or class, a model listed twice, a price out of range or a malformed date.
void readPricing(JsonObject& root, Scenario& s, const Catalog& catalog);

/// An entry's optional "notes" and "sources" (keys of the book's `sourceKeys`).
void readProvenance(JsonObject& o, const std::vector<std::string>& sourceKeys);

/// A list of {"gpuModel", "usdPerGpuHour": {class: price}} (and with `provenance`, each
/// entry's "sources" keys of `sourceKeys` and "notes"), shared by scenarios and price books.
std::vector<GpuPriceDef> readGpuPrices(const JsonNode& list, const Catalog& catalog,
                                       bool provenance,
                                       const std::vector<std::string>& sourceKeys = {});

/// What is wrong with a date, or nothing: "YYYY-MM-DD" (or with `monthOnly` also "YYYY-MM")
/// naming a real month and day of the calendar, leap years included ("2026-02-31" is not).
std::optional<std::string> dateProblem(const std::string& text, bool monthOnly);

/// With pricing, a node group of `gpuModel` bought as `buyingClass` needs a price: its own
/// usdPerGpuHour or the pricing's. Fails at `where` (the group's buyingClass, or the group)
/// when it has none.
void checkGroupPriced(const Scenario& s, const NodeGroupDef& group, const std::string& gpuModel,
                      const JsonNode& where);

/// Reads the optional "onDemand" object (provisioningDelayS required, idleTimeoutS) and
/// "buyingMix" object (reservedNodes, spotNodes: counts of nodes, at most the fleet's).
void readBuying(JsonObject& root, Scenario& s);

}  // namespace gpuplan::detail
