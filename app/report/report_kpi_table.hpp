// The report's KPI table, read from the Compare tab's model (widgets/compare_table_model.*):
// the same labels, values, deltas, colours and "significant" / "may be noise" as the window.
#pragma once

#include "report_canvas.hpp"
#include "report_input.hpp"

namespace gpuplan::report {

/// Every KPI of the run: label, value (± half-width of its 95 % interval over replications)
/// and what it measures; with a baseline its value, the delta and, over paired replications,
/// the delta's 95 % interval and whether it is significant.
ReportTable kpiTable(const ReportInput& input);

/// The sentence under the table that says how to read it.
QString kpiTableNote(const ReportInput& input);

}  // namespace gpuplan::report
