#include "study_dock.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <cmath>
#include <filesystem>

#include "charts/study_chart.hpp"
#include "format/kpi_format.hpp"
#include "gpuplan/core/statistics.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "shell/dock_host.hpp"
#include "shell/file_controller.hpp"
#include "shell/scenario_document.hpp"
#include "shell/session.hpp"

namespace gpuplan::app {

namespace {

constexpr int kMaxValues = 1000;

/// A typed value as JSON text: a number as it reads, anything else a string.
QString jsonValue(const QString& token) {
    bool number = false;
    token.toDouble(&number);
    if (number) return token;
    if (token == QLatin1String("true") || token == QLatin1String("false")) return token;
    return QString::fromUtf8(QJsonDocument(QJsonArray{token}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

/// "0.5, 1, 1.5", "1..8" or "0.5..2 step 0.25" as JSON texts, or the reason they are not.
std::variant<QStringList, QString> parseValues(const QString& text) {
    QStringList out;
    for (QString token : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        token = token.trimmed();
        if (token.isEmpty()) continue;
        const int dots = token.indexOf(QStringLiteral(".."));
        if (dots > 0) {
            // A range: from..to [step s], both ends included.
            const QStringList parts = token.mid(dots + 2).split(QStringLiteral("step"));
            bool okFrom = false, okTo = false, okStep = true;
            const double from = token.left(dots).trimmed().toDouble(&okFrom);
            const double to = parts[0].trimmed().toDouble(&okTo);
            const double step = parts.size() > 1 ? parts[1].trimmed().toDouble(&okStep) : 1;
            if (!okFrom || !okTo || !okStep || parts.size() > 2)
                return QObject::tr("\"%1\" is not a range like 1..8 or 0.5..2 step 0.25")
                    .arg(token);
            if (!(step > 0) || to < from)
                return QObject::tr("\"%1\": a range goes up by a step above 0").arg(token);
            const double count = std::floor((to - from) / step + 1e-9) + 1;
            if (count > kMaxValues)
                return QObject::tr("\"%1\" makes more than %2 values").arg(token).arg(kMaxValues);
            for (int i = 0; i < static_cast<int>(count); ++i)
                out << QString::number(from + i * step, 'g', 15);
            continue;
        }
        out << jsonValue(token);
    }
    if (out.isEmpty()) return QObject::tr("type the values, e.g. 0.5, 1, 1.5 or 1..8");
    if (out.size() > kMaxValues) return QObject::tr("more than %1 values").arg(kMaxValues);
    return out;
}

}  // namespace

StudyDock::StudyDock(Session& session, DockHost& host)
    : QDockWidget(tr("Study"), host.dockWindow()), m_session(&session), m_doc(session.document()) {
    setObjectName(QStringLiteral("study"));
    auto* body = new QWidget(this);
    m_parameter = new QComboBox(body);
    m_parameter->setToolTip(tr("What the study varies in the open scenario"));
    m_pointer = new QLineEdit(body);
    m_pointer->setPlaceholderText(tr("JSON pointer, e.g. /scheduler/placement"));
    m_values = new QLineEdit(QStringLiteral("0.5, 1, 1.5"), body);
    m_values->setToolTip(
        tr("Values: a list (0.5, 1, 1.5 — words are strings: pack, spread) or "
           "ranges (1..8, 0.5..2 step 0.25)"));
    m_replications = new QSpinBox(body);
    m_replications->setRange(1, 1000);
    m_replications->setValue(3);
    m_replications->setToolTip(tr("Seeds per value; every value runs the same seeds"));
    m_kpis = new QListWidget(body);
    m_kpis->setMaximumHeight(120);
    for (const char* kpi : {"wait_s_p95", "allocation_mean", "wait_s_mean", "goodput",
                            "jobs_completed", "pending_gpus_mean", "cost_usd", "idle_cost_usd"}) {
        auto* item = new QListWidgetItem(ui::kpiLabel(kpi), m_kpis);
        item->setData(Qt::UserRole, QString::fromLatin1(kpi));
        item->setCheckState(std::string_view(kpi) == "wait_s_p95" ||
                                    std::string_view(kpi) == "allocation_mean"
                                ? Qt::Checked
                                : Qt::Unchecked);
    }
    m_run = new QPushButton(tr("Run"), body);
    m_cancel = new QPushButton(tr("Cancel"), body);
    m_cancel->setEnabled(false);
    m_save = new QPushButton(tr("Save as sweep…"), body);
    m_save->setToolTip(tr("A sweep file gpuplan-cli sweep runs (also in shards on a cluster)"));
    m_progressBar = new QProgressBar(body);
    m_progressBar->setRange(0, 1000);
    m_progressBar->setVisible(false);
    m_status = new QLabel(body);
    m_status->setWordWrap(true);
    m_chart = new ui::StudyChart(body);

    auto* form = new QFormLayout;
    form->addRow(tr("Vary"), m_parameter);
    form->addRow(tr("Pointer"), m_pointer);
    form->addRow(tr("Values"), m_values);
    form->addRow(tr("Replications"), m_replications);
    form->addRow(tr("KPIs"), m_kpis);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_save);
    form->addRow(buttons);
    form->addRow(m_progressBar);
    form->addRow(m_status);
    auto* side = new QWidget(body);
    side->setLayout(form);
    side->setMaximumWidth(380);
    auto* row = new QHBoxLayout(body);
    row->addWidget(side);
    row->addWidget(m_chart, 1);
    setWidget(body);
    host.addBottomTab(this, [] { return 420; });

    fillParameters();
    connect(m_doc, &ScenarioDocument::changed, this, &StudyDock::fillParameters);
    connect(m_doc, &ScenarioDocument::replaced, this, &StudyDock::fillParameters);
    connect(m_parameter, &QComboBox::currentIndexChanged, this, [this] {
        const QString pointer = m_parameter->currentData().toString();
        m_pointer->setEnabled(pointer.isEmpty());  // "Other": the user types it
        if (!pointer.isEmpty()) m_pointer->setText(pointer);
    });
    connect(m_run, &QPushButton::clicked, this, &StudyDock::run);
    connect(m_cancel, &QPushButton::clicked, this, &StudyDock::cancel);
    connect(m_chart, &ui::StudyChart::pointClicked, this, &StudyDock::applyPoint);
    connect(m_save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save the study as a sweep file"),
            FileController::lastFolder(FolderPurpose::Scenarios) + QStringLiteral("/study.json"),
            tr("Sweep (*.json)"));
        if (path.isEmpty()) return;
        const QString refusal = saveSweep(path);
        m_status->setText(refusal.isEmpty()
                              ? tr("Saved %1: gpuplan-cli sweep %1 --out DIR runs it.").arg(path)
                              : tr("Not saved: %1").arg(refusal));
    });
    m_study.onProgress([this](double f) { m_progressBar->setValue(static_cast<int>(1000 * f)); });
    m_study.onFinished([this](Outcome out, bool stopped) { done(out, stopped); });
}

StudyDock::~StudyDock() = default;  // the runs stop within milliseconds

QString StudyDock::status() const {
    return m_status->text();
}

void StudyDock::fillParameters() {
    // The places worth varying in this scenario, by their JSON pointers (scenario_write's
    // layout: pods, racks and node groups, quotas and flavors in the scenario's order).
    const Scenario& s = m_doc->scenario();
    // Keep the user's choice across edits ("Other" included); the first fill picks demand.
    const bool filled = m_parameter->count() > 0;
    const QString kept = m_parameter->currentData().toString();
    const QSignalBlocker block(m_parameter);
    m_parameter->clear();
    m_parameter->addItem(tr("Demand ×"), QStringLiteral("/demandMultiplier"));
    for (std::size_t p = 0; p < s.pods.size(); ++p)
        for (std::size_t r = 0; r < s.pods[p].racks.size(); ++r) {
            const QString rack = QStringLiteral("/topology/pods/%1/racks/%2").arg(p).arg(r);
            m_parameter->addItem(tr("Racks: %1 ▸ %2")
                                     .arg(QString::fromStdString(s.pods[p].name),
                                          QString::fromStdString(s.pods[p].racks[r].name)),
                                 rack + QStringLiteral("/count"));
            for (std::size_t g = 0; g < s.pods[p].racks[r].nodes.size(); ++g)
                m_parameter->addItem(
                    tr("Nodes per rack: %1 ▸ %2 ▸ %3")
                        .arg(QString::fromStdString(s.pods[p].name),
                             QString::fromStdString(s.pods[p].racks[r].name),
                             QString::fromStdString(s.pods[p].racks[r].nodes[g].name)),
                    rack + QStringLiteral("/nodes/%1/count").arg(g));
        }
    if (s.buyingMix) {
        m_parameter->addItem(tr("Reserved nodes (buying mix)"),
                             QStringLiteral("/buyingMix/reservedNodes"));
        m_parameter->addItem(tr("Spot nodes (buying mix)"), QStringLiteral("/buyingMix/spotNodes"));
    }
    for (std::size_t q = 0; q < s.quotas.size(); ++q)
        for (std::size_t f = 0; f < s.quotas[q].flavors.size(); ++f)
            m_parameter->addItem(tr("Quota: %1 (%2 GPUs)")
                                     .arg(QString::fromStdString(s.quotas[q].team),
                                          QString::fromStdString(s.quotas[q].flavors[f].gpuModel)),
                                 QStringLiteral("/quotas/%1/flavors/%2/nominalGpus").arg(q).arg(f));
    m_parameter->addItem(tr("Warm-up (s)"), QStringLiteral("/warmupS"));
    m_parameter->addItem(tr("Other (JSON pointer)…"), QString());
    const int again = filled ? m_parameter->findData(kept) : -1;
    m_parameter->setCurrentIndex(again >= 0 ? again : 0);
    const QString pointer = m_parameter->currentData().toString();
    m_pointer->setEnabled(pointer.isEmpty());
    if (!pointer.isEmpty()) m_pointer->setText(pointer);
}

std::variant<SweepSpec, QString> StudyDock::spec() const {
    SweepSpec spec;
    spec.sourceName = "study";
    const QString pointer = m_pointer->text().trimmed();
    if (!pointer.startsWith(QLatin1Char('/')))
        return tr("pointer: a JSON pointer starts with / (e.g. /demandMultiplier)");
    const auto values = parseValues(m_values->text());
    if (const QString* why = std::get_if<QString>(&values)) return tr("values: %1").arg(*why);
    spec.pointers = {pointer.toStdString()};
    for (const QString& v : std::get<QStringList>(values))
        spec.points.push_back({v.toStdString()});
    spec.replications = m_replications->value();
    spec.scenarioJson = scenarioToJson(m_doc->scenario());
    // Relative trace files are found beside the scenario's file, or in the data folders.
    spec.scenarioFile = m_doc->filePath().isEmpty()
                            ? std::filesystem::path("scenario.json")
                            : std::filesystem::path(m_doc->filePath().toStdString());
    return spec;
}

void StudyDock::run() {
    if (m_study.isRunning()) return;
    auto made = spec();
    if (const QString* why = std::get_if<QString>(&made)) {
        m_status->setText(tr("Not run: %1").arg(*why));
        return;
    }
    m_running = std::get<SweepSpec>(std::move(made));
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progressBar->setValue(0);
    m_progressBar->setVisible(true);
    m_status->setText(tr("Running %n run(s)…", nullptr, static_cast<int>(m_running.runCount())));
    // The worker owns copies; the catalog and load options outlive it (the document's).
    m_study.start([spec = m_running, &catalog = m_doc->catalog(),
                   load = m_doc->loadOptions()](const JobControl& job) {
        Outcome out;
        try {
            SweepOptions options;
            options.run.checkInvariants = false;
            out.runs =
                runSweep(spec, catalog, load, options, job.progressCallback(), job.stopToken());
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    });
}

void StudyDock::cancel() {
    m_study.cancel();
}

void StudyDock::done(const Outcome& out, bool stopped) {
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progressBar->setVisible(false);
    if (!out.error.isEmpty()) {
        m_status->setText(tr("Not run: %1").arg(out.error));
        emit finished(false);
        return;
    }
    if (stopped || out.runs.empty()) {
        m_status->setText(tr("Study cancelled; the chart shows the last one finished."));
        emit finished(false);
        return;
    }
    // Per point, per chosen KPI: the mean of its replications and its interval.
    const std::size_t points = m_running.points.size();
    std::vector<double> x(points);
    QStringList labels;
    bool numeric = true;
    for (std::size_t p = 0; p < points; ++p) {
        bool ok = false;
        x[p] = QString::fromStdString(m_running.points[p][0]).toDouble(&ok);
        numeric &= ok;
        labels << QString::fromStdString(m_running.points[p][0]).remove(QLatin1Char('"'));
    }
    if (!numeric)
        for (std::size_t p = 0; p < points; ++p)
            x[p] = static_cast<double>(p);
    std::vector<ui::StudyChart::Curve> curves;
    ConfidenceIntervals intervals;
    for (int i = 0; i < m_kpis->count(); ++i) {
        const QListWidgetItem* item = m_kpis->item(i);
        if (item->checkState() != Qt::Checked) continue;
        const std::string kpi = item->data(Qt::UserRole).toString().toStdString();
        ui::StudyChart::Curve c;
        c.kpi = QString::fromStdString(kpi);
        std::vector<std::vector<double>> byPoint(points);
        for (const SweepRun& r : out.runs)
            for (const auto& [name, value] : r.kpis)
                if (name == kpi) byPoint[r.point].push_back(value);
        if (const Results* results = m_session->results().get())
            if (const Kpi* k = results->findKpi(kpi)) c.unit = QString::fromStdString(k->unit);
        bool any = false;
        for (const auto& values : byPoint) {
            const MeanInterval m = intervals.of(values);
            c.mean.push_back(m.mean);
            c.low.push_back(m.low);
            c.high.push_back(m.high);
            any |= m.n > 0;
        }
        if (any) curves.push_back(std::move(c));
    }
    m_chart->setCurves(QString::fromStdString(m_running.pointers[0]), x,
                       numeric ? QStringList() : labels, std::move(curves));
    m_status->setText(tr("%n run(s) done. Click a point to make the scenario that value.", nullptr,
                         static_cast<int>(out.runs.size())));
    emit finished(true);
}

void StudyDock::applyPoint(int point) {
    if (point < 0 || point >= static_cast<int>(m_running.points.size())) return;
    // The value set into the scenario as it is now (edits since the study are kept).
    SweepSpec one = m_running;
    one.points = {m_running.points[static_cast<std::size_t>(point)]};
    one.scenarioJson = scenarioToJson(m_doc->scenario());
    const QString label =
        tr("Study: %1 = %2")
            .arg(QString::fromStdString(one.pointers[0]), QString::fromStdString(one.points[0][0]));
    try {
        const Scenario after = scenarioAtPoint(one, 0, m_doc->catalog(), m_doc->loadOptions());
        const QString refusal = m_doc->edit(after, label);
        emit message(refusal.isEmpty() ? label : tr("Refused: %1").arg(refusal));
    } catch (const std::exception& e) {
        emit message(tr("Refused: %1").arg(QString::fromUtf8(e.what())));
    }
}

QString StudyDock::saveSweep(const QString& path) const {
    if (m_doc->filePath().isEmpty())
        return tr("save the scenario first: the sweep file names it by its path");
    auto made = spec();
    if (const QString* why = std::get_if<QString>(&made)) return *why;
    const SweepSpec& s = std::get<SweepSpec>(made);
    const std::filesystem::path folder = std::filesystem::path(path.toStdString()).parent_path();
    QJsonArray values;
    for (const auto& point : s.points)
        values.append(QJsonDocument::fromJson(QByteArray::fromStdString("[" + point[0] + "]"))
                          .array()
                          .first());
    QJsonObject parameter{{"pointer", QString::fromStdString(s.pointers[0])}, {"values", values}};
    const QJsonObject root{{"format", "gpuplan-sweep"},
                           {"formatVersion", 1},
                           {"scenario", QString::fromStdString(std::filesystem::relative(
                                                                   m_doc->filePath().toStdString(),
                                                                   folder.empty() ? "." : folder)
                                                                   .generic_string())},
                           {"replications", s.replications},
                           {"parameters", QJsonArray{parameter}}};
    try {
        writeFileAtomic(path.toStdString(), QJsonDocument(root).toJson().toStdString());
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace gpuplan::app
