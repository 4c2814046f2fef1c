// The "Scheduler & run" dock: queue order, placement, backfill, horizon, sample interval and
// seed in one form, a "Preemption" group (mode, termination grace period, when a job is
// flagged thrashing or starved) and a "Failures" group (reliability_group.hpp). Each change is one
// ScenarioDocument::edit; the form follows the document (undo, redo, open) and a refused value
// shows its reason under the form and in the status bar.
#pragma once

#include <QWidget>

#include "shell/scenario_document.hpp"

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gpuplan::app {

class ReliabilityGroup;

class SchedulerPanel : public QWidget {
    Q_OBJECT
public:
    explicit SchedulerPanel(ScenarioDocument* doc, QWidget* parent = nullptr);

    QComboBox* queueOrderBox() const { return m_queueOrder; }
    QComboBox* placementBox() const { return m_placement; }
    QComboBox* backfillBox() const { return m_backfill; }
    /// Horizon in the unit of horizonUnitBox() (hours or days).
    QDoubleSpinBox* horizonBox() const { return m_horizon; }
    QComboBox* horizonUnitBox() const { return m_horizonUnit; }
    QDoubleSpinBox* sampleIntervalMinutesBox() const { return m_sampleMinutes; }
    QLineEdit* seedEdit() const { return m_seed; }
    /// Hours before the KPIs start measuring (Scenario::warmupS, seconds).
    QDoubleSpinBox* warmupHoursBox() const { return m_warmupHours; }
    /// Seeds each run goes over (Scenario::replications): KPIs get ± their interval.
    QSpinBox* replicationsBox() const { return m_replications; }
    QComboBox* preemptionBox() const { return m_preemption; }
    /// Seconds; enabled only while the scenario can preempt at all.
    QDoubleSpinBox* preemptionGraceBox() const { return m_graceS; }
    QSpinBox* thrashingPreemptionsBox() const { return m_thrashing; }
    /// Hours (the scenario stores seconds).
    QDoubleSpinBox* starvationHoursBox() const { return m_starvationHours; }
    /// Minutes (SchedulerDef::elasticGrowAfterIdleS, seconds in the scenario).
    QDoubleSpinBox* elasticGrowBox() const { return m_elasticGrowMinutes; }
    /// Random node failures: on or off, MTBF, repair time.
    ReliabilityGroup* reliabilityGroup() const { return m_reliability; }
    /// The refusal shown under the form (empty when the last change went through).
    QString refusal() const;

    /// Each returns the refusal reason, or an empty string when applied.
    QString setHorizonS(double horizonS);
    QString setSampleIntervalS(double intervalS);
    QString setPreemptionGraceS(double graceS);
    QString setStarvationWaitS(double waitS);
    /// THE placement edit (this form's box and the main toolbar's both call it): a refusal
    /// shows under the form and, through message(), in the status bar.
    QString setPlacementPolicy(PlacementPolicy policy);

signals:
    void message(const QString& text);

private:
    QGroupBox* buildPreemptionGroup();
    void syncFromDocument();
    QString commit(const Scenario& after, const QString& label);
    double unitS() const;

    ScenarioDocument* m_doc;
    QComboBox* m_queueOrder;
    QComboBox* m_placement;
    QComboBox* m_backfill;
    QDoubleSpinBox* m_horizon;
    QComboBox* m_horizonUnit;
    QDoubleSpinBox* m_sampleMinutes;
    QLineEdit* m_seed;
    QDoubleSpinBox* m_warmupHours;
    QSpinBox* m_replications;
    QComboBox* m_preemption;
    QDoubleSpinBox* m_graceS;
    QSpinBox* m_thrashing;
    QDoubleSpinBox* m_starvationHours;
    QDoubleSpinBox* m_elasticGrowMinutes;
    ReliabilityGroup* m_reliability;
    QLabel* m_refusal;
    // As the boxes show the document (rounded to their decimals).
    double m_shownHorizon = 0, m_shownSampleMinutes = 0, m_shownGraceS = 0,
           m_shownStarvationHours = 0, m_shownElasticGrowMinutes = 0, m_shownWarmupHours = 0;
};

}  // namespace gpuplan::app
