#include "buying_mix_controls.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>

#include "format/kpi_format.hpp"
#include "gpuplan/economics/buying_mix_sweep.hpp"

namespace gpuplan::app {

namespace {
constexpr double kMinuteS = 60;

QDoubleSpinBox* durationBox(QWidget* parent, const QString& suffix, int decimals) {
    auto* box = new QDoubleSpinBox(parent);
    box->setDecimals(decimals);
    // Past any sensible value, so that the reader refuses one out of its range with its own
    // reason (the bounds live in the engine only).
    box->setRange(0, 1e9);
    box->setSuffix(suffix);
    box->setKeyboardTracking(false);
    return box;
}
}  // namespace

BuyingMixControls::BuyingMixControls(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_onDemand(kDefaultMixOnDemand) {
    m_spot.returnS = kStartSpotReturnS;
    m_mixOn = new QCheckBox(tr("Mix by node order"), this);
    m_mixOn->setToolTip(
        tr("On: the first nodes (in fleet order) reserved, the next on spot, the rest on demand,\n"
           "in place of each node group's class. Off: each group's own class."));
    auto slider = [this] {
        auto* s = new QSlider(Qt::Horizontal, this);
        s->setMinimumWidth(60);
        return s;
    };
    m_reservedSlider = slider();
    m_reservedBox = new QSpinBox(this);
    m_spotSlider = slider();
    m_spotBox = new QSpinBox(this);
    for (QSpinBox* b : {m_reservedBox, m_spotBox})
        b->setKeyboardTracking(false);
    m_reservedSlider->setToolTip(tr("Nodes bought reserved, from the first in fleet order"));
    m_spotSlider->setToolTip(tr("Nodes bought on spot, after the reserved ones"));
    m_mixText = new QLabel(this);
    m_breakeven = new QLabel(this);

    m_elastic = new QCheckBox(tr("Elastic on demand"), this);
    m_elastic->setToolTip(
        tr("On-demand nodes start unprovisioned, are requested for queued jobs (Ready after the\n"
           "provisioning delay), given back after the idle timeout, and paid only while up."));
    m_delayS = durationBox(this, tr(" s"), 0);
    m_delayS->setToolTip(tr("Request to Ready. Clouds publish no figure: set your provider's."));
    m_idleMin = durationBox(this, tr(" min"), 1);
    m_idleMin->setToolTip(
        tr("Idle time before a node is given back. Default 10 min: cluster-autoscaler's\n"
           "--scale-down-unneeded-time."));

    m_ceilingSlider = slider();
    m_ceilingBox = new QSpinBox(this);
    m_ceilingBox->setKeyboardTracking(false);
    for (QWidget* w : {static_cast<QWidget*>(m_ceilingSlider), static_cast<QWidget*>(m_ceilingBox)})
        w->setToolTip(
            tr("The most on-demand nodes up or requested at once (cluster-autoscaler's\n"
               "--max-nodes-total). At the top: every on-demand node of the fleet."));

    m_spotOn = new QCheckBox(tr("Spot reclaims"), this);
    m_spotOn->setToolTip(
        tr("Spot nodes are reclaimed at random with a notice; a job that can\n"
           "checkpoint within the notice does, the others lose unsaved work."));
    m_sharePct = durationBox(this, tr(" %/month"), 1);
    m_sharePct->setToolTip(
        tr("AWS Spot Advisor's frequency of interruption: the share of instances reclaimed in a\n"
           "month. Its buckets: <5 %, 5–10 %, 10–15 %, 15–20 %, >20 %. GPU figures are not\n"
           "published."));
    m_noticeS = durationBox(this, tr(" s"), 0);
    m_noticeS->setToolTip(tr("Notice before a reclaim: AWS 120 s, GCP and Azure 30 s."));
    m_returnMin = durationBox(this, tr(" min"), 1);
    m_returnMin->setToolTip(
        tr("From a reclaim to the next spot instance Ready in its place. No published figure:\n"
           "the box starts at %1 min.")
            .arg(kStartSpotReturnS / kMinuteS));

    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->setVisible(false);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(2);
    grid->addWidget(m_mixOn, 0, 0, 1, 2);
    grid->addWidget(m_breakeven, 0, 2, 1, 4);
    grid->addWidget(new QLabel(tr("Reserved"), this), 1, 0);
    grid->addWidget(m_reservedSlider, 1, 1, 1, 4);
    grid->addWidget(m_reservedBox, 1, 5);
    grid->addWidget(new QLabel(tr("Spot"), this), 2, 0);
    grid->addWidget(m_spotSlider, 2, 1, 1, 4);
    grid->addWidget(m_spotBox, 2, 5);
    grid->addWidget(m_mixText, 3, 0, 1, 6);
    grid->addWidget(m_elastic, 4, 0, 1, 2);
    grid->addWidget(new QLabel(tr("delay"), this), 4, 2);
    grid->addWidget(m_delayS, 4, 3);
    grid->addWidget(new QLabel(tr("idle"), this), 4, 4);
    grid->addWidget(m_idleMin, 4, 5);
    grid->addWidget(new QLabel(tr("Ceiling"), this), 5, 0);
    grid->addWidget(m_ceilingSlider, 5, 1, 1, 4);
    grid->addWidget(m_ceilingBox, 5, 5);
    grid->addWidget(m_spotOn, 6, 0, 1, 2);
    grid->addWidget(new QLabel(tr("rate"), this), 6, 2);
    grid->addWidget(m_sharePct, 6, 3, 1, 3);
    grid->addWidget(new QLabel(tr("notice"), this), 7, 2);
    grid->addWidget(m_noticeS, 7, 3);
    grid->addWidget(new QLabel(tr("back"), this), 7, 4);
    grid->addWidget(m_returnMin, 7, 5);
    grid->addWidget(m_refusal, 8, 0, 1, 6);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(9, 1);

    connect(m_mixOn, &QCheckBox::clicked, this, [this](bool on) {
        // Turning it on keeps the amounts the groups buy now.
        commit(setMixByNodeOrder(m_doc->scenario(), on,
                                 BuyingMixDef{m_fleet.reservedNodes, m_fleet.spotNodes}));
    });
    // Sliders: the label follows the hand; the edit (and the run) waits for the release.
    connect(m_reservedSlider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker b(m_reservedBox);
        m_reservedBox->setValue(v);
        showMixText();
        if (!m_reservedSlider->isSliderDown()) commitReserved(v);  // keyboard, wheel, setValue
    });
    connect(m_reservedSlider, &QSlider::sliderReleased, this,
            [this] { commitReserved(m_reservedSlider->value()); });
    connect(m_reservedBox, &QSpinBox::valueChanged, this, [this](int v) { commitReserved(v); });
    connect(m_spotSlider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker b(m_spotBox);
        m_spotBox->setValue(v);
        showMixText();
        if (!m_spotSlider->isSliderDown()) commitSpot(v);
    });
    connect(m_spotSlider, &QSlider::sliderReleased, this,
            [this] { commitSpot(m_spotSlider->value()); });
    connect(m_spotBox, &QSpinBox::valueChanged, this, [this](int v) { commitSpot(v); });

