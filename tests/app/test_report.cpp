// The planning-meeting PDF: every KPI label and value of the run is in the text
// poppler extracts (pdftotext), with a baseline and with replications; every page rasterises
// (pdftoppm); the cost chart and the price book's sources appear only for a priced run; a
// failed write leaves no file; File ▸ Export report writes the window's results.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "baseline_changes.hpp"
#include "fleet_description.hpp"
#include "format/kpi_format.hpp"
#include "gpuplan/studies/replications.hpp"
#include "pending_reasons.hpp"
#include "report/report_export.hpp"
#include "report_page_one.hpp"
#include "report_writer.hpp"
#include "tables/compare_table_model.hpp"

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

/// One page's text, squeezed as pdfText's.
QString pageText(const QString& pdf, int page) {
    QString text = run(QStringLiteral("pdftotext"),
                       {QStringLiteral("-raw"), QStringLiteral("-f"), QString::number(page),
                        QStringLiteral("-l"), QString::number(page), pdf, QStringLiteral("-")});
    return squeezed(text);
}

std::shared_ptr<const Results> simulated(const Scenario& s) {
    return std::make_shared<const Results>(simulate(s, RunOptions{}));
}

/// The default preset for two days, as read (2 pods, 8 racks, 32 DGX H100: 256 GPUs).
Scenario defaultForTwoDays() {
    Scenario s =
        loadScenario(test::kPresets.toStdString() + "/scenarios/default.json", test::catalog());
    s.horizonS = 2 * 86400.0;
    return s;
}

