// The Study dock: sweep one parameter of the open scenario (demand, a rack or node
// count, the buying mix, a team's quota, or any JSON pointer) over values the user types, with
// replications, in the background with progress and Cancel; each chosen KPI is drawn against
// it with its 95 % interval, a click on a point makes the scenario that value (one undo
// step), and the study saves as a sweep file `gpuplan-cli sweep` runs.
#pragma once

#include <QDockWidget>
#include <QStringList>
#include <memory>
#include <variant>

#include "gpuplan/studies/sweep.hpp"
#include "shell/background_job.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace gpuplan::ui {
class StudyChart;
}

namespace gpuplan::app {

class DockHost;
class Session;
class ScenarioDocument;

class StudyDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows what `session` holds, in a tab `host` gives it.
    StudyDock(Session& session, DockHost& host);
    ~StudyDock() override;

    QComboBox* parameterBox() const { return m_parameter; }
    QLineEdit* pointerEdit() const { return m_pointer; }
    QLineEdit* valuesEdit() const { return m_values; }
    QSpinBox* replicationsBox() const { return m_replications; }
    QListWidget* kpiList() const { return m_kpis; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    ui::StudyChart* chart() const { return m_chart; }
    QString status() const;
    bool isRunning() const { return m_study.isRunning(); }

    /// The study as the form describes it (the open scenario's JSON inside), or the reason
    /// it cannot be run ("values: …").
    std::variant<SweepSpec, QString> spec() const;
    void run();
    void cancel();
    /// Writes the study as a sweep file beside `path` (the scenario by a path relative to
    /// it; the scenario must have been saved). Returns the refusal, or empty.
    QString saveSweep(const QString& path) const;
    /// Makes the open scenario the study's point `point` (one undo step).
    void applyPoint(int point);

signals:
    void finished(bool drawn);
    void message(const QString& text);

private:
    struct Outcome {
        std::vector<SweepRun> runs;
        QString error;
    };
    void fillParameters();
    void done(const Outcome& out, bool stopped);

    Session* m_session;
    ScenarioDocument* m_doc;
    QComboBox* m_parameter;
    QLineEdit* m_pointer;
    QLineEdit* m_values;
    QSpinBox* m_replications;
    QListWidget* m_kpis;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_save;
    QProgressBar* m_progressBar;
    QLabel* m_status;
    ui::StudyChart* m_chart;
    BackgroundJob<Outcome> m_study;
    SweepSpec m_running;  ///< the study under way (or last drawn)
};

}  // namespace gpuplan::app
