#include "export_controller.hpp"

#include <QDir>
#include <QRegularExpression>
#include <stdexcept>

#include "charts/chart_panel.hpp"
#include "gpuplan/export/results_io.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::app {

void exportResults(const Results& results, const QString& folder) {
    const std::filesystem::path dir = folder.toStdString();
    writeResultsCsv(results, dir);
    writeFileAtomic(dir / "results.json", resultsToJson(results));
}

QStringList exportCharts(const std::vector<ui::ChartPanel*>& charts, const QString& folder,
                         const QString& format, QSize size) {
    QStringList written;
    QDir().mkpath(folder);
    for (ui::ChartPanel* chart : charts) {
        QString stem = chart->title().toLower();
        stem.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
        const QString path = QDir(folder).filePath(stem + QLatin1Char('.') + format);
        const bool ok = format == QLatin1String("svg") ? chart->saveSvg(path, size)
                                                       : chart->toImage(size).save(path);
        if (!ok) throw std::runtime_error("cannot write " + path.toStdString());
        written << path;
    }
    return written;
}

}  // namespace gpuplan::app
