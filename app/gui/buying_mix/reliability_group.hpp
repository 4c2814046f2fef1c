// The "Failures" group of the Scheduler and run dock: random node failures on or
// off, their MTBF (GPU-hours per GPU, Llama 3's by default) and the repair time. Each change
// is one ScenarioDocument::edit (reliability_edits.hpp), checked by the reader's rules; a
// refused value keeps the scenario, shows its reason in the group and, through message(), in
// the status bar. The group follows the document (undo, redo, open).
#pragma once

#include <QGroupBox>

#include "shell/scenario_document.hpp"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace gpuplan::app {

struct ReliabilityEdit;

class ReliabilityGroup : public QGroupBox {
    Q_OBJECT
public:
    /// Where the repair box starts while the scenario has no failures: FailureDef has no
    /// default (none is published), so the box offers one to change.
    static constexpr double kStartRepairS = 4 * 3600.0;

    explicit ReliabilityGroup(ScenarioDocument* doc, QWidget* parent = nullptr);

    QCheckBox* failuresBox() const { return m_on; }
    /// GPU-hours per GPU.
    QDoubleSpinBox* mtbfBox() const { return m_mtbfGpuHours; }
    /// Hours (the scenario stores seconds).
    QDoubleSpinBox* repairHoursBox() const { return m_repairHours; }
    QSpinBox* sparesBox() const { return m_spares; }
    QPushButton* llama3Button() const { return m_llama3; }
    /// The refusal shown in the group (empty when the last change went through).
    QString refusal() const;

signals:
    void message(const QString& text);

private:
    QString commit(const ReliabilityEdit& edit);
    void syncFromDocument();

    ScenarioDocument* m_doc;
    QCheckBox* m_on;
    QDoubleSpinBox* m_mtbfGpuHours;
    QPushButton* m_llama3;
    QDoubleSpinBox* m_repairHours;
    QSpinBox* m_spares;
    QLabel* m_refusal;
    // What turning failures on uses: the scenario's last values, exact (not as the boxes
    // round them).
    double m_mtbfValue = FailureDef::kLlama3MtbfGpuHours;
    double m_repairS = kStartRepairS;
    double m_shownMtbf = 0, m_shownRepairHours = 0;  // as the boxes show them
};

}  // namespace gpuplan::app
