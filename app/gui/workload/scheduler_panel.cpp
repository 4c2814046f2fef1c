#include "scheduler_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <cmath>

#include "buying_mix/reliability_group.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace gpuplan::app {

namespace {
constexpr double kHourS = 3600, kDayS = 86400;
}  // namespace

SchedulerPanel::SchedulerPanel(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc) {
    // Item order = enum order: the index is the value.
    m_queueOrder = new QComboBox(this);
    m_queueOrder->addItems({tr("priority, then first come"), tr("priority, then smallest first")});
    m_placement = new QComboBox(this);
    m_placement->addItems({tr("pack (best fit)"), tr("spread"), tr("topology-aware")});
    m_backfill = new QComboBox(this);
    m_backfill->addItems({tr("EASY (the blocked head keeps a reservation)"),
                          tr("none (strict FIFO)"), tr("greedy (whatever fits starts)")});
    m_backfill->setToolTip(tr("What may start while the head of the queue is blocked"));

    m_horizon = new QDoubleSpinBox(this);
    m_horizon->setDecimals(1);
    m_horizon->setRange(0, 3 * 366 * 24);
    m_horizon->setKeyboardTracking(false);
    m_horizonUnit = new QComboBox(this);
    m_horizonUnit->addItems({tr("hours"), tr("days")});
    auto* horizonRow = new QHBoxLayout;
    horizonRow->addWidget(m_horizon, 1);
    horizonRow->addWidget(m_horizonUnit);

    m_sampleMinutes = new QDoubleSpinBox(this);
    m_sampleMinutes->setDecimals(1);
    m_sampleMinutes->setRange(0, 7 * 24 * 60);
    m_sampleMinutes->setSuffix(tr(" min"));
    m_sampleMinutes->setToolTip(tr("How often the charts sample the fleet"));
    m_seed = new QLineEdit(this);
    m_seed->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,19}")), m_seed));
    m_seed->setToolTip(tr("Random seed of arrivals and sizes: same seed, same run"));

    m_warmupHours = new QDoubleSpinBox(this);
    m_warmupHours->setDecimals(1);
    m_warmupHours->setRange(0, 3 * 366 * 24);
    m_warmupHours->setSuffix(tr(" h"));
    m_warmupHours->setKeyboardTracking(false);
    m_warmupHours->setToolTip(
        tr("The KPIs measure from this time on, leaving out the start from an empty cluster\n"
           "(its queues and utilisation are not yet the steady state's). Charts show it all."));
    m_replications = new QSpinBox(this);
    m_replications->setRange(1, Scenario::kMaxReplications);
    m_replications->setKeyboardTracking(false);
    m_replications->setToolTip(
        tr("Seeds each run goes over, on every core: the KPIs read mean ± the 95 % interval\n"
           "and deltas against a baseline say whether they are significant. 1 = one run."));

    m_elasticGrowMinutes = new QDoubleSpinBox(this);
    m_elasticGrowMinutes->setDecimals(1);
    m_elasticGrowMinutes->setRange(0, 30 * 24 * 60);  // the reader's bound
    m_elasticGrowMinutes->setSuffix(tr(" min"));
    m_elasticGrowMinutes->setToolTip(
        tr("Elastic jobs grow only once nothing has been queued, and the job not resized, for\n"
           "this long, and only if the growth pays for its restarts even were it reclaimed\n"
           "then. Default 10 min, cluster-autoscaler's idle time."));

    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->setVisible(false);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Queue order"), m_queueOrder);
    form->addRow(tr("Placement"), m_placement);
    form->addRow(tr("Backfill"), m_backfill);
    form->addRow(tr("Elastic grow after"), m_elasticGrowMinutes);
    form->addRow(tr("Horizon"), horizonRow);
    form->addRow(tr("Sample every"), m_sampleMinutes);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Warm-up"), m_warmupHours);
    form->addRow(tr("Replications"), m_replications);
    form->addRow(buildPreemptionGroup());
    m_reliability = new ReliabilityGroup(m_doc, this);
    connect(m_reliability, &ReliabilityGroup::message, this, &SchedulerPanel::message);
    form->addRow(m_reliability);
    form->addRow(m_refusal);

    connect(m_queueOrder, &QComboBox::activated, this, [this](int i) {
        Scenario after = m_doc->scenario();
        after.scheduler.queueOrder = static_cast<QueueOrder>(i);
        commit(after,
               tr("Queue order: %1").arg(QLatin1String(toString(after.scheduler.queueOrder))));
    });
    connect(m_placement, &QComboBox::activated, this,
            [this](int i) { setPlacementPolicy(static_cast<PlacementPolicy>(i)); });
    connect(m_backfill, &QComboBox::activated, this, [this](int i) {
        Scenario after = m_doc->scenario();
        after.scheduler.backfill = static_cast<BackfillMode>(i);
        commit(after, tr("Backfill: %1").arg(QLatin1String(toString(after.scheduler.backfill))));
    });
    connect(m_elasticGrowMinutes, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_elasticGrowMinutes->value() == m_shownElasticGrowMinutes) return;
        Scenario after = m_doc->scenario();
        after.scheduler.elasticGrowAfterIdleS = m_elasticGrowMinutes->value() * 60;
        commit(after, tr("Elastic jobs grow after %1 min idle").arg(m_elasticGrowMinutes->value()));
    });
    connect(m_horizon, &QDoubleSpinBox::editingFinished, this, [this] {
        // Leaving the box unchanged must not round the horizon to what it shows.
        if (m_horizon->value() != m_shownHorizon) setHorizonS(m_horizon->value() * unitS());
    });
    // The unit only changes how the horizon reads.
    connect(m_horizonUnit, &QComboBox::currentIndexChanged, this, [this] { syncFromDocument(); });
    connect(m_sampleMinutes, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_sampleMinutes->value() != m_shownSampleMinutes)
            setSampleIntervalS(m_sampleMinutes->value() * 60.0);
    });
    connect(m_seed, &QLineEdit::editingFinished, this, [this] {
        bool ok = false;
        const qulonglong seed = m_seed->text().toULongLong(&ok);
        if (!ok) return;
        Scenario after = m_doc->scenario();
        after.seed = seed;
        commit(after, tr("Seed %1").arg(seed));
    });
    connect(m_warmupHours, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_warmupHours->value() == m_shownWarmupHours) return;
        Scenario after = m_doc->scenario();
        after.warmupS = m_warmupHours->value() * kHourS;
        commit(after, tr("KPIs from %1 h").arg(m_warmupHours->value()));
    });
    connect(m_replications, &QSpinBox::valueChanged, this, [this](int n) {
        if (n == m_doc->scenario().replications) return;
        Scenario after = m_doc->scenario();
        after.replications = n;
        commit(after, tr("Replications: %1").arg(n));
    });
    connect(m_doc, &ScenarioDocument::changed, this, [this] {
        syncFromDocument();
        m_refusal->setVisible(false);  // a refusal is about the scenario it was refused on
    });
    m_horizonUnit->setCurrentIndex(
        std::fmod(m_doc->scenario().horizonS, kDayS) == 0 ? 1 : 0);  // days when whole days
    syncFromDocument();
}

