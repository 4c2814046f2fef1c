#include "plan_dock.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <cmath>
#include <filesystem>

#include "charts/frontier_chart.hpp"
#include "format/kpi_format.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "plan_form.hpp"
#include "shell/dock_host.hpp"
#include "shell/scenario_document.hpp"
#include "shell/session.hpp"

namespace gpuplan::app {

namespace {

/// The target that binds at the plan: the one with the least room left to its bound (a share
/// of the bound), or the one missed most when no plan meets them all.
std::size_t bindingTarget(const std::vector<PlanTarget>& targets, const PlanVerdict& v) {
    std::size_t binding = 0;
    double least = INFINITY;
    for (std::size_t t = 0; t < targets.size() && t < v.targets.size(); ++t) {
        const bool atMost = targets[t].sense == TargetSense::AtMost;
        const double edge = atMost ? v.targets[t].high : v.targets[t].low;
        const double room = (atMost ? targets[t].bound - edge : edge - targets[t].bound) /
                            std::max(std::abs(targets[t].bound), 1e-9);
        if (std::isfinite(room) && room < least) {
            least = room;
            binding = t;
        }
    }
    return binding;
}

QString escaped(const QString& text) {
    return text.toHtmlEscaped();
}

}  // namespace

PlanDock::PlanDock(Session& session, DockHost& host)
    : QDockWidget(tr("Plan"), host.dockWindow()), m_session(&session), m_doc(session.document()) {
    setObjectName(QStringLiteral("plan"));
    // Its tables and answer scroll, and its chart shrinks: a short tab keeps the buttons and
    // the chart's axes in view instead of scrolling the whole tab.
    setProperty("scrollsItself", true);
    auto* body = new QWidget(this);
    m_form = new PlanForm(body);
    m_find = new QPushButton(tr("Find plan"), body);
    m_find->setToolTip(tr("Search for the cheapest change that meets every checked target"));
    m_cancel = new QPushButton(tr("Cancel"), body);
    m_cancel->setEnabled(false);
    m_apply = new QPushButton(tr("Apply plan"), body);
    m_apply->setEnabled(false);
    m_apply->setToolTip(tr("Make the open scenario the plan (one undo step)"));
    m_progress = new QProgressBar(body);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumHeight(12);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_status = new QLabel(body);
    m_status->setWordWrap(true);
    // Rich text that scrolls when the tab is short (a projector), and asks no height of the
    // layout (a word-wrapped label would, and push the tab past the window).
    m_answer = new QTextBrowser(body);
    m_answer->setFrameShape(QFrame::NoFrame);
    m_answer->setOpenLinks(false);
    m_answer->viewport()->setAutoFillBackground(false);
    m_answer->setMinimumHeight(3 * m_answer->fontMetrics().lineSpacing());
    m_answer->setHtml(tr("<i>Check the targets and what may change, then Find plan.</i>"));
    m_frontier = new ui::FrontierChart(body);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_find);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_apply);
    auto* left = new QVBoxLayout;
    left->setContentsMargins(0, 0, 0, 0);
    // The buttons first: a short tab (a projector) scrolls the tables, never hides them.
    left->addLayout(buttons);
    left->addWidget(m_progress);
    left->addWidget(m_status);
    left->addWidget(m_form, 1);
    auto* side = new QWidget(body);
    side->setLayout(left);
    side->setMinimumWidth(360);
    side->setMaximumWidth(470);
    // The answer takes the lines it needs; the chart the rest.
    auto* right = new QVBoxLayout;
    right->setContentsMargins(0, 0, 0, 0);
    right->addWidget(m_answer, 2);
    right->addWidget(m_frontier, 3);
    auto* row = new QHBoxLayout(body);
    row->addWidget(side);
    row->addLayout(right, 1);
    setWidget(body);
    host.addBottomTab(this, [] { return 440; });

    refill();
    connect(m_doc, &ScenarioDocument::changed, this, &PlanDock::refill);
    connect(m_doc, &ScenarioDocument::replaced, this, [this] {
        m_job.drop();  // it answered another scenario
        m_study.reset();
        m_result.reset();
        m_finding.reset();
        m_apply->setEnabled(false);
        m_find->setEnabled(true);
        m_cancel->setEnabled(false);
        m_progress->setVisible(false);
        m_frontier->setMessage(tr("Find a plan for this scenario."));
        m_answer->setHtml(tr("<i>Check the targets and what may change, then Find plan.</i>"));
        refill();
    });
    connect(&session, &Session::resultsApplied, this, &PlanDock::refill);
    connect(m_find, &QPushButton::clicked, this, &PlanDock::findPlan);
    connect(m_cancel, &QPushButton::clicked, this, &PlanDock::cancel);
    connect(m_apply, &QPushButton::clicked, this, &PlanDock::applyPlan);
    m_job.setMaxConcurrent(1);  // the search uses every core itself
    m_job.onProgress([this](double f) { m_progress->setValue(static_cast<int>(1000 * f)); });
    m_job.onFinished([this](Outcome out, bool stopped) { done(std::move(out), stopped); });
}