    connect(m_elastic, &QCheckBox::clicked, this,
            [this](bool on) { commit(setElasticOnDemand(m_doc->scenario(), on, m_onDemand)); });
    connect(m_delayS, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        commit(setProvisioningDelayS(m_doc->scenario(), v),
               ScenarioDocument::kMergeProvisioningDelay);
    });
    connect(m_idleMin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        commit(setIdleTimeoutS(m_doc->scenario(), v * kMinuteS),
               ScenarioDocument::kMergeIdleTimeout);
    });
    connect(m_ceilingSlider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker b(m_ceilingBox);
        m_ceilingBox->setValue(v);
        if (!m_ceilingSlider->isSliderDown()) commitCeiling(v);
    });
    connect(m_ceilingSlider, &QSlider::sliderReleased, this,
            [this] { commitCeiling(m_ceilingSlider->value()); });
    connect(m_ceilingBox, &QSpinBox::valueChanged, this, [this](int v) { commitCeiling(v); });
    connect(m_spotOn, &QCheckBox::clicked, this,
            [this](bool on) { commit(setSpotReclaims(m_doc->scenario(), on, m_spot)); });
    connect(m_sharePct, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        commit(setSpotMonthlyInterruption(m_doc->scenario(), v / 100),
               ScenarioDocument::kMergeSpotShare);
    });
    connect(m_noticeS, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        commit(setSpotNoticeS(m_doc->scenario(), v), ScenarioDocument::kMergeSpotNotice);
    });
    connect(m_returnMin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        commit(setSpotReturnS(m_doc->scenario(), v * kMinuteS), ScenarioDocument::kMergeSpotReturn);
    });
    connect(m_doc, &ScenarioDocument::changed, this, [this] {
        syncFromDocument();
        m_refusal->setVisible(false);  // a refusal is about the scenario it was refused on
    });
    syncFromDocument();
}