QGroupBox* SchedulerPanel::buildPreemptionGroup() {
    m_preemption = new QComboBox(this);
    m_preemption->addItems({tr("off"), tr("priority")});  // item order = enum order
    m_preemption->setToolTip(
        tr("Priority: a job that cannot start evicts the fewest lower-priority jobs it needs, "
           "as kube-scheduler does"));
    m_graceS = new QDoubleSpinBox(this);
    m_graceS->setDecimals(1);
    m_graceS->setRange(0, SchedulerDef::kMaxPreemptionGraceS);
    m_graceS->setSuffix(tr(" s"));
    m_graceS->setToolTip(
        tr("Termination grace period: victims stop work at notice and hold their GPUs this long;\n"
           "the preemptor waits (WaitingForPreemptedWorkloads). Quota reclaim gives it too"));
    m_thrashing = new QSpinBox(this);
    m_thrashing->setRange(1, 1000000);
    m_thrashing->setSuffix(tr(" preemptions"));
    m_thrashing->setToolTip(tr("A job preempted this many times or more is flagged thrashing"));
    m_starvationHours = new QDoubleSpinBox(this);
    m_starvationHours->setDecimals(2);
    // From 0 so that a too short threshold is refused with the reader's reason.
    m_starvationHours->setRange(0, InputLimits::maxHorizonS / kHourS);
    m_starvationHours->setSuffix(tr(" h"));
    m_starvationHours->setToolTip(
        tr("A job that waits in the queue longer than this at a stretch is flagged starved\n"
           "(from its submission or an eviction to its next start)"));

    auto* group = new QGroupBox(tr("Preemption"), this);
    auto* form = new QFormLayout(group);
    form->addRow(tr("Mode"), m_preemption);
    form->addRow(tr("Grace period"), m_graceS);
    form->addRow(tr("Thrashing at"), m_thrashing);
    form->addRow(tr("Starved after"), m_starvationHours);

    connect(m_preemption, &QComboBox::activated, this, [this](int i) {
        Scenario after = m_doc->scenario();
        after.scheduler.preemption = static_cast<PreemptionMode>(i);
        commit(after,
               tr("Preemption: %1").arg(QLatin1String(toString(after.scheduler.preemption))));
    });
    connect(m_graceS, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_graceS->value() != m_shownGraceS) setPreemptionGraceS(m_graceS->value());
    });
    connect(m_thrashing, &QSpinBox::editingFinished, this, [this] {
        if (m_thrashing->value() == m_doc->scenario().scheduler.thrashingPreemptions) return;
        Scenario after = m_doc->scenario();
        after.scheduler.thrashingPreemptions = m_thrashing->value();
        commit(after, tr("Thrashing at %1 preemptions").arg(m_thrashing->value()));
    });
    connect(m_starvationHours, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_starvationHours->value() != m_shownStarvationHours)
            setStarvationWaitS(m_starvationHours->value() * kHourS);
    });
    return group;
}

