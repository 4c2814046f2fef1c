// gpuplan-cli report: the planning-meeting PDF (app/report), from a scenario run here, against
// a baseline on the same seeds when there are replications (as `compare`).
#include <cstdio>
#include <memory>

#include "cli_common.hpp"
#include "cli_outputs.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "gpuplan/studies/replications.hpp"

#ifdef GPUPLAN_HAVE_REPORT
#include <QApplication>
#include <QString>
#include <stdexcept>

#include "report_writer.hpp"
#endif

namespace gpuplan::cli {

const char* const kReportUsage =
    "usage: gpuplan-cli report SCENARIO [--baseline OTHER] [--replications N] [--threads K]\n"
    "                          --out REPORT.pdf\n"
    "\n"
    "Runs SCENARIO and writes a PDF for a planning meeting. Page 1: the fleet (counted from\n"
    "its racks and nodes), what changed against the baseline, each team's waits, GPU-hours,\n"
    "jobs still waiting and share of the fleet, and the costs over the span simulated. Then\n"
    "the scenario in one paragraph, every KPI, the utilization, pending-by-layer,\n"
    "fragmentation and (priced) cost charts, the top pending reasons by layer and the\n"
    "assumptions with their sources. The file is written atomically. Needs a gpuplan-cli\n"
    "built with the application (GPUPLAN_BUILD_APP=ON).\n"
    "  --baseline OTHER  also run OTHER and compare: what changed, its value and the delta\n"
    "                    per KPI and team, dashed beside each chart's series\n"
    "  --replications N  run N seeds (1 to 10000; default: the scenario's \"replications\"):\n"
    "                    KPIs as means with their 95 % intervals; with --baseline both run on\n"
    "                    the baseline's seeds and each delta gets its paired interval\n"
    "  --threads K       threads for replications (default: every core)\n"
    "  --out FILE        the PDF to write (required)\n"
    "  Options of run: --data-dir, --presets, --catalog, --pricebook, --budget-gb, --budget-ops\n";

namespace {

#ifdef GPUPLAN_HAVE_REPORT
/// The runs behind the report: one each, or replications (paired with the baseline's).
struct ReportRuns {
    std::shared_ptr<const Results> results, baseline;
    std::shared_ptr<const Replications> replications, baselineReplications;
};

ReportRuns runForReport(const Scenario& scenario, const Scenario* baseline,
                        const ReplicationOptions& options) {
    ReportRuns runs;
    if (options.replications <= 1) {
        runs.results = std::make_shared<const Results>(simulate(scenario, RunOptions{}));
        if (baseline)
            runs.baseline = std::make_shared<const Results>(simulate(*baseline, RunOptions{}));
        return runs;
    }
    if (baseline) {
        PairedComparison c = comparePaired(*baseline, scenario, options);
        runs.replications = std::make_shared<const Replications>(std::move(c.candidate));
        runs.baselineReplications = std::make_shared<const Replications>(std::move(c.baseline));
        runs.baseline = runs.baselineReplications->first;
    } else {
        runs.replications =
            std::make_shared<const Replications>(runReplications(scenario, options));
    }
    runs.results = runs.replications->first;
    return runs;
}

QString nameOf(const Scenario& scenario, const std::filesystem::path& file) {
    return QString::fromStdString(scenario.name.empty() ? file.stem().string() : scenario.name);
}
#endif

}  // namespace

int reportCommand(Args& args) {
    CommonOptions common;
    std::optional<std::filesystem::path> scenarioFile, baselineFile, outFile;
    ReplicationOptions options;
    options.replications = 0;  // not asked for: the scenario's
    while (!args.done()) {
        if (args.common(common)) continue;
        if (args.at("--baseline")) {
            baselineFile = args.value("--baseline");
        } else if (args.at("--replications")) {
            options.replications = static_cast<int>(args.integer("--replications", 1, 10000));
        } else if (args.at("--threads")) {
            options.threads = static_cast<int>(args.integer("--threads", 1, 1024));
        } else if (args.at("--out")) {
            outFile = args.value("--out");
        } else {
            args.scenario(scenarioFile);
        }
    }
#ifndef GPUPLAN_HAVE_REPORT
    (void)scenarioFile;
    (void)baselineFile;
    (void)outFile;
    std::fputs(
        "gpuplan-cli report: this gpuplan-cli was built without the application "
        "(GPUPLAN_BUILD_APP=OFF), and the report is drawn by Qt. Build with "
        "-DGPUPLAN_BUILD_APP=ON, or use File > Export report in gpuplan.\n",
        stderr);
    return kBadInput;
#else
    if (!scenarioFile) throw UsageError{"no scenario given"};
    if (!outFile) throw UsageError{"--out REPORT.pdf is required"};
    checkOutputFile("--out", *outFile);  // before a long run, not after it
    const Scenario scenario = loadScenarioFor(*scenarioFile, common);
    const std::optional<Scenario> baseline =
        baselineFile ? std::optional(loadScenarioFor(*baselineFile, common)) : std::nullopt;
    if (options.replications == 0) options.replications = scenario.replications;
    if (options.threads > 0 && options.replications <= 1)
        throw UsageError{"--threads goes with --replications (one run uses one thread)"};
    checkReplicationsBudget(scenario, std::max(1, options.replications), *scenarioFile, common);
    if (baseline)
        checkReplicationsBudget(*baseline, std::max(1, options.replications), *baselineFile,
                                common);
    const ReportRuns runs = runForReport(scenario, baseline ? &*baseline : nullptr, options);

    // Qt draws the report: an application for this command only, offscreen without a display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt's own warnings (the offscreen platform's "does not support propagateSizeHints()", a
    // missing XDG_RUNTIME_DIR) say nothing about the report: only errors are shown.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& text) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::fprintf(stderr, "error: %s\n", qPrintable(text));
    });
    static int qtArgc = 1;
    static char qtArg0[] = "gpuplan-cli";
    static char* qtArgv[] = {qtArg0, nullptr};
    QApplication app(qtArgc, qtArgv);

    report::ReportInput input;
    input.scenario = scenario;
    input.scenarioName = nameOf(scenario, *scenarioFile);
    input.results = runs.results;
    input.replications = runs.replications;
    input.baseline = runs.baseline;
    input.baselineReplications = runs.baselineReplications;
    if (baseline) {
        input.baselineName = nameOf(*baseline, *baselineFile);
        input.baselineScenario = *baseline;  // page 1 says what changed
    }
    input.presetsDir = presetsDirFor(common);
    const QString out = QString::fromStdString(outFile->string());
    try {
        const int pages = report::writeReportPdf(input, out);
        std::printf("report written to %s: %d pages\n", outFile->c_str(), pages);
    } catch (const std::runtime_error& e) {
        throw OutputError{e.what()};
    }
    return kOk;
#endif
}

}  // namespace gpuplan::cli
