// The planning-meeting PDF (issue 13): every KPI label and value of the run is in the text
// poppler extracts (pdftotext), with a baseline and with replications; every page rasterises
// (pdftoppm); the cost chart and the price book's sources appear only for a priced run; a
// failed write leaves no file; File ▸ Export report writes the window's results.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "app_test_support.hpp"
#include "compare_table_model.hpp"
#include "gpuplan/replications.hpp"
#include "kpi_format.hpp"
#include "pending_reasons.hpp"
#include "report_export.hpp"
#include "report_writer.hpp"

using namespace gpuplan;
using namespace gpuplan::app;

namespace {

/// The default preset on 8 nodes for two days: a small run with work waiting.
Scenario smallScenario() {
    Scenario s = test::defaultPresetOnNodes(8);
    s.horizonS = 2 * 86400.0;
    return s;
}

/// poppler's tool, or a failed test: installers/dev.sh installs poppler-utils.
QString run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("<%1 failed: %2>")
            .arg(program, QString::fromUtf8(p.readAllStandardError()) + p.errorString());
    return QString::fromUtf8(p.readAllStandardOutput());
}

/// The PDF's text in the order it was drawn (each table cell whole), without whitespace, so
/// a label wrapped in its cell still reads as one.
QString pdfText(const QString& pdf) {
    QString text =
        run(QStringLiteral("pdftotext"), {QStringLiteral("-raw"), pdf, QStringLiteral("-")});
    text.remove(QRegularExpression(QStringLiteral("\\s+")));
    return text;
}

QString squeezed(QString s) {
    return s.remove(QRegularExpression(QStringLiteral("\\s+")));
}

/// Every page as a PNG: the count of pages that rasterised to something not blank.
int rasterisedPages(const QString& pdf, const QString& dir) {
    run(QStringLiteral("pdftoppm"), {QStringLiteral("-png"), QStringLiteral("-r"),
                                     QStringLiteral("30"), pdf, dir + QStringLiteral("/page")});
    int pages = 0;
    for (const QString& f : QDir(dir).entryList({QStringLiteral("page*.png")}, QDir::Files)) {
        const QImage image(QDir(dir).filePath(f));
        bool inked = false;
        for (int y = 0; y < image.height() && !inked; y += 2)
            for (int x = 0; x < image.width() && !inked; x += 2)
                inked = qGray(image.pixel(x, y)) < 128;
        pages += inked;
    }
    return pages;
}

}  // namespace

class ReportTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        // Fail, not skip: installers/dev.sh installs poppler-utils for this test.
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty(),
                 "pdftotext missing: install poppler-utils (installers/dev.sh does)");
        QVERIFY(!QStandardPaths::findExecutable(QStringLiteral("pdftoppm")).isEmpty());
    }

    void everyKpiLabelAndValueIsInTheTextWithABaselineAndReplications() {
        const Scenario candidate = smallScenario();
        Scenario baseline = candidate;
        baseline.demandMultiplier = 0.7;
        ReplicationOptions options;
        options.replications = 3;
        options.threads = 2;
        PairedComparison c = comparePaired(baseline, candidate, options);
        report::ReportInput input;
        input.scenario = candidate;
        input.scenarioName = QStringLiteral("small fleet");
        input.replications = std::make_shared<const Replications>(std::move(c.candidate));
        input.baselineReplications = std::make_shared<const Replications>(std::move(c.baseline));
        input.results = input.replications->first;
        input.baseline = input.baselineReplications->first;
        input.baselineName = QStringLiteral("less demand");
        input.presetsDir = test::kPresets.toStdString();
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
        const int pages = report::writeReportPdf(input, pdf);
        QVERIFY(pages >= 3);

        const QString text = pdfText(pdf);
        // The Compare tab's model says what each cell reads; the PDF must say the same.
        ui::CompareTableModel model;
        model.setResults(input.results);
        model.setBaseline(input.baseline);
        model.setReplications(input.replications, input.baselineReplications);
        QCOMPARE(model.rowCount(), static_cast<int>(input.results->kpis.size()));
        using M = ui::CompareTableModel;
        int significant = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            for (int column : {M::KpiColumn, M::BaselineColumn, M::CurrentColumn, M::DeltaColumn,
                               M::SignificanceColumn}) {
                const QString cell =
                    model.data(model.index(row, column), Qt::DisplayRole).toString();
                QVERIFY2(text.contains(squeezed(cell)), qPrintable(cell));
            }
            for (int column : {M::BaselineColumn, M::CurrentColumn}) {
                const QString half =
                    model.data(model.index(row, column), M::HalfWidthRole).toString();
                QVERIFY2(text.contains(squeezed(half)), qPrintable(half));
            }
            const QString interval =
                model.data(model.index(row, M::DeltaColumn), M::DeltaIntervalRole).toString();
            QVERIFY2(!interval.isEmpty() && text.contains(squeezed(interval)),
                     qPrintable(interval));
            significant +=
                model.data(model.index(row, M::SignificanceColumn), Qt::DisplayRole).toString() ==
                QStringLiteral("significant");
        }
        QVERIFY(significant > 0);  // 30 % less demand shows
        QVERIFY(text.contains(squeezed(QStringLiteral("Planning report: small fleet"))));
        QVERIFY(text.contains(squeezed(QStringLiteral("3 replications on seeds derived"))));
        QVERIFY(text.contains(squeezed(QStringLiteral("dashed: baseline"))));
        QVERIFY(text.contains(QStringLiteral("Whyjobswaited,bylayer")));
        QVERIFY(text.contains(QStringLiteral("page%1of%1").arg(pages)));
        QCOMPARE(rasterisedPages(pdf, dir.path()), pages);
    }

    void aPricedRunHasItsCostChartAndTheBooksSources() {
        report::ReportInput input;
        input.scenario = smallScenario();  // priced with Lambda's book, as the default preset
        QVERIFY(input.scenario.pricing);
        input.scenario.failures = FailureDef{};
        input.scenario.failures->repairS = 4 * 3600;
        input.results = std::make_shared<const Results>(simulate(input.scenario, RunOptions{}));
        input.presetsDir = test::kPresets.toStdString();
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("priced.pdf"));
        const int pages = report::writeReportPdf(input, pdf);
        const QString text = pdfText(pdf);
        for (const Kpi& k : input.results->kpis) {
            QVERIFY2(text.contains(squeezed(ui::kpiLabel(k.name))), k.name.c_str());
            QVERIFY2(text.contains(squeezed(ui::formatKpiValue(k))), k.name.c_str());
            QVERIFY2(text.contains(squeezed(QString::fromStdString(k.description))),
                     k.name.c_str());
        }
        QVERIFY(text.contains(squeezed(QStringLiteral("USD per hour, by buying class"))));
        QVERIFY(text.contains(squeezed(QStringLiteral("Price book \"Lambda list prices\""))));
        QVERIFY(text.contains(QStringLiteral("pricebooks/lambda.json")));
        QVERIFY(text.contains(QStringLiteral("https://github.com/skypilot-org/skypilot-catalog")));
        QVERIFY(text.contains(QStringLiteral("https://arxiv.org/abs/2407.21783")));
        QVERIFY(text.contains(squeezed(QStringLiteral("64 × NVIDIA H100 80GB SXM5"))));
        QCOMPARE(rasterisedPages(pdf, dir.path()), pages);

        // Unpriced: no cost KPIs, no cost chart, no price book.
        input.scenario.pricing.reset();
        input.scenario.failures.reset();
        input.results = std::make_shared<const Results>(simulate(input.scenario, RunOptions{}));
        QVERIFY(!input.results->fleet.priced);
        report::writeReportPdf(input, pdf);
        const QString unpriced = pdfText(pdf);
        QVERIFY(!unpriced.contains(squeezed(QStringLiteral("USD per hour, by buying class"))));
        QVERIFY(!unpriced.contains(QStringLiteral("Pricebook")));
        QVERIFY(!unpriced.contains(QStringLiteral("arxiv")));
        QVERIFY(unpriced.contains(squeezed(QStringLiteral("Fragmentation"))));
    }

    void aMixedPriceBookCitesEachBookItsPricesComeFrom() {
        // buying-mix.json prices reserved and on-demand H100s at Lambda's list prices and
        // spot at Crusoe's, under a name no book has: each book is cited for its prices.
        report::ReportInput input;
        input.scenario = loadScenario(test::kPresets.toStdString() + "/scenarios/buying-mix.json",
                                      test::catalog());
        input.scenario.horizonS = 86400;
        input.results = std::make_shared<const Results>(simulate(input.scenario, RunOptions{}));
        input.presetsDir = test::kPresets.toStdString();
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("mix.pdf"));
        report::writeReportPdf(input, pdf);
        const QString text = pdfText(pdf);
        QVERIFY(text.contains(squeezed(QStringLiteral(
            "(pricebooks/crusoe.json, as of 2026-03-03) lists h100-sxm spot $1.60/GPU-h"))));
        QVERIFY(text.contains(squeezed(QStringLiteral(
            "lists h100-sxm on-demand $2.99/GPU-h and h100-sxm reserved $1.85/GPU-h"))));
        QVERIFY(text.contains(QStringLiteral("https://github.com/dstackai/gpuhunt")));
        // Spot, on-demand scaling and failures, each with its source.
        QVERIFY(text.contains(QStringLiteral("https://aws.amazon.com/ec2/spot/instance-advisor/")));
        QVERIFY(text.contains(QStringLiteral("--scale-down-unneeded-time")));
        QVERIFY(text.contains(QStringLiteral("https://arxiv.org/abs/2407.21783")));
    }

    void pendingReasonsSumTheSamplesEachJobWaitedAt() {
        // One node of 8 GPUs for an hour, sampled every 10 min (t = 0, 10, …, 50 min). "huge"
        // asks 16 GPUs, which the fleet can never hold (reservation layer): listed at all 6
        // samples. first (8 GPUs) runs 0–30 min, then second (8) 30–40, then third (4) 40–50;
        // second and third wait for the node meanwhile (scheduling layer).
        Scenario s = test::defaultPresetOnNodes(1);
        s.horizonS = 3600;
        s.sampleIntervalS = 600;
        s.jobClasses.clear();
        s.jobs.clear();
        for (auto [name, gpus, durationS] :
             {std::tuple{"huge", 16, 600.0}, std::tuple{"first", 8, 1800.0},
              std::tuple{"second", 8, 600.0}, std::tuple{"third", 4, 600.0}}) {
            JobDef j;
            j.name = name;
            j.traits.team = "research";
            j.gpus = gpus;
            j.durationS = durationS;
            s.jobs.push_back(j);
        }
        const Results r = simulate(s, RunOptions{});
        QCOMPARE(r.sampleTimesS.size(), std::size_t{6});
        const auto reasons = report::topPendingReasons(r, 3);
        QCOMPARE(reasons.size(), std::size_t{3});
        // huge: "0/1 nodes are available: 1 Insufficient nvidia.com/gpu …" while the node is
        // busy (0–40 min: 5 samples × 1/6 h), "1/1 nodes are available. …" once it is free
        // (50 min: 1/6 h). Other words, so two reasons; reservation first (layer order).
        QCOMPARE(reasons[0].layer, Layer::Reservation);
        QCOMPARE(reasons[0].jobHours, 5 / 6.0);
        QVERIFY(reasons[0].reason.startsWith(QStringLiteral("0/1 nodes are available")));
        QCOMPARE(reasons[1].layer, Layer::Reservation);
        QCOMPARE(reasons[1].jobHours, 1 / 6.0);
        QCOMPARE(reasons[1].jobs, 1);
        // second waits at 0, 10, 20 min ("… the job asks 8 GPUs"), third at 0, 10, 20, 30
        // ("… asks 4 GPUs"): the same words with other numbers, one reason of 7 × 1/6 h for 2
        // jobs, shown in third's words (listed more often).
        QCOMPARE(reasons[2].layer, Layer::Scheduling);
        QCOMPARE(reasons[2].jobHours, 7 / 6.0);
        QCOMPARE(reasons[2].jobs, 2);
        QCOMPARE(reasons[2].similar, 1);
        QVERIFY(reasons[2].reason.contains(QStringLiteral("the job asks 4 GPUs")));
    }

    void aFailedWriteLeavesNoFile() {
        report::ReportInput input;
        input.scenario = smallScenario();
        input.results = std::make_shared<const Results>(simulate(input.scenario, RunOptions{}));
        QTemporaryDir dir;
        // A folder stands where the file would go: nothing is written, the error names it.
        const QString blocked = dir.filePath(QStringLiteral("blocked.pdf"));
        QVERIFY(QDir().mkdir(blocked));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, report::writeReportPdf(input, blocked));
        // In a folder that does not exist: no file, no temporary left behind.
        const QString missing = dir.filePath(QStringLiteral("nope/report.pdf"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, report::writeReportPdf(input, missing));
        QVERIFY(!QFile::exists(missing));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0);
    }

    void theFileMenuExportsTheWindowsReport() {
        test::Fixture f;
        bool found = false;
        for (QAction* a : f.window->findChildren<QAction*>())
            found |= a->text().contains(QStringLiteral("Export re&port"));
        QVERIFY(found);
        f.window->pinBaseline();
        auto* exporter = f.window->findChild<ReportExport*>();
        QVERIFY(exporter);
        const report::ReportInput input = exporter->inputFromWindow();
        QCOMPARE(input.results, f.window->results());
        QCOMPARE(input.baseline, f.window->baseline());
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("window.pdf"));
        QVERIFY(exporter->write(pdf));
        QVERIFY(f.status().contains(QStringLiteral("Report written to")));
        const QString text = pdfText(pdf);
        for (const Kpi& k : f.window->results()->kpis) {
            QVERIFY2(text.contains(squeezed(ui::kpiLabel(k.name))), k.name.c_str());
            QVERIFY2(text.contains(squeezed(ui::formatKpiValue(k))), k.name.c_str());
        }
        QVERIFY(text.contains(squeezed(f.window->baselineName())));
        // Writing over it again replaces it whole.
        QVERIFY(exporter->write(pdf));
        QVERIFY(rasterisedPages(pdf, dir.path()) >= 3);
    }
};

QTEST_MAIN(ReportTest)
#include "test_report.moc"