double SchedulerPanel::unitS() const {
    return m_horizonUnit->currentIndex() == 1 ? kDayS : kHourS;
}

QString SchedulerPanel::refusal() const {
    return m_refusal->isVisible() ? m_refusal->text() : QString();
}

QString SchedulerPanel::setHorizonS(double horizonS) {
    Scenario after = m_doc->scenario();
    after.horizonS = horizonS;
    return commit(after, tr("Horizon %1 h").arg(horizonS / kHourS));
}

QString SchedulerPanel::setSampleIntervalS(double intervalS) {
    Scenario after = m_doc->scenario();
    after.sampleIntervalS = intervalS;
    return commit(after, tr("Sample every %1 min").arg(intervalS / 60.0));
}

QString SchedulerPanel::setPreemptionGraceS(double graceS) {
    Scenario after = m_doc->scenario();
    after.scheduler.preemptionGraceS = graceS;
    return commit(after, tr("Grace period %1 s").arg(graceS));
}

QString SchedulerPanel::setStarvationWaitS(double waitS) {
    Scenario after = m_doc->scenario();
    after.scheduler.starvationWaitS = waitS;
    return commit(after, tr("Starved after %1 h").arg(waitS / kHourS));
}

QString SchedulerPanel::setPlacementPolicy(PlacementPolicy policy) {
    if (m_doc->scenario().scheduler.placement == policy) return {};
    Scenario after = m_doc->scenario();
    after.scheduler.placement = policy;
    return commit(after, tr("Placement: %1").arg(QLatin1String(toString(policy))));
}

QString SchedulerPanel::commit(const Scenario& after, const QString& label) {
    const QString reason = m_doc->edit(after, label);
    m_refusal->setText(reason);
    m_refusal->setVisible(!reason.isEmpty());
    if (!reason.isEmpty()) syncFromDocument();  // show what the document still holds
    emit message(reason.isEmpty() ? label : tr("Refused: %1").arg(reason));
    return reason;
}

void SchedulerPanel::syncFromDocument() {
    const Scenario& s = m_doc->scenario();
    const QSignalBlocker b1(m_queueOrder), b2(m_placement), b3(m_backfill), b4(m_horizon),
        b5(m_sampleMinutes), b6(m_seed), b7(m_preemption), b8(m_graceS), b9(m_thrashing),
        b10(m_starvationHours), b11(m_elasticGrowMinutes), b12(m_warmupHours), b13(m_replications);
    m_queueOrder->setCurrentIndex(static_cast<int>(s.scheduler.queueOrder));
    m_placement->setCurrentIndex(static_cast<int>(s.scheduler.placement));
    m_backfill->setCurrentIndex(static_cast<int>(s.scheduler.backfill));
    m_horizon->setSuffix(m_horizonUnit->currentIndex() == 1 ? tr(" d") : tr(" h"));
    m_horizon->setValue(s.horizonS / unitS());
    m_shownHorizon = m_horizon->value();
    m_sampleMinutes->setValue(s.sampleIntervalS / 60.0);
    m_shownSampleMinutes = m_sampleMinutes->value();
    m_seed->setText(QString::number(s.seed));
    m_warmupHours->setValue(s.warmupS / kHourS);
    m_shownWarmupHours = m_warmupHours->value();
    m_replications->setValue(s.replications);
    m_preemption->setCurrentIndex(static_cast<int>(s.scheduler.preemption));
    m_graceS->setValue(s.scheduler.preemptionGraceS);
    m_shownGraceS = m_graceS->value();
    // The grace period applies to every preemption, priority or quota's.
    m_graceS->setEnabled(preemptionPossible(s));
    m_thrashing->setValue(s.scheduler.thrashingPreemptions);
    m_starvationHours->setValue(s.scheduler.starvationWaitS / kHourS);
    m_shownStarvationHours = m_starvationHours->value();
    m_elasticGrowMinutes->setValue(s.scheduler.elasticGrowAfterIdleS / 60);
    m_shownElasticGrowMinutes = m_elasticGrowMinutes->value();
}

}  // namespace gpuplan::app