void BuyingMixControls::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    const Kpi* k = m_results ? m_results->findKpi("breakeven_utilization") : nullptr;
    // Beside the reserved count: a reservation used more than this beats on demand.
    m_breakeven->setText(k ? tr("break-even utilisation %1").arg(ui::formatKpiValue(*k))
                           : QString());
    m_breakeven->setToolTip(k ? QString::fromStdString(k->description) : QString());
}

QString BuyingMixControls::mixText() const {
    return m_mixText->text();
}

QString BuyingMixControls::breakevenText() const {
    return m_breakeven->text();
}

QString BuyingMixControls::refusal() const {
    return m_refusal->isVisible() ? m_refusal->text() : QString();
}

int BuyingMixControls::currentReservedNodes() const {
    const auto& mix = m_doc->scenario().buyingMix;
    return mix ? mix->reservedNodes : m_fleet.reservedNodes;
}

QString BuyingMixControls::commit(const MixEdit& edit, int mergeKey) {
    const QString reason = m_doc->edit(edit.after, edit.text, mergeKey);
    m_refusal->setText(reason);
    m_refusal->setVisible(!reason.isEmpty());
    if (!reason.isEmpty()) syncFromDocument();  // show what the document still holds
    emit message(reason.isEmpty() ? edit.text : tr("Refused: %1").arg(reason));
    return reason;
}

void BuyingMixControls::commitReserved(int reservedNodes) {
    const Scenario& s = m_doc->scenario();
    if (!s.buyingMix || s.buyingMix->reservedNodes == reservedNodes) return;
    MixEdit e = setMixReservedNodes(s, reservedNodes);
    // Spot comes out of the rest (the spot slider's range): more reserved, fewer spot.
    e.after.buyingMix->spotNodes =
        std::min(e.after.buyingMix->spotNodes, std::max(0, m_fleet.nodes - reservedNodes));
    commit(e, ScenarioDocument::kMergeReservedNodes);
}

void BuyingMixControls::commitSpot(int spotNodes) {
    const Scenario& s = m_doc->scenario();
    if (!s.buyingMix || s.buyingMix->spotNodes == spotNodes) return;
    commit(setMixSpotNodes(s, spotNodes), ScenarioDocument::kMergeSpotNodes);
}

void BuyingMixControls::commitCeiling(int maxNodes) {
    const Scenario& s = m_doc->scenario();
    if (!s.onDemand) return;
    const std::optional<int> ceiling =
        maxNodes >= m_fleet.onDemandNodes ? std::nullopt : std::optional<int>(maxNodes);
    if (s.onDemand->maxNodes == ceiling) return;
    commit(setOnDemandCeiling(s, ceiling), ScenarioDocument::kMergeOnDemandCeiling);
}

