#include "report_writer.hpp"

#include <QApplication>
#include <QBuffer>
#include <QPdfWriter>
#include <QSaveFile>
#include <QStyle>
#include <memory>
#include <stdexcept>

#include "charts/chart_board.hpp"
#include "format/ui_palette.hpp"
#include "pending_reasons.hpp"
#include "report_assumptions.hpp"
#include "report_canvas.hpp"
#include "report_kpi_table.hpp"
#include "report_page_one.hpp"
#include "scenario_summary.hpp"

namespace gpuplan::report {

namespace {

// Charts are laid out at this size (as on screen) and scaled to the page's width.
const QSize kChartLayoutPx(780, 330);
const QColor kNoteColor(QStringLiteral("#505050"));

QString reportName(const ReportInput& input) {
    if (!input.scenarioName.isEmpty()) return input.scenarioName;
    return input.scenario.name.empty() ? QObject::tr("scenario")
                                       : QString::fromStdString(input.scenario.name);
}

/// `drawCharts` false: the same layout with the charts' places left empty (a counting pass).
void chartsSection(ReportCanvas& canvas, const ReportInput& input, bool drawCharts) {
    std::vector<ui::ChartPanel*> charts;
    std::unique_ptr<ui::ChartBoard> board;
    if (drawCharts) {
        board = std::make_unique<ui::ChartBoard>();
        // Paper is white: the light palette whatever the window's theme.
        board->setPalette(QApplication::style()->standardPalette());
        board->setResults(input.results);
        board->setReplications(input.replications);
        board->setBaseline(input.baseline, input.baselineName);
        charts = {board->utilization(), board->pendingByLayer(), board->fragmentation(),
                  board->cost()};
    }
    const int chartCount = input.results->fleet.priced ? 4 : 3;  // cost only when priced
    const double heightPt =
        canvas.contentWidthPt() * kChartLayoutPx.height() / kChartLayoutPx.width();
    // The heading, its notes and the first chart stay together.
    canvas.heading(QObject::tr("Charts"), heightPt + 40);
    if (input.baseline)
        canvas.paragraph(
            QObject::tr("The baseline (%1) is dashed beside each series.")
                .arg(input.baselineName.isEmpty() ? QObject::tr("pinned run") : input.baselineName),
            kNoteColor, 8);
    if (input.replications && input.replications->count > 1)
        canvas.paragraph(QObject::tr("Lines are means over the %1 replications, with their 95 % "
                                     "interval as a band.")
                             .arg(input.replications->count),
                         kNoteColor, 8);
    for (int i = 0; i < chartCount; ++i) {
        canvas.block(heightPt, [&](QPainter& painter, const QRectF& rect) {
            if (board) charts[i]->renderInto(painter, rect, kChartLayoutPx);
        });
        canvas.space(8);
    }
}

void pendingSection(ReportCanvas& canvas, const Results& results, int runs) {
    canvas.heading(QObject::tr("Why jobs waited, by layer"));
    const std::vector<PendingReason> reasons = topPendingReasons(results, 3);
    if (reasons.empty()) {
        canvas.paragraph(QObject::tr("No job waited at any sample of the measured window."));
        return;
    }
    canvas.paragraph(
        QObject::tr("What \"why is my job Pending?\" answered at each sample: each job is blamed "
                    "on the lowest layer that explains its wait, with the reason in "
                    "kube-scheduler's (or Kueue's) words; reasons that differ only in their "
                    "numbers count as one. Job-hours: jobs listed at a sample × the sample "
                    "interval, summed over the measured window; the three largest reasons per "
                    "layer.") +
            (runs > 1 ? QObject::tr(" From the first replication (the run the charts' "
                                    "baseline and the window draw).")
                      : QString()),
        kNoteColor, 8);
    ReportTable table;
    table.header = {QObject::tr("Layer"), QObject::tr("Reason"), QObject::tr("Job-hours"),
                    QObject::tr("Jobs")};
    table.columnWeights = {14, 62, 13, 11};
    table.alignment = {Qt::AlignLeft, Qt::AlignLeft, Qt::AlignRight, Qt::AlignRight};
    for (const PendingReason& r : reasons)
        table.rows.push_back(
            {{ui::layerName(r.layer), ui::layerColor(r.layer).darker(130), true},
             {(r.token.isEmpty() ? r.reason : r.token + QStringLiteral(": ") + r.reason) +
              (r.similar > 0 ? QObject::tr(" (and %1 like it with other numbers)").arg(r.similar)
                             : QString())},
             {QLocale().toString(r.jobHours, 'f', r.jobHours < 10 ? 1 : 0)},
             {QLocale().toString(r.jobs)}});
    canvas.table(table);
}

void assumptionsSection(ReportCanvas& canvas, const ReportInput& input) {
    const std::vector<Assumption> assumptions =
        assumptionsOf(input.scenario, *input.results, input.presetsDir);
    canvas.heading(QObject::tr("Assumptions and sources"));
    if (assumptions.empty()) {
        canvas.paragraph(
            QObject::tr("No prices, failures, spot or on-demand capacity, and no "
                        "shared GPUs: the run assumes none of them."));
        return;
    }
    for (const Assumption& a : assumptions) {
        canvas.keepRoom(48);  // the topic with two lines of its text at least
        canvas.paragraph(a.topic, Qt::black, ReportCanvas::kBodyPt, true);
        canvas.paragraph(a.text);
        for (const QString& source : a.sources)
            canvas.paragraph(QStringLiteral("• ") + source, kNoteColor, 8);
        canvas.space(2);
    }
}

/// Lays the report out on `writer`; returns its pages. `pageTotal` 0: the counting pass
/// (footers say "page N", charts are left out).
int paintReport(QPdfWriter& writer, const ReportInput& input, int pageTotal,
                const std::function<void(double)>& step) {
    const QString name = reportName(input);
    writer.setTitle(QObject::tr("gpuplan report: %1").arg(name));
    writer.setCreator(QStringLiteral("gpuplan " GPUPLAN_VERSION));
    const QString date = input.date.toString(Qt::ISODate);
    ReportCanvas canvas(
        writer,
        QStringLiteral("%1 · gpuplan %2 · %3").arg(name, QStringLiteral(GPUPLAN_VERSION), date));
    if (!canvas.isActive()) throw std::runtime_error("no PDF painter");
    canvas.setPageTotal(pageTotal);
    const int runs = input.replications ? input.replications->count : 1;
    // Page 1 answers the meeting; the dictionary of every KPI, the charts and the sources follow.
    pageOne(canvas, input);
    step(0.1);
    canvas.newPage();
    canvas.heading(QObject::tr("The scenario in detail"));
    canvas.paragraph(describeScenario(input.scenario, *input.results, runs));
    canvas.heading(QObject::tr("All KPIs"));
    canvas.table(kpiTable(input));
    canvas.paragraph(kpiTableNote(input), kNoteColor, 8);
    step(0.3);
    chartsSection(canvas, input, pageTotal > 0);
    step(0.8);
    pendingSection(canvas, *input.results, runs);
    assumptionsSection(canvas, input);
    const int pages = canvas.pageCount();
    if (!canvas.finish()) throw std::runtime_error("the PDF failed");
    return pages;
}

}  // namespace

int writeReportPdf(const ReportInput& input, const QString& path,
                   const std::function<void(double)>& progress) {
    if (!input.results) throw std::runtime_error("no results to report");
    auto step = [&](double fraction) {
        if (progress) progress(fraction);
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw std::runtime_error("cannot write " + path.toStdString() + ": " +
                                 file.errorString().toStdString());
    int pages = 0;
    try {
        // A first pass without charts counts the pages, for "page 2 of 5" in the footers: the
        // layout does not depend on what the charts draw.
        QBuffer counting;
        counting.open(QIODevice::WriteOnly);
        QPdfWriter countingWriter(&counting);
        const int total = paintReport(countingWriter, input, 0, [](double) {});
        QPdfWriter writer(&file);
        pages = paintReport(writer, input, total, step);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error("cannot write " + path.toStdString() + ": " + e.what());
    }
    if (!file.commit())
        throw std::runtime_error("cannot write " + path.toStdString() + ": " +
                                 file.errorString().toStdString());
    step(1);
    return pages;
}

}  // namespace gpuplan::report
