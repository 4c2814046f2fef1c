#include "report_kpi_table.hpp"

#include <QBrush>
#include <QObject>

#include "tables/compare_table_model.hpp"

namespace gpuplan::report {

namespace {
using Model = ui::CompareTableModel;

QString cellText(const Model& model, int row, int column, int role = Qt::DisplayRole) {
    return model.data(model.index(row, column), role).toString();
}

/// "64 min" over "± 2.9 h": the value, with its interval's half-width over replications on
/// a line of its own (so neither is ever broken).
QString valueWithHalfWidth(const Model& model, int row, int column) {
    const QString half = cellText(model, row, column, Model::HalfWidthRole);
    return half.isEmpty() ? cellText(model, row, column)
                          : cellText(model, row, column) + QLatin1Char('\n') + half;
}

QColor deltaColor(const Model& model, int row) {
    const QVariant brush = model.data(model.index(row, Model::DeltaColumn), Qt::ForegroundRole);
    return brush.isValid() ? brush.value<QBrush>().color() : QColor(Qt::black);
}
}  // namespace

ReportTable kpiTable(const ReportInput& input) {
    Model model;
    model.setResults(input.results);
    model.setBaseline(input.baseline);
    model.setReplications(input.replications, input.baselineReplications);
    ReportTable table;
    const bool paired = input.baseline && input.replications && input.baselineReplications;
    if (!input.baseline) {
        table.header = {QObject::tr("KPI"), QObject::tr("Value"), QObject::tr("What it measures")};
        table.columnWeights = {20, 22, 58};
        table.alignment = {Qt::AlignLeft, Qt::AlignRight, Qt::AlignLeft};
    } else {
        table.header = {QObject::tr("KPI"), QObject::tr("Baseline"), QObject::tr("Current"),
                        QObject::tr("Δ")};
        table.columnWeights = {22, 20, 20, 14};
        table.alignment = {Qt::AlignLeft,  Qt::AlignRight, Qt::AlignRight,
                           Qt::AlignRight, Qt::AlignRight, Qt::AlignLeft};
        if (paired) {
            table.header << QObject::tr("95 % interval of Δ") << QObject::tr("95 %");
            table.columnWeights = {19, 18, 18, 11, 20, 14};
        }
    }
    for (int row = 0; row < model.rowCount(); ++row) {
        std::vector<TableCell> cells{{cellText(model, row, Model::KpiColumn)}};
        if (!input.baseline) {
            cells.push_back({valueWithHalfWidth(model, row, Model::CurrentColumn)});
            cells.push_back({cellText(model, row, Model::KpiColumn, Qt::ToolTipRole),
                             QColor(QStringLiteral("#404040"))});
        } else {
            cells.push_back({valueWithHalfWidth(model, row, Model::BaselineColumn)});
            cells.push_back({valueWithHalfWidth(model, row, Model::CurrentColumn)});
            cells.push_back({cellText(model, row, Model::DeltaColumn), deltaColor(model, row)});
            if (paired) {
                cells.push_back(
                    {cellText(model, row, Model::DeltaColumn, Model::DeltaIntervalRole)});
                cells.push_back({cellText(model, row, Model::SignificanceColumn)});
            }
        }
        table.rows.push_back(std::move(cells));
    }
    return table;
}

QString kpiTableNote(const ReportInput& input) {
    QString note;
    if (input.replications && input.replications->count > 1)
        note += QObject::tr(
                    "Values are means over %1 replications, ± the half-width of their "
                    "95 % confidence interval (Student t). ")
                    .arg(input.replications->count);
    if (input.baseline) {
        note += QObject::tr(
                    "Baseline: %1. Δ = current − baseline (percentage points for "
                    "shares); green is better, red worse.")
                    .arg(input.baselineName.isEmpty() ? QObject::tr("the pinned run")
                                                      : input.baselineName);
        if (input.replications && input.baselineReplications)
            note += ' ' + QObject::tr(
                              "Both ran on the same seeds: Δ is the mean paired "
                              "difference; \"significant\" when its 95 % interval holds "
                              "no 0, otherwise it may be noise (grey).");
    }
    note += ' ' + QObject::tr(
                      "Waits count jobs still waiting at the end with their wait so far "
                      "(a lower bound).");
    return note.trimmed();
}

}  // namespace gpuplan::report
