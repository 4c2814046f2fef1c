// Page 1 of the report, what a planning meeting reads: the fleet as it is (counted from the
// fleet), what changed against the baseline in words, a per-team table (waits, GPU-hours,
// jobs still waiting, share of the fleet: baseline, current and Δ, with the paired interval
// over replications) and what the fleet cost over the span measured. The KPI dictionary,
// charts and sources follow on the next pages.
#pragma once

#include "report_canvas.hpp"
#include "report_input.hpp"

namespace gpuplan::report {

/// The title block and page 1's sections; the caller goes on to a new page.
void pageOne(ReportCanvas& canvas, const ReportInput& input);

/// Each team's row (a group of rows with a baseline), then the fleet's.
ReportTable teamTable(const ReportInput& input);

/// Cost, idle cost and the cost of a useful GPU-hour (a priced run's), with their deltas.
ReportTable costTable(const ReportInput& input);

}  // namespace gpuplan::report
