// The Plan tab: "the cheapest change that meets our targets". The question (PlanForm: targets
// pre-filled from the run on screen, what may change, the objective, the demand assumed), Find
// plan in the background with progress and Cancel, the answer in words with each target's 95 %
// interval against its bound and the cost against the scenario as it stands, the frontier
// chart, and Apply (the plan's values into the open scenario, one undo step). The finding is
// kept in the session so the exported report opens with it.
#pragma once

#include <QDockWidget>
#include <memory>
#include <optional>

#include "gpuplan/studies/plan_study.hpp"
#include "plan_finding.hpp"
#include "shell/background_job.hpp"

class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;

namespace gpuplan::ui {
class FrontierChart;
}

namespace gpuplan::app {

class DockHost;
class PlanForm;
class Session;
class ScenarioDocument;

class PlanDock : public QDockWidget {
    Q_OBJECT
public:
    PlanDock(Session& session, DockHost& host);
    ~PlanDock() override;

    PlanForm* form() const { return m_form; }
    QPushButton* findButton() const { return m_find; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* applyButton() const { return m_apply; }
    ui::FrontierChart* frontier() const { return m_frontier; }
    QString answerText() const;
    QString status() const;
    bool isRunning() const { return m_job.isRunning(); }
    /// The last search's result, when one finished.
    const PlanSearchResult* lastResult() const { return m_result ? &*m_result : nullptr; }

    void findPlan();
    void cancel();
    /// Sets the last plan's values in the open scenario (one undo step); false when there is
    /// no plan or the scenario refuses it.
    bool applyPlan();

signals:
    void finished(bool found);
    void message(const QString& text);

private:
    struct Outcome {
        std::shared_ptr<const PlanStudy> study;
        PlanSearchResult result;
        QString error;
    };
    void refill();
    void done(Outcome out, bool stopped);
    void showFinding(const PlanStudy& study, const PlanSearchResult& result,
                     const report::PlanFinding& finding);

    Session* m_session;
    ScenarioDocument* m_doc;
    PlanForm* m_form;
    QPushButton* m_find;
    QPushButton* m_cancel;
    QPushButton* m_apply;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTextBrowser* m_answer;
    ui::FrontierChart* m_frontier;
    BackgroundJob<Outcome> m_job;
    double m_demand = 1;  ///< the running (or last) question's demand factor
    std::shared_ptr<const PlanStudy> m_study;
    std::optional<PlanSearchResult> m_result;
    std::optional<report::PlanFinding> m_finding;
};

}  // namespace gpuplan::app
