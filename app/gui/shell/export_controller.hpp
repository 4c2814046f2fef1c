// Exports: results as CSV (one file per series, all series, per-job records) plus the KPIs as
// JSON; charts as PNG or SVG.
#pragma once

#include <QSize>
#include <QString>
#include <memory>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {
class ChartPanel;
}

namespace gpuplan::app {

/// Writes series CSVs, jobs.csv and results.json into `folder`. Throws std::runtime_error.
void exportResults(const Results& results, const QString& folder);
/// Writes each chart as <title>.png or .svg into `folder`; returns the files written.
QStringList exportCharts(const std::vector<ui::ChartPanel*>& charts, const QString& folder,
                         const QString& format, QSize size = QSize(1200, 600));

}  // namespace gpuplan::app
