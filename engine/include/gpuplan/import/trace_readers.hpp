// Job traces read from their own formats (Philly CSV, openb pod lists) into TraceData.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan {

struct OpenbPod;  // gpuplan/model/openb.hpp

/// Reads a Philly-format CSV (timestamp,duration,num_gpus,gpu_time,cluster).
std::shared_ptr<const TraceData> readPhillyTrace(const std::filesystem::path& file);
std::shared_ptr<const TraceData> parsePhillyTrace(std::string_view text,
                                                  const std::string& sourceName);

/// An openb pod list replayed in time (TraceFormat::Openb; the rules are in openb_replay.cpp):
/// a job per GPU pod, CPU-only pods and pods without times counted and left out. Throws
/// InputError naming the file and line (or pod) when the list is malformed or has no pod to
/// replay.
std::shared_ptr<const TraceData> readOpenbTrace(const std::filesystem::path& file);
std::shared_ptr<const TraceData> parseOpenbTrace(std::string_view text,
                                                 const std::string& sourceName);
std::shared_ptr<const TraceData> openbTraceData(const std::vector<OpenbPod>& pods,
                                                const std::string& sourceName);

/// What a replay of the trace leaves out or reads simplified, in a sentence ("7,064 GPU pods
/// replayed (861 never scheduled: from creation to deletion); left out: 1,088 CPU-only
/// pods"); empty for a trace whose rows are all replayed as they are (Philly).
std::string describeTraceRows(const TraceData& data);

}  // namespace gpuplan