void BuyingMixControls::showMixText() {
    const int reserved = m_reservedSlider->value(), spot = m_spotSlider->value();
    const int onDemand = std::max(0, m_fleet.nodes - reserved - spot);
    m_mixText->setText(
        tr("%1 reserved · %2 spot · %3 on demand of %4 nodes%5")
            .arg(reserved)
            .arg(spot)
            .arg(onDemand)
            .arg(m_fleet.nodes)
            .arg(m_doc->scenario().buyingMix ? QString() : tr(" (the node groups' classes)")));
}

void BuyingMixControls::syncFromDocument() {
    const Scenario& s = m_doc->scenario();
    m_fleet = fleetClassCounts(s);
    if (s.onDemand) m_onDemand = *s.onDemand;
    if (s.spot) m_spot = *s.spot;
    const QSignalBlocker b1(m_mixOn), b2(m_reservedSlider), b3(m_reservedBox), b4(m_spotSlider),
        b5(m_spotBox), b6(m_elastic), b7(m_delayS), b8(m_idleMin), b9(m_spotOn), b10(m_sharePct),
        b11(m_noticeS), b12(m_returnMin), b13(m_ceilingSlider), b14(m_ceilingBox);
    const BuyingMixDef mix =
        s.buyingMix.value_or(BuyingMixDef{m_fleet.reservedNodes, m_fleet.spotNodes});
    m_mixOn->setChecked(s.buyingMix.has_value());
    m_mixOn->setEnabled(m_fleet.buildable);
    // A hand on a slider keeps it where it is: the document catches up at the release.
    if (!m_reservedSlider->isSliderDown()) {
        m_reservedSlider->setRange(0, m_fleet.nodes);
        m_reservedSlider->setValue(mix.reservedNodes);
    }
    m_reservedBox->setRange(0, m_fleet.nodes);
    m_reservedBox->setValue(m_reservedSlider->value());
    const int rest = std::max(0, m_fleet.nodes - m_reservedSlider->value());
    if (!m_spotSlider->isSliderDown()) {
        m_spotSlider->setRange(0, rest);
        m_spotSlider->setValue(mix.spotNodes);
    }
    m_spotBox->setRange(0, rest);
    m_spotBox->setValue(m_spotSlider->value());
    for (QWidget* w :
         {static_cast<QWidget*>(m_reservedSlider), static_cast<QWidget*>(m_reservedBox),
          static_cast<QWidget*>(m_spotSlider), static_cast<QWidget*>(m_spotBox)})
        w->setEnabled(s.buyingMix.has_value());
    showMixText();

    m_elastic->setChecked(s.onDemand.has_value());
    m_delayS->setValue(m_onDemand.provisioningDelayS);
    m_idleMin->setValue(m_onDemand.idleTimeoutS / kMinuteS);
    m_delayS->setEnabled(s.onDemand.has_value());
    m_idleMin->setEnabled(s.onDemand.has_value());
    const int ceiling =
        std::min(m_fleet.onDemandNodes, m_onDemand.maxNodes.value_or(m_fleet.onDemandNodes));
    if (!m_ceilingSlider->isSliderDown()) {
        m_ceilingSlider->setRange(0, m_fleet.onDemandNodes);
        m_ceilingSlider->setValue(ceiling);
    }
    m_ceilingBox->setRange(0, m_fleet.onDemandNodes);
    m_ceilingBox->setValue(m_ceilingSlider->value());
    m_ceilingSlider->setEnabled(s.onDemand.has_value());
    m_ceilingBox->setEnabled(s.onDemand.has_value());
    m_spotOn->setChecked(s.spot.has_value());
    m_sharePct->setValue(m_spot.monthlyInterruptionFraction * 100);
    m_noticeS->setValue(m_spot.noticeS);
    m_returnMin->setValue(m_spot.returnS / kMinuteS);
    for (QDoubleSpinBox* b : {m_sharePct, m_noticeS, m_returnMin})
        b->setEnabled(s.spot.has_value());
}

}  // namespace gpuplan::app