/// A team's KPI (gpuplan::teamKpiList's) in a run.
Kpi teamKpiOf(const Results& r, const std::string& team, const std::string& name) {
    for (const GroupKpis& g : r.teamKpis)
        if (g.name == team)
            for (const Kpi& k : teamKpiList(g))
                if (k.name == name) return k;
    return Kpi{name, std::nan(""), "", ""};
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
        QVERIFY(text.contains(
            squeezed(QStringLiteral("Planning report on scenario \u201csmall fleet\u201d"))));
        QVERIFY(text.contains(squeezed(QStringLiteral("3 replications on seeds derived"))));
        QVERIFY(text.contains(squeezed(QStringLiteral("dashed: baseline"))));
        QVERIFY(text.contains(QStringLiteral("Whyjobswaited,bylayer")));
        QVERIFY(text.contains(QStringLiteral("page%1of%1").arg(pages)));
        QCOMPARE(rasterisedPages(pdf, dir.path()), pages);
    }

    void pageOneSaysTheFleetWhatChangedAndEachTeamsFigures() {
        // The planner's question: one more rack in pod-a for 30 % more demand. The scenario's
        // name still says "256 × H100"; page 1 counts the fleet: 2 pods, pod-a 4 + 1 racks and
        // pod-b 4, 4 DGX H100 a rack: 9 racks, 36 nodes, 36 × 8 = 288 GPUs.
        const Scenario base = defaultForTwoDays();
        Scenario grown = base;
        grown.pods[0].racks[0].count += 1;
        grown.demandMultiplier = 1.3;
        report::ReportInput input;
        input.scenario = grown;
        input.scenarioName = QString::fromStdString(grown.name);
        QVERIFY(input.scenarioName.contains(QStringLiteral("256 × H100")));
        input.results = simulated(grown);
        input.baseline = simulated(base);
        input.baselineScenario = base;
        input.baselineName = QStringLiteral("today");
        input.presetsDir = test::kPresets.toStdString();
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("grown.pdf"));
        report::writeReportPdf(input, pdf);
        const QString page1 = pageText(pdf, 1);
        for (const char* said :
             {"288 GPUs: 36 × DGX H100 in 2 pods (9 racks)",
              "Baseline (\u201ctoday\u201d): 256 GPUs: 32 × DGX H100 in 2 pods (8 racks)",
              "What changed: +1 rack in pod-a (+4 × DGX H100, +32 GPUs); demand × 1.3.",
              "Cost over 2.0 d"})
            QVERIFY2(page1.contains(squeezed(QString::fromUtf8(said))), said);
        // Each team's row: its name, its values now and before, and each delta with its unit.
        const char* const columns[] = {"wait_s_p50", "wait_s_p95", "gpu_hours_allocated",
                                       "jobs_waiting_at_end", "allocation_share"};
        QCOMPARE(input.results->teamKpis.size(), std::size_t{4});
        for (const GroupKpis& team : input.results->teamKpis) {
            QVERIFY2(page1.contains(QString::fromStdString(team.name)), team.name.c_str());
            for (const char* kpi : columns) {
                const Kpi now = teamKpiOf(*input.results, team.name, kpi);
                const Kpi before = teamKpiOf(*input.baseline, team.name, kpi);
                const QString delta = ui::compareKpi(now, before).text;
                for (const QString& cell :
                     {ui::formatKpiValue(now), ui::formatKpiValue(before), delta})
                    QVERIFY2(
                        page1.contains(squeezed(cell)),
                        qPrintable(QString::fromStdString(team.name + " " + kpi + ": ") + cell));
            }
        }
        // The fleet's GPU-hours grow by thousands: "+2,345 GPU-h", never "+2345.0".
        const ui::KpiDelta hours = ui::compareKpi(*input.results->findKpi("gpu_hours_allocated"),
                                                  *input.baseline->findKpi("gpu_hours_allocated"));
        QVERIFY2(QRegularExpression(QStringLiteral("^\\+\\d{1,3}(,\\d{3})+ GPU-h$"))
                     .match(hours.text)
                     .hasMatch(),
                 qPrintable(hours.text));
        QVERIFY(page1.contains(squeezed(hours.text)));
        // Cost, idle cost and a useful GPU-hour's cost, before and after, with their deltas.
        for (const char* kpi : {"cost_usd", "idle_cost_usd", "usd_per_useful_gpu_h"}) {
            const Kpi& now = *input.results->findKpi(kpi);
            const Kpi& before = *input.baseline->findKpi(kpi);
            for (const QString& cell : {ui::formatKpiValue(now), ui::formatKpiValue(before),
                                        ui::formatKpiDelta(now, before)})
                QVERIFY2(page1.contains(squeezed(cell)), qPrintable(cell));
        }
        // The dictionary of every KPI comes after page 1.
        QVERIFY(!page1.contains(QStringLiteral("AllKPIs")));
        QVERIFY(pageText(pdf, 2).contains(QStringLiteral("AllKPIs")));
    }

    void pageOneOfThreeRacksAddedSaysTheNewCount() {
        // Three racks added to pod-a, the name unchanged. 256 + 3 × 4 × 8 =
        // 352 GPUs in 11 racks; no baseline, so no comparison, and the teams' current values.
        Scenario s = defaultForTwoDays();
        s.pods[0].racks[0].count += 3;
        report::ReportInput input;
        input.scenario = s;
        input.results = simulated(s);
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("three.pdf"));
        report::writeReportPdf(input, pdf);
        const QString page1 = pageText(pdf, 1);
        QVERIFY2(page1.contains(
                     squeezed(QStringLiteral("352 GPUs: 44 × DGX H100 in 2 pods (11 racks)"))),
                 qPrintable(page1));
        QVERIFY(page1.contains(squeezed(QStringLiteral("No baseline was given"))));
        for (const GroupKpis& team : input.results->teamKpis) {
            QVERIFY(page1.contains(QString::fromStdString(team.name)));
            QVERIFY(page1.contains(squeezed(
                ui::formatKpiValue(teamKpiOf(*input.results, team.name, "gpu_hours_allocated")))));
        }
        // Pod-b's last rack arrives on day 2: said, with its name.
        QVERIFY(
            page1.contains(squeezed(QStringLiteral("32 GPUs (pod-b-rack3) arrive at d2 00:00."))));
    }

    void pairedReplicationsGiveEachTeamsDeltaItsInterval() {
        Scenario base = test::defaultPresetOnNodes(8);
        base.horizonS = 86400;
        Scenario more = base;
        more.demandMultiplier = 1.5;
        ReplicationOptions options;
        options.replications = 3;
        options.threads = 2;
        PairedComparison c = comparePaired(base, more, options);
        report::ReportInput input;
        input.scenario = more;
        input.replications = std::make_shared<const Replications>(std::move(c.candidate));
        input.baselineReplications = std::make_shared<const Replications>(std::move(c.baseline));
        input.results = input.replications->first;
        input.baseline = input.baselineReplications->first;
        input.baselineScenario = base;
        // Baseline, current, Δ and the Δ's 95 % interval per team: the interval is
        // pairedTeamDifference's, and the values are the means over the three runs.
        const report::ReportTable table = report::teamTable(input);
        QCOMPARE(table.rowsPerGroup, 4);
        const std::string team = input.results->teamKpis.front().name;
        QCOMPARE(table.rows[0][0].text, QString::fromStdString(team));
        const auto d = pairedTeamDifference(*input.baselineReplications, *input.replications, team,
                                            "gpu_hours_allocated");
        QVERIFY(d && d->n == 3);
        const TeamEstimates* now = input.replications->findTeam(team);
        const Kpi mean{"gpu_hours_allocated", now->findKpi("gpu_hours_allocated")->interval.mean,
                       "gpu_h", ""};
        QCOMPARE(table.rows[1][4].text, ui::formatKpiValue(mean));  // GPU-hours, current
        // The interval is symmetric about the mean difference: "± 2,209 GPU-h".
        QCOMPARE(table.rows[3][4].text, ui::formatDeltaHalfWidth(mean, *d));
        QVERIFY(table.rows[3][4].text.endsWith(QStringLiteral(" GPU-h")));
        QCOMPARE(table.rows[3][1].text, QStringLiteral("± 95 %"));
        // The last group is the fleet's, its interval pairedDifference's.
        const auto fleet =
            pairedDifference(*input.baselineReplications, *input.replications, "wait_s_p95");
        QCOMPARE(table.rows[table.rows.size() - 4][0].text, QStringLiteral("All teams"));
        QCOMPARE(table.rows.back()[3].text,
                 ui::formatDeltaHalfWidth(*input.results->findKpi("wait_s_p95"), *fleet));
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("paired.pdf"));
        report::writeReportPdf(input, pdf);
        const QString page1 = pageText(pdf, 1);
        QVERIFY(page1.contains(squeezed(ui::formatDeltaHalfWidth(mean, *d))));
        // Page 1 holds the costs too, whatever the rows the intervals add.
        QVERIFY(page1.contains(QStringLiteral("Costover24.0h")));
        QVERIFY(page1.contains(squeezed(QStringLiteral("means of 3 runs on the same seeds"))));
    }

    void deltaColoursFollowEachKpisDirectionAndNoChangeIsGrey() {
        // Against itself: every delta reads zero and is grey (neutral), none green or red.
        report::ReportInput input;
        input.scenario = test::defaultPresetOnNodes(8);
        input.scenario.horizonS = 86400;
        input.results = simulated(input.scenario);
        input.baseline = input.results;
        input.baselineScenario = input.scenario;
        const QColor grey = ui::deltaToneColor(ui::DeltaTone::Neutral);
        const report::ReportTable same = report::teamTable(input);
        for (std::size_t r = 2; r < same.rows.size(); r += 3)
            for (std::size_t c = 2; c < same.rows[r].size(); ++c) {
                QVERIFY2(same.rows[r][c].text.startsWith(QStringLiteral("±")),
                         qPrintable(same.rows[r][c].text));
                QCOMPARE(same.rows[r][c].color, grey);
            }
        report::NodeTypeNames names;
        names.add(input.results->fleet);
        QCOMPARE(report::changesSentence(
                     report::compareWithBaseline(input.results->fleet, &input.scenario,
                                                 input.results->fleet, input.scenario, names)),
                 QStringLiteral("nothing: the same scenario"));
        // Half the nodes: waits grow (red), the fleet's allocation grows (green), a team's
        // GPU-hours have no better direction (grey).
        Scenario smaller = input.scenario;
        smaller.pods[0].racks[0].nodes[0].count = 4;
        input.results = simulated(smaller);
        input.scenario = smaller;
        const report::ReportTable half = report::teamTable(input);
        const std::vector<report::TableCell>& fleetDelta = half.rows.back();
        QCOMPARE(half.rows[half.rows.size() - 3][0].text, QStringLiteral("All teams"));
        auto toneOf = [&](const char* kpi) {
            return ui::compareKpi(*input.results->findKpi(kpi), *input.baseline->findKpi(kpi)).tone;
        };
        QCOMPARE(toneOf("wait_s_p95"), ui::DeltaTone::Worse);
        QCOMPARE(fleetDelta[3].color, ui::deltaToneColor(ui::DeltaTone::Worse));  // wait p95
        QCOMPARE(fleetDelta[4].color, grey);                                      // GPU-hours
        QCOMPARE(toneOf("allocation_mean"), ui::DeltaTone::Better);
        QCOMPARE(fleetDelta[6].color, ui::deltaToneColor(ui::DeltaTone::Better));  // share
    }

    void whatChangedIsSaidInWords() {
        // Each kind of change, alone, in the words page 1 uses.
        const Scenario base = defaultForTwoDays();
        auto said = [&](const Scenario& changed) {
            report::NodeTypeNames names;
            const Fleet a = Fleet::build(base), b = Fleet::build(changed);
            names.add(a);
            names.add(b);
            return report::changesSentence(
                report::compareWithBaseline(a, &base, b, changed, names));
        };
        Scenario s = base;
        s.pods.pop_back();  // pod-b: 3 racks of 4, and rack3 of 4: 16 nodes, 128 GPUs
        QCOMPARE(said(s), QStringLiteral("−pod pod-b (4 racks, 16 × DGX H100, 128 GPUs)"));
        s = base;
        s.pods[1].racks[0].nodes[0].buyingClass = BuyingClass::OnDemand;  // pod-b's 3 racks
        QCOMPARE(said(s), QStringLiteral("12 nodes (96 GPUs) reserved → on demand"));
        s = base;
        s.pods[1].racks[1].nodes[0].state = NodeState::Ready;  // rack3 there from the start
        QCOMPARE(said(s),
                 QStringLiteral("4 nodes (32 GPUs) delivered at d2 00:00 → there from the start"));
        s = base;
        s.scheduler.placement = PlacementPolicy::Spread;
        s.demandMultiplier = 0.8;
        QCOMPARE(said(s), QStringLiteral("demand × 0.8; placement spread (baseline pack)"));
        s = base;
        s.pricing->gpuModels[0].of(BuyingClass::Reserved) = 1.5;
        QCOMPARE(said(s),
                 QStringLiteral("H100 80GB SXM5 reserved $1.50/GPU-h (baseline $1.85/GPU-h)"));
        s = base;
        s.jobClasses[0].arrival.ratePerHour *= 2;
        s.jobClasses.pop_back();
        QVERIFY2(said(s).startsWith(QStringLiteral("job class pretrain: ")), qPrintable(said(s)));
        QVERIFY2(said(s).endsWith(QStringLiteral("; −job class notebook")), qPrintable(said(s)));
        s = base;
        s.quotas.push_back(QuotaDef{"research", "", {FlavorQuotaDef{"h100-sxm", 64, {}, {}}}});
        QCOMPARE(said(s), QStringLiteral("quota for research: 64 GPUs (none in the baseline)"));
        s = base;
        s.horizonS = 86400;
        s.failures = FailureDef{};
        QCOMPARE(said(s), QStringLiteral("simulated 24.0 h (baseline 2.0 d); random failures on "
                                         "(off in the baseline)"));
        // What the comparison does not name is still said to differ.
        s = base;
        s.scheduler.starvationWaitS = 3600;
        QCOMPARE(
            said(s),
            QStringLiteral("scheduler thresholds (grace, thrashing, starvation, elastic growth)"));
        // Without the baseline's scenario, the fleets alone.
        Scenario grown = base;
        grown.pods[0].racks[0].count += 2;
        grown.demandMultiplier = 1.3;
        report::NodeTypeNames names;
        const Fleet a = Fleet::build(base), b = Fleet::build(grown);
        names.add(a);
        const report::BaselineChanges fleetOnly =
            report::compareWithBaseline(a, nullptr, b, grown, names);
        QVERIFY(!fleetOnly.settingsCompared);
        QCOMPARE(report::changesSentence(fleetOnly),
                 QStringLiteral("+2 racks in pod-a (+8 × DGX H100, +64 GPUs)"));
    }

    void nodeTypesGoByTheirShortNames() {
        NodeType t;
        t.id = "dgx-h100";
        t.name = "NVIDIA DGX H100 / HGX H100 8-GPU server";
        QCOMPARE(report::shortNodeTypeName(t), QStringLiteral("DGX H100"));
        t.name = "NVIDIA HGX H200 8-GPU server (DGX H200 class)";
        QCOMPARE(report::shortNodeTypeName(t), QStringLiteral("HGX H200"));
        t.name = "AWS EC2 p5.48xlarge";
        QCOMPARE(report::shortNodeTypeName(t), QStringLiteral("AWS EC2 p5.48xlarge"));
        t.name.clear();
        QCOMPARE(report::shortNodeTypeName(t), QStringLiteral("dgx-h100"));

        // Past three node types (a node list's dozen) the headline counts them, and the GPU
        // models follow: 4 types of 1, 2, 3 and 4 nodes of 8 GPUs = 10 nodes, 80 GPUs, of
        // which the "B" type's 4 nodes are 32 GPUs of model B, the rest 48 of model A.
        GpuModel a, b;
        a.id = "a";
        a.name = "NVIDIA A";
        b.id = "b";
        b.name = "B";
        std::vector<NodeType> types;
        std::vector<FleetNode> nodes;
        for (int i = 0; i < 4; ++i) {
            NodeType type;
            type.id = "type" + std::to_string(i);
            type.gpuModel = i == 3 ? "b" : "a";
            types.push_back(type);
            for (int n = 0; n <= i; ++n) {
                FleetNode node;
                node.name = type.id + "-" + std::to_string(n);
                node.nodeType = i;
                node.gpuModel = i == 3 ? 1 : 0;
                node.gpus = 8;
                nodes.push_back(node);
            }
        }
        const Fleet fleet = Fleet::fromNodes({a, b}, types, nodes);
        report::NodeTypeNames names;
        names.add(fleet);
        QCOMPARE(report::fleetHeadline(fleet, names),
                 QStringLiteral("80 GPUs: 10 nodes of 4 types in 1 pod (1 rack)"));
        QVERIFY2(report::fleetDetails(fleet).startsWith(
                     QStringLiteral("GPUs by model: 48 × A and 32 × B.")),
                 qPrintable(report::fleetDetails(fleet)));
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
        f.window->session().pinBaseline();
        auto* exporter = f.window->findChild<ReportExport*>();
        QVERIFY(exporter);
        // The planner's edit after pinning: a rack more in pod-a, demand × 1.3. Page 1 says
        // so, from the scenario pinned with the baseline.
        const Scenario pinned = f.doc.scenario();
        Scenario grown = pinned;
        grown.pods[0].racks[0].count += 1;
        grown.demandMultiplier = 1.3;
        QVERIFY(f.doc.edit(grown, QStringLiteral("grow")).isEmpty());
        QVERIFY(f.waitForResults());
        const report::ReportInput input = exporter->inputFromWindow();
        QCOMPARE(input.results, f.window->results());
        QCOMPARE(input.baseline, f.window->baseline());
        QVERIFY(input.baselineScenario && *input.baselineScenario == pinned);
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("window.pdf"));
        QVERIFY(exporter->write(pdf));
        QVERIFY(f.status().contains(QStringLiteral("Report written to")));
        const QString text = pdfText(pdf);
        for (const Kpi& k : f.window->results()->kpis) {
            QVERIFY2(text.contains(squeezed(ui::kpiLabel(k.name))), k.name.c_str());
            QVERIFY2(text.contains(squeezed(ui::formatKpiValue(k))), k.name.c_str());
        }
        QVERIFY(text.contains(squeezed(f.window->session().baselineName())));
        const QString page1 = pageText(pdf, 1);
        QVERIFY2(page1.contains(squeezed(QStringLiteral(
                     "What changed: +1 rack in pod-a (+4 × DGX H100, +32 GPUs); demand × 1.3."))),
                 qPrintable(page1));
        QVERIFY(page1.contains(
            squeezed(QStringLiteral("288 GPUs: 36 × DGX H100 in 2 pods (9 racks)"))));
        // Writing over it again replaces it whole.
        QVERIFY(exporter->write(pdf));
        QVERIFY(rasterisedPages(pdf, dir.path()) >= 3);
    }

    void theBaselineScenarioIsTheOneItsResultsWereRunFrom() {
        // Pinned while an edit waits for its run, the baseline keeps the scenario of the
        // results on screen, not the document's newer one: a long debounce holds the second of
        // two quick edits back (the first runs at once, the second waits for the window).
        test::Fixture f;
        f.window->simulation().setDebounceMs(60'000);
        Scenario first = f.doc.scenario();
        first.demandMultiplier = 1.2;
        Scenario second = first;
        second.demandMultiplier = 1.4;
        QVERIFY(f.doc.edit(first, QStringLiteral("first")).isEmpty());
        QVERIFY(f.waitForResults());                                      // the first edit's run
        QVERIFY(f.doc.edit(second, QStringLiteral("second")).isEmpty());  // waits its turn
        f.window->session().pinBaseline();
        QCOMPARE(f.window->baseline(), f.window->results());
        QVERIFY(f.doc.scenario() == second);
        QVERIFY(f.window->session().baselineScenario() &&
                *f.window->session().baselineScenario() == first);
    }
};

GPUPLAN_APP_TEST("test_report", ReportTest);
#include "test_report.moc"