PlanDock::~PlanDock() = default;  // the job stops its runs and waits for them

QString PlanDock::status() const {
    return m_status->text();
}

QString PlanDock::answerText() const {
    return m_answer->toPlainText();
}

void PlanDock::refill() {
    m_form->fill(m_doc->scenario(), m_doc->catalog(), m_session->results().get());
}

void PlanDock::findPlan() {
    if (m_job.isRunning()) return;
    auto asked = m_form->question();
    if (const QString* why = std::get_if<QString>(&asked)) {
        m_status->setText(tr("Not searched: %1").arg(*why));
        return;
    }
    // The question is asked of the scenario as it is now, with the demand it assumes.
    Scenario scenario = m_doc->scenario();
    m_demand = m_form->demandFactor();
    scenario.demandMultiplier *= m_demand;
    const std::filesystem::path file = m_doc->filePath().isEmpty()
                                           ? std::filesystem::path("scenario.json")
                                           : std::filesystem::path(m_doc->filePath().toStdString());
    m_find->setEnabled(false);
    m_cancel->setEnabled(true);
    m_apply->setEnabled(false);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_status->setText(tr("Searching…"));
    // The worker owns its copies; the catalog outlives it (the document's, and the job is
    // stopped and waited for before the dock goes).
    m_job.start([text = scenarioToJson(scenario), file, question = std::get<PlanQuestion>(asked),
                 &catalog = m_doc->catalog(), load = m_doc->loadOptions()](const JobControl& job) {
        Outcome out;
        try {
            out.study = std::make_shared<const PlanStudy>(text, file, question, catalog, load);
            out.result = runPlanStudy(*out.study, 0, job.progressCallback(), job.stopToken());
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    });
}

void PlanDock::cancel() {
    m_job.cancel();
}

void PlanDock::done(Outcome out, bool stopped) {
    m_find->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setVisible(false);
    if (!out.error.isEmpty()) {
        m_status->setText(tr("Not searched: %1").arg(out.error));
        emit finished(false);
        return;
    }
    if (stopped || out.result.stopped || out.result.evaluated.empty()) {
        m_status->setText(tr("Search cancelled; the last plan found is still shown."));
        m_apply->setEnabled(m_result && m_result->feasible);
        emit finished(false);
        return;
    }
    m_study = std::move(out.study);
    m_result = std::move(out.result);
    m_finding = report::planFinding(*m_study, *m_result, m_demand);
    m_session->setPlan(std::make_shared<const report::PlanFinding>(*m_finding));
    showFinding(*m_study, *m_result, *m_finding);
    m_apply->setEnabled(m_result->feasible);
    m_status->setText(m_result->feasible
                          ? tr("Found: Apply makes the open scenario the plan (one undo step); "
                               "the report now opens with it.")
                          : tr("No change within the ranges meets every target: widen a range, "
                               "add what may change, or ease a target."));
    emit finished(m_result->feasible);
}

void PlanDock::showFinding(const PlanStudy& study, const PlanSearchResult& result,
                           const report::PlanFinding& f) {
    QString html = QStringLiteral("<p style='margin:0'>%1</p>").arg(escaped(f.question));
    html += f.feasible ? tr("<p style='margin:4px 0 0 0'><b>Plan:</b> ")
                       : tr("<p style='margin:4px 0 0 0'><b>No plan meets every target.</b> "
                            "The closest: ");
    html += escaped(f.changes.join(QStringLiteral("; "))) + QStringLiteral("</p>");
    html +=
        QStringLiteral(
            "<table cellspacing='0' cellpadding='2'><tr><th align='left'>%1</th>"
            "<th>%2</th><th>%3</th><th>%4</th><th></th><th>%5</th></tr>")
            .arg(tr("Target"), tr("Bound"), tr("Plan"), tr("95 % interval"), tr("Now (same runs)"));
    const QString met = ui::deltaToneColor(ui::DeltaTone::Better).name();
    const QString missed = ui::deltaToneColor(ui::DeltaTone::Worse).name();
    for (const report::PlanFinding::Target& t : f.targets)
        html +=
            QStringLiteral(
                "<tr><td>%1</td><td align='right'>%2</td><td align='right'><b>%3"
                "</b></td><td align='right'>%4</td><td style='color:%5'>%6</td>"
                "<td align='right'>%7</td></tr>")
                .arg(escaped(t.label), escaped(t.bound), escaped(t.value), escaped(t.interval),
                     t.met ? met : missed, t.met ? tr("✔ met") : tr("✘ missed"), escaped(t.now));
    html += QStringLiteral(
                "<tr><td><b>%1</b></td><td></td><td align='right'><b>%2</b></td>"
                "<td align='right'>%3</td><td></td><td align='right'>%4</td></tr>"
                "</table>")
                .arg(escaped(f.objectiveLabel), escaped(f.objectiveValue),
                     escaped(f.objectiveInterval), escaped(f.objectiveNow));
    QString note = f.method;
    if (!f.objectiveDelta.isEmpty())
        note = tr("%1 against now: %2. ").arg(f.objectiveLabel, f.objectiveDelta) + note;
    html += QStringLiteral("<p style='margin:2px 0 0 0; color:#606060'>%1</p>").arg(escaped(note));
    m_answer->setHtml(html);

    // The frontier: objective against the binding target, the plan and "now" marked.
    const std::vector<PlanTarget>& targets = study.question().targets;
    const std::size_t binding = bindingTarget(targets, result.best);
    std::vector<ui::FrontierChart::Point> points;
    std::optional<int> chosen, now;
    const auto add = [&](const PlanVerdict& v) {
        QStringList words;
        for (std::size_t d = 0; d < v.candidate.size(); ++d)
            words << QString::fromStdString(
                planValueText(study.question().dimensions[d], v.candidate[d]));
        points.push_back({v.objective.mean,
                          binding < v.targets.size() ? v.targets[binding].mean : NAN, v.met,
                          words.join(QStringLiteral(", "))});
        return static_cast<int>(points.size()) - 1;
    };
    for (std::size_t i : planFrontier(result, targets)) {
        const int at = add(result.evaluated[i]);
        if (result.evaluated[i].candidate == result.best.candidate) chosen = at;
        if (result.baseline && result.evaluated[i].candidate == result.baseline->candidate)
            now = at;
    }
    if (!chosen) chosen = add(result.best);
    if (result.baseline && !now) now = add(*result.baseline);
    const PlanTarget& t = targets[binding];
    m_frontier->setFrontier({f.objectiveLabel, QString::fromStdString(study.objectiveUnit())},
                            {f.targets.empty() ? QString() : f.targets[binding].label,
                             QString::fromStdString(study.targetUnit(binding))},
                            t.bound, std::move(points), chosen, now);
}

bool PlanDock::applyPlan() {
    if (!m_study || !m_result || !m_result->feasible) return false;
    const PlanQuestion& q = m_study->question();
    std::vector<std::string> pointers, values;
    for (std::size_t d = 0; d < q.dimensions.size(); ++d) {
        pointers.push_back(q.dimensions[d].pointer);
        values.push_back(m_study->valueJson(d, m_result->best.candidate[d]));
    }
    // Into the scenario as it is now (edits since the search are kept), its demand untouched:
    // the plan changes the fleet, not the forecast. Each place must still hold what the plan
    // was found from: after a rack is removed, the same pointer names another one.
    const std::string now = scenarioToJson(m_doc->scenario());
    if (planValuesIn(now, q.dimensions) != m_study->currentValues()) {
        m_status->setText(
            tr("The scenario changed where the plan applies since it was found: "
               "Find plan again."));
        m_apply->setEnabled(false);
        return false;
    }
    const QString label =
        tr("Plan: %1").arg(m_finding ? m_finding->changes.join(QStringLiteral("; ")) : QString());
    try {
        const std::filesystem::path file =
            m_doc->filePath().isEmpty() ? std::filesystem::path("scenario.json")
                                        : std::filesystem::path(m_doc->filePath().toStdString());
        const Scenario after = scenarioWithValues(now, file, pointers, values, "plan", "plan",
                                                  m_doc->catalog(), m_doc->loadOptions());
        const QString refusal = m_doc->edit(after, label);
        emit message(refusal.isEmpty() ? label : tr("Refused: %1").arg(refusal));
        return refusal.isEmpty();
    } catch (const std::exception& e) {
        emit message(tr("Refused: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

}  // namespace gpuplan::app
