#include "fill_study_view.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "charts/fill_curve_chart.hpp"

namespace gpuplan::app {

namespace fs = std::filesystem;

namespace {

QString pathText(const fs::path& p) {
    return QString::fromStdString(p.string());
}
fs::path toPath(const QString& s) {
    return fs::path(s.toStdString());
}

/// The first data folder holding openb/<name>.
std::optional<fs::path> findOpenb(const std::vector<fs::path>& dirs, const std::string& name) {
    for (const fs::path& d : dirs) {
        std::error_code ec;
        if (fs::is_regular_file(d / "openb" / name, ec)) return d / "openb" / name;
    }
    return std::nullopt;
}

/// The pod lists (openb_pod_list_*.csv) of the first data folder that has an openb folder.
std::vector<fs::path> openbPodLists(const std::vector<fs::path>& dirs) {
    std::vector<fs::path> out;
    for (const fs::path& d : dirs) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(d / "openb", ec)) {
            const std::string name = entry.path().filename().string();
            if (name.starts_with("openb_pod_list_") && name.ends_with(".csv"))
                out.push_back(entry.path());
        }
        if (!out.empty()) break;
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

FillStudyView::FillStudyView(std::vector<fs::path> dataDirs, QWidget* parent)
    : QDialog(parent), m_dataDirs(std::move(dataDirs)), m_runner(new FillStudyRunner(this)) {
    setWindowTitle(tr("Fill study"));
    setObjectName(QStringLiteral("fillStudy"));

    m_nodes = new QLineEdit(this);
    auto* nodesBrowse = new QPushButton(tr("Browse…"), this);
    auto* nodesRow = new QHBoxLayout;
    nodesRow->addWidget(m_nodes, 1);
    nodesRow->addWidget(nodesBrowse);
    m_pods = new QComboBox(this);
    m_pods->setToolTip(
        tr("The pods arrive one by one in a random order (the seed's) and never leave, "
           "resampled until their GPU demand is the tune × the fleet's GPU capacity."));
    auto* podsBrowse = new QPushButton(tr("Browse…"), this);
    auto* podsRow = new QHBoxLayout;
    podsRow->addWidget(m_pods, 1);
    podsRow->addWidget(podsBrowse);

    m_firstSeed = new QSpinBox(this);
    m_firstSeed->setRange(0, 1'000'000'000);
    m_firstSeed->setValue(42);
    m_seedCount = new QSpinBox(this);
    m_seedCount->setRange(1, 100);
    m_seedCount->setValue(10);
    m_seedCount->setSuffix(tr(" seeds"));
    m_tune = new QDoubleSpinBox(this);
    m_tune->setRange(0.1, 10);
    m_tune->setSingleStep(0.1);
    m_tune->setValue(1.3);
    m_tune->setToolTip(
        tr("Arrived GPU demand at the end, as a multiple of GPU capacity "
           "(the paper: 1.3)"));
    auto* seedsRow = new QHBoxLayout;
    seedsRow->addWidget(m_firstSeed);
    seedsRow->addWidget(m_seedCount);
    seedsRow->addSpacing(24);
    seedsRow->addWidget(new QLabel(tr("Tune:"), this));
    seedsRow->addWidget(m_tune);
    seedsRow->addStretch(1);

    auto* policiesRow = new QHBoxLayout;
    for (FillPolicy p : kFillPolicies) {
        auto* box = new QCheckBox(
            QString::fromUtf8(fillPolicyName(p).data(), static_cast<int>(fillPolicyName(p).size())),
            this);
        box->setChecked(true);
        m_policies.push_back(box);
        policiesRow->addWidget(box);
    }
    policiesRow->addStretch(1);

    auto* form = new QFormLayout;
    form->addRow(tr("Node list:"), nodesRow);
    form->addRow(tr("Pod list:"), podsRow);
    form->addRow(tr("Seeds from:"), seedsRow);
    form->addRow(tr("Policies:"), policiesRow);

    m_run = new QPushButton(tr("&Run"), this);
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    runRow->addWidget(m_progress, 1);

    m_chart = new ui::FillCurveChart(this);
    m_table = new QStandardItemModel(0, 3, this);
    m_table->setHorizontalHeaderLabels(
        {tr("Policy"), tr("Allocation at 100 % arrived"), tr("Seeds min – max")});
    m_tableView = new QTableView(this);
    m_tableView->setModel(m_table);
    m_tableView->resizeColumnsToContents();
    m_tableView->verticalHeader()->hide();
    m_tableView->horizontalHeader()->setStretchLastSection(true);
    m_tableView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Room for the six policies without scrolling.
    m_tableView->setMinimumHeight(m_tableView->horizontalHeader()->sizeHint().height() +
                                  6 * m_tableView->verticalHeader()->defaultSectionSize() +
                                  2 * m_tableView->frameWidth() + 4);
    m_tableView->setToolTip(
        tr("Allocation (% of GPU capacity) when the arrived GPU demand first reaches 100 % "
           "of capacity, the mean over the seeds: the paper's headline number."));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chart);
    split->addWidget(m_tableView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(runRow);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    resize(900, 760);

    if (const auto nodes = findOpenb(m_dataDirs, "openb_node_list_gpu_node.csv"))
        m_nodes->setText(pathText(*nodes));
    for (const fs::path& p : openbPodLists(m_dataDirs))
        m_pods->addItem(QString::fromStdString(p.filename().string()), pathText(p));
    const int preferred = m_pods->findText(QStringLiteral("openb_pod_list_default.csv"));
    if (preferred >= 0) m_pods->setCurrentIndex(preferred);
    m_status->setText(m_pods->count() > 0
                          ? tr("Choose the seeds and policies, then Run.")
                          : tr("No openb folder in the data folders: choose a node list and a "
                               "pod list with Browse…"));

    connect(nodesBrowse, &QPushButton::clicked, this, &FillStudyView::browseNodes);
    connect(podsBrowse, &QPushButton::clicked, this, &FillStudyView::browsePods);
    connect(m_run, &QPushButton::clicked, this, &FillStudyView::run);
    connect(m_cancel, &QPushButton::clicked, m_runner, &FillStudyRunner::cancel);
    connect(m_runner, &FillStudyRunner::progress, this,
            [this](double f) { m_progress->setValue(static_cast<int>(std::lround(f * 1000))); });
    connect(m_runner, &FillStudyRunner::finished, this, [this] {
        setRunning(false);
        showResults();
        const FillStudyRequest r = request();
        m_status->setText(tr("Done: %1 runs (%2 policies × %3 seeds) in %4 s.")
                              .arg(r.policies.size() * r.seeds)
                              .arg(r.policies.size())
                              .arg(r.seeds)
                              .arg(m_elapsed.elapsed() / 1000.0, 0, 'f', 1));
    });
    connect(m_runner, &FillStudyRunner::cancelled, this, [this] {
        setRunning(false);
        m_progress->setValue(0);
        m_status->setText(tr("Cancelled."));
    });
    connect(m_runner, &FillStudyRunner::failed, this, [this](const QString& message) {
        m_status->setText(tr("A run failed: %1").arg(message));
    });
}

void FillStudyView::setNodesFile(const fs::path& file) {
    m_nodes->setText(pathText(file));
}

void FillStudyView::setPodsFile(const fs::path& file) {
    const QString path = pathText(file);
    int i = m_pods->findData(path);
    if (i < 0) {
        m_pods->addItem(QString::fromStdString(file.filename().string()), path);
        i = m_pods->count() - 1;
    }
    m_pods->setCurrentIndex(i);
}

void FillStudyView::setSeeds(std::uint64_t first, int count) {
    m_firstSeed->setValue(static_cast<int>(first));
    m_seedCount->setValue(count);
}

void FillStudyView::setPolicies(const std::vector<FillPolicy>& policies) {
    for (std::size_t i = 0; i < m_policies.size(); ++i)
        m_policies[i]->setChecked(std::find(policies.begin(), policies.end(), kFillPolicies[i]) !=
                                  policies.end());
}

FillStudyRequest FillStudyView::request() const {
    FillStudyRequest r;
    r.nodesFile = toPath(m_nodes->text().trimmed());
    r.podsFile = toPath(m_pods->currentData().toString());
    for (std::size_t i = 0; i < m_policies.size(); ++i)
        if (m_policies[i]->isChecked()) r.policies.push_back(kFillPolicies[i]);
    r.firstSeed = static_cast<std::uint64_t>(m_firstSeed->value());
    r.seeds = m_seedCount->value();
    r.tune = m_tune->value();
    return r;
}

QString FillStudyView::status() const {
    return m_status->text();
}

void FillStudyView::run() {
    const FillStudyRequest r = request();
    if (r.nodesFile.empty() || r.podsFile.empty()) {
        m_status->setText(tr("Choose a node list and a pod list first."));
        return;
    }
    if (r.policies.empty()) {
        m_status->setText(tr("Tick at least one policy."));
        return;
    }
    m_elapsed.start();
    try {
        m_runner->start(r);
    } catch (const std::exception& e) {
        m_status->setText(QString::fromStdString(e.what()));
        return;
    }
    setRunning(true);
    m_status->setText(tr("Running %1 runs (%2 policies × %3 seeds) on %4 threads…")
                          .arg(r.policies.size() * r.seeds)
                          .arg(r.policies.size())
                          .arg(r.seeds)
                          .arg(QThread::idealThreadCount()));
}

void FillStudyView::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

void FillStudyView::showResults() {
    std::vector<ui::FillCurve> curves;
    m_table->setRowCount(0);
    for (const FillStudyPolicy& p : m_runner->results()) {
        const int index = static_cast<int>(
            std::find(std::begin(kFillPolicies), std::end(kFillPolicies), p.policy) -
            std::begin(kFillPolicies));
        ui::FillCurve c;
        c.label = QString::fromUtf8(fillPolicyName(p.policy).data(),
                                    static_cast<int>(fillPolicyName(p.policy).size()));
        c.color = ui::fillPolicyColor(index);
        for (std::size_t x = 0; x < p.meanAllocPctByArrivedPct.size(); ++x)
            if (std::isfinite(p.meanAllocPctByArrivedPct[x]))
                c.points.emplace_back(static_cast<double>(x), p.meanAllocPctByArrivedPct[x]);
        curves.push_back(c);

        const double mean = p.meanAllocPctAt100();
        const auto [lo, hi] = std::minmax_element(p.allocPctAt100.begin(), p.allocPctAt100.end());
        auto* name = new QStandardItem(c.label);
        name->setData(c.color,
                      Qt::DecorationRole);  // a swatch: pale line colours read badly as text
        auto* value = new QStandardItem(QString::number(mean, 'f', 2) + QStringLiteral(" %"));
        value->setData(mean, Qt::UserRole);
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* range =
            new QStandardItem(QStringLiteral("%1 – %2 %").arg(*lo, 0, 'f', 2).arg(*hi, 0, 'f', 2));
        range->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->appendRow({name, value, range});
    }
    m_chart->setCurves(curves);
    m_tableView->resizeColumnsToContents();
}

void FillStudyView::browseNodes() {
    const QString file = QFileDialog::getOpenFileName(this, tr("openb node list"), m_nodes->text(),
                                                      tr("CSV files (*.csv)"));
    if (!file.isEmpty()) m_nodes->setText(file);
}

void FillStudyView::browsePods() {
    const QString file = QFileDialog::getOpenFileName(
        this, tr("openb pod list"), m_pods->currentData().toString(), tr("CSV files (*.csv)"));
    if (!file.isEmpty()) setPodsFile(toPath(file));
}

}  // namespace gpuplan::app
