// gpuplan: the desktop application.
//   gpuplan [SCENARIO | --scenario FILE] [--screenshot out.png] [--size 1600x1000]
//           [--data-dir DIR] [--bench] [--present] [--version] [--help]
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QIcon>
#include <QMessageBox>
#include <QScreen>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>

#include "editors/time_scrubber.hpp"
#include "format/ui_palette.hpp"
#include "gpu_bench.hpp"
#include "main_window.hpp"
#include "paths.hpp"
#include "topology/topology_view.hpp"

using namespace gpuplan;

namespace {

/// gpuplan's command line, defined once: parsed by a QCoreApplication for --help and
/// --version (no display needed) and by the QApplication otherwise.
struct GuiOptions {
    QCommandLineOption scenario{QStringLiteral("scenario"),
                                QStringLiteral("Scenario file to open."), QStringLiteral("file")};
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QStringLiteral("Open, wait for results, save the window to PNG and exit."),
        QStringLiteral("png")};
    QCommandLineOption size{
        QStringLiteral("size"),
        QStringLiteral("Window size, e.g. 1280x720 (clamped to the screen's available area; "
                       "default 1600x1000)."),
        QStringLiteral("WxH")};
    QCommandLineOption dataDir{QStringLiteral("data-dir"),
                               QStringLiteral("Also look for trace files here."),
                               QStringLiteral("dir")};
    QCommandLineOption bench{QStringLiteral("bench"),
                             QStringLiteral("Run the GUI benchmarks and print their figures.")};
    QCommandLineOption palette{QStringLiteral("palette"),
                               QStringLiteral("Force a light or dark palette (Fusion style)."),
                               QStringLiteral("light|dark")};
    QCommandLineOption present{
        QStringLiteral("present"),
        QStringLiteral("Start in the presentation layout (View > Present).")};
    QCommandLineOption budgetGb{
        QStringLiteral("budget-gb"),
        QStringLiteral("Refuse scenarios whose run would need more memory (default 8)."),
        QStringLiteral("GB")};
    QCommandLineOption budgetOps{
        QStringLiteral("budget-ops"),
        QStringLiteral("Refuse scenarios whose run would take more work units (default 2e9)."),
        QStringLiteral("N")};

    void addTo(QCommandLineParser& cli) const {
        cli.setApplicationDescription(QStringLiteral("GPU-cluster what-if planner"));
        cli.addHelpOption();
        cli.addVersionOption();
        cli.addPositionalArgument(QStringLiteral("scenario"),
                                  QStringLiteral("Scenario file (default: the default preset)"),
                                  QStringLiteral("[scenario]"));
        cli.addOptions(
            {scenario, screenshot, size, dataDir, bench, palette, present, budgetGb, budgetOps});
    }
};

void nameApplication() {
    QCoreApplication::setApplicationName(QStringLiteral("gpuplan"));
    QCoreApplication::setOrganizationName(QStringLiteral("gpuplan"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GPUPLAN_VERSION));
}

/// --help and --version need no display: answered by a QCoreApplication, which exits.
void answerHelpAndVersionWithoutDisplay(int argc, char** argv) {
    bool asked = false;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--") break;
        asked |= arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" ||
                 arg == "-v" || arg == "--version";
    }
    if (!asked) return;
    QCoreApplication app(argc, argv);
    nameApplication();
    GuiOptions options;
    QCommandLineParser cli;
    options.addTo(cli);
    cli.process(app);  // prints and exits
}

/// The size asked for (--size, else 1600x1000), clamped to the screen's available area; an
/// unreadable --size is refused.
std::optional<QSize> windowSize(const QCommandLineParser& cli, const QCommandLineOption& option) {
    QSize size(1600, 1000);
    if (cli.isSet(option)) {
        const QStringList wh = cli.value(option).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2) size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || size.width() <= 0 || size.height() <= 0) return std::nullopt;
    }
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size());
    return size;
}

}  // namespace

