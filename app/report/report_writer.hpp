// The planning-meeting report as a PDF (A4 portrait). Page 1 answers the meeting
// (report_page_one.hpp): the fleet counted from the fleet, what changed against the baseline,
// a per-team table and the costs over the span measured, each delta with its unit and coloured
// by its KPI's direction. Then the scenario in one paragraph, every KPI with the application's
// labels and formatting (against the baseline with the application's delta rule, with 95 %
// intervals over replications), the utilization, pending-by-layer, fragmentation and cost
// charts drawn as vectors, the top pending reasons by layer, and the assumptions with their
// sources. Used by File ▸ Export report and `gpuplan-cli report`. Draws Qt widgets: call it on
// the GUI thread of a QApplication.
#pragma once

#include <QString>
#include <functional>

#include "report_input.hpp"

namespace gpuplan::report {

/// Writes the report to `path` atomically: the file appears whole or not at all (an earlier
/// file is left as it was). `progress` gets the fraction done after each section. Returns the
/// number of pages; throws std::runtime_error naming the path when it cannot be written.
int writeReportPdf(const ReportInput& input, const QString& path,
                   const std::function<void(double)>& progress = {});

}  // namespace gpuplan::report