int main(int argc, char** argv) {
    QElapsedTimer sinceStart;
    sinceStart.start();
    answerHelpAndVersionWithoutDisplay(argc, argv);
    QApplication qapp(argc, argv);
    nameApplication();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/gpuplan/gpuplan.svg")));
    QApplication::setDesktopFileName(QStringLiteral("gpuplan"));

    const GuiOptions options;
    QCommandLineParser cli;
    options.addTo(cli);
    cli.process(qapp);
    const auto& [scenarioOpt, shotOpt, sizeOpt, dataOpt, benchOpt, paletteOpt, presentOpt,
                 budgetGbOpt, budgetOpsOpt] = options;
    const std::optional<QSize> size = windowSize(cli, sizeOpt);
    if (!size) {
        std::fprintf(stderr,
                     "gpuplan: --size needs WIDTHxHEIGHT in pixels, e.g. 1280x720, got \"%s\"\n",
                     qPrintable(cli.value(sizeOpt)));
        return 2;
    }

    if (cli.isSet(paletteOpt))
        ui::applyPalette(qapp, cli.value(paletteOpt) == QLatin1String("dark"));
    const QString presetsDir = QString::fromStdString(paths::presetsDir().string());
    Catalog catalog;
    try {
        catalog = loadCatalog(paths::catalogFile());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuplan: %s\n", e.what());
        return 2;
    }
    LoadOptions loadOptions;
    for (const QString& d : cli.values(dataOpt))
        loadOptions.dataDirs.emplace_back(d.toStdString());
    for (const auto& d : paths::dataDirs())
        loadOptions.dataDirs.push_back(d);
    // The run budget, as gpuplan-cli takes it: a number above 0.
    for (const auto& [option, target, scale] :
         {std::tuple{&budgetGbOpt, &loadOptions.budget.memoryBytes, double(1ull << 30)},
          std::tuple{&budgetOpsOpt, &loadOptions.budget.workOps, 1.0}}) {
        if (!cli.isSet(*option)) continue;
        bool ok = false;
        const double value = cli.value(*option).toDouble(&ok);
        if (!ok || !std::isfinite(value) || value <= 0) {
            std::fprintf(stderr, "gpuplan: --%s needs a number above 0, got \"%s\"\n",
                         qPrintable(option->names().first()), qPrintable(cli.value(*option)));
            return 2;
        }
        *target = value * scale;
    }

    QString scenarioPath = cli.value(scenarioOpt);
    if (scenarioPath.isEmpty() && !cli.positionalArguments().isEmpty())
        scenarioPath = cli.positionalArguments().first();
    const bool fromPreset = scenarioPath.isEmpty();
    if (fromPreset) scenarioPath = presetsDir + QStringLiteral("/scenarios/default.json");

    if (cli.isSet(benchOpt))
        return app::runGuiBenchmarks(catalog, loadOptions, presetsDir, sinceStart);

    app::ScenarioDocument document(catalog, loadOptions);
    try {
        document.load(scenarioPath);
        if (fromPreset) document.reset(document.scenario(), QString());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuplan: %s\n", e.what());
        if (cli.isSet(shotOpt)) return 2;
        QMessageBox::critical(nullptr, QObject::tr("Cannot open scenario"),
                              QString::fromUtf8(e.what()));
        return 2;
    }

    app::MainWindow window(&document, presetsDir);
    window.fitToSize(*size);
    if (cli.isSet(presentOpt)) window.setPresenting(true);

    if (cli.isSet(shotOpt)) {
        const QString out = cli.value(shotOpt);
        QObject::connect(
            &window.session(), &app::Session::resultsApplied, &window,
            [&window, out] {
                // Let layouts settle and charts lay out at their final size, then grab.
                QTimer::singleShot(400, &window, [&window, out] {
                    // The moment with the longest queue shows the most: who waits and why.
                    const auto& r = *window.results();
                    double when = r.horizonS * 0.5;
                    if (const Series* q = r.findSeries("queue_length"); q && !q->values.empty()) {
                        const auto most = std::max_element(q->values.begin(), q->values.end()) -
                                          q->values.begin();
                        if (q->values[most] > 0) when = r.sampleTimesS[most] + 1;
                    }
                    window.scrubber()->setTime(when);
                    QApplication::processEvents();
                    const bool ok = window.grab().save(out);
                    std::fprintf(ok ? stdout : stderr,
                                 ok ? "screenshot: %s\n" : "cannot write %s\n", qPrintable(out));
                    QApplication::exit(ok ? 0 : 1);
                });
            },
            Qt::SingleShotConnection);
        window.show();
        window.simulation().runNow(document.scenario());
        return qapp.exec();
    }

    window.show();
    window.files().offerRecovery();
    window.files().startAutosave();
    window.simulation().runNow(document.scenario());
    return qapp.exec();
}
