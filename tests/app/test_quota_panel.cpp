// The Quotas dock: the pure quota edits, a quota edit that changes who runs, exact
// undo and redo (scenario and results' fingerprint), refused values that change nothing, and a
// slider drag that is one undo step, however long the hand rests.
#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStyleOptionSlider>
#include <QTableView>

#include "app_test_main.hpp"
#include "app_test_support.hpp"
#include "quotas/quota_dock.hpp"
#include "quotas/quota_edits.hpp"
#include "quotas/quota_panel.hpp"
#include "tables/pending_table_model.hpp"
#include "tables/quota_table_model.hpp"
#include "tables/workload_models.hpp"
#include "workload/workload_edits.hpp"

using namespace gpuplan;
using namespace gpuplan::app;
using namespace gpuplan::app::test;
using Model = gpuplan::ui::QuotaTableModel;

namespace {

Scenario sharedCohort() {
    return loadScenario((kPresets + "/scenarios/shared-cohort.json").toStdString(), catalog());
}

/// The default preset's fleet (H100 only), no job classes, two explicit jobs of 8 GPUs for an
/// hour at t = 0: "r" of research and "a" of applied. Each team has a nominal quota of 64 H100
/// in no cohort. Both fit their quota and the fleet at once: each runs 8 GPUs × 1 h = 8
/// GPU-hours. With applied's nominal quota at 0 and no cohort to borrow from, "a" asks 8 GPUs
/// of a quota that can never give more than 0: Kueue's ExceedsMaxQuota, it waits the whole
/// run (0 GPU-hours), while research is untouched (8 GPU-hours).
Scenario twoTeamsNoCohort() {
    Scenario s = loadScenario((kPresets + "/scenarios/default.json").toStdString(), catalog());
    s.horizonS = 4 * 3600.0;
    s.jobClasses.clear();
    s.jobs.clear();
    s.traces.clear();
    for (const char* team : {"research", "applied"}) {
        JobDef j;
        j.name = team[0] == 'r' ? "r" : "a";
        j.traits.team = team;
        j.gpus = 8;
        j.durationS = 3600;
        s.jobs.push_back(j);
        QuotaDef q;
        q.team = team;
        q.flavors = {FlavorQuotaDef{"h100-sxm", 64, {}, {}}};
        s.quotas.push_back(q);
    }
    return s;
}

double gpuHoursOf(const Results& r, const std::string& team) {
    for (const GroupKpis& k : r.teamKpis)
        if (k.name == team) return k.gpuHours;
    return -1;
}

QuotaPanel* quotaPanel(Fixture& f) {
    auto* dock = f.window->findChild<QuotaDock*>();
    return dock ? dock->panel() : nullptr;
}

QModelIndex cell(QuotaPanel* panel, const std::string& team, int column) {
    return panel->model()->index(panel->model()->rowOf(team), column);
}

/// The slider's handle centre, where a person grabs it.
QPoint handleCentre(QSlider* slider) {
    QStyleOptionSlider opt;
    opt.initFrom(slider);
    opt.subControls = QStyle::SC_None;
    opt.activeSubControls = QStyle::SC_None;
    opt.orientation = slider->orientation();
    opt.maximum = slider->maximum();
    opt.minimum = slider->minimum();
    opt.tickPosition = slider->tickPosition();
    opt.tickInterval = slider->tickInterval();
    opt.upsideDown = false;
    opt.direction = slider->layoutDirection();
    opt.sliderPosition = slider->sliderPosition();
    opt.sliderValue = slider->value();
    opt.singleStep = slider->singleStep();
    opt.pageStep = slider->pageStep();
    return slider->style()
        ->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, slider)
        .center();
}

}  // namespace

class QuotaPanelTest : public QObject {
    Q_OBJECT
private slots:
    void editsChangeOneThingAndNameIt() {
        const Scenario s = sharedCohort();
        // shared-cohort: research 96 (lends ≤ 32, reclaims Any), applied 64 (borrows ≤ 32,
        // weight 2), product 64, all in cohort "all" with fair sharing; data-science has none.
        QuotaEdit e = setNominalGpus(s, "applied", "h100-sxm", 80);
        QVERIFY(e.refusal.isEmpty());
        QCOMPARE(e.text, QStringLiteral("Set applied's nominal H100 quota to 80"));
        QCOMPARE(e.after.quotas[1].flavors[0].nominalGpus, 80.0);
        e.after.quotas[1].flavors[0].nominalGpus = 64;
        QVERIFY(e.after == s);  // nothing else changed

        e = setBorrowingLimitGpus(s, "applied", "h100-sxm", std::nullopt);
        QCOMPARE(e.text, QStringLiteral("Clear applied's H100 borrowing limit"));
        QVERIFY(!e.after.quotas[1].flavors[0].borrowingLimitGpus);
        e = setLendingLimitGpus(s, "research", "h100-sxm", 16);
        QCOMPARE(*e.after.quotas[0].flavors[0].lendingLimitGpus, 16.0);
        QCOMPARE(e.text, QStringLiteral("Set research's H100 lending limit to 16"));
        e = setQuotaCohort(s, "product", "");
        QCOMPARE(e.after.quotas[2].cohort, std::string());
        QCOMPARE(e.text, QStringLiteral("Take product out of its cohort"));
        e = setFairShareWeight(s, "product", 0.5);
        QCOMPARE(e.after.quotas[2].fairShareWeight, 0.5);
        QCOMPARE(e.text, QStringLiteral("Set product's fair-share weight to 0.5"));
        e = setReclaimWithinCohort(s, "product", ReclaimPolicy::LowerPriority);
        QCOMPARE(e.after.quotas[2].reclaimWithinCohort, ReclaimPolicy::LowerPriority);
        e = setCohortFairSharing(s, "all", false);
        QVERIFY(!e.after.cohorts[0].fairSharing);
        QVERIFY(!setCohortFairSharing(s, "nope", true).refusal.isEmpty());
        QVERIFY(!setNominalGpus(s, "data-science", "h100-sxm", 8).refusal.isEmpty());
        QVERIFY(!setNominalGpus(s, "applied", "a100-80gb", 8).refusal.isEmpty());

        // A team without one gets nominal 0 on the fleet's first (only) model, in "all".
        e = addQuota(s, "data-science");
        QVERIFY(e.refusal.isEmpty());
        QCOMPARE(e.after.quotas.size(), std::size_t{4});
        QCOMPARE(e.after.quotas[3].team, std::string("data-science"));
        QCOMPARE(e.after.quotas[3].cohort, std::string("all"));
        QCOMPARE(e.after.quotas[3].flavors.size(), std::size_t{1});
        QCOMPARE(e.after.quotas[3].flavors[0].gpuModel, std::string("h100-sxm"));
        QCOMPARE(e.after.quotas[3].flavors[0].nominalGpus, 0.0);
        QCOMPARE(e.text, QStringLiteral("Add data-science's H100 quota"));
        // The fleet has H100 only: applied has a quota for every model already.
        QVERIFY(addQuota(s, "applied").refusal.contains("every GPU model"));

        // Its only flavor removed, applied has no quota left at all.
        e = removeQuota(s, "applied", "h100-sxm");
        QCOMPARE(e.after.quotas.size(), std::size_t{2});
        QCOMPARE(e.after.quotas[0].team, std::string("research"));
        QCOMPARE(e.after.quotas[1].team, std::string("product"));
        QVERIFY(!removeQuota(s, "data-science", "h100-sxm").refusal.isEmpty());

        // Renaming a team takes its quota along; a team with a quota is not removed under it.
        const int applied = 1;
        QCOMPARE(s.teams[applied].name, std::string("applied"));
        WorkloadEdit w = renameTeam(s, applied, "applied-ml");
        QVERIFY(w.refusal.isEmpty());
        QCOMPARE(w.after.quotas[1].team, std::string("applied-ml"));
        Scenario noClasses = s;
        noClasses.jobClasses.clear();
        noClasses.jobs.clear();
        QVERIFY2(removeTeam(noClasses, applied).refusal.contains("has a quota"),
                 qPrintable(removeTeam(noClasses, applied).refusal));
        QVERIFY(removeTeam(removeQuota(noClasses, "applied", "h100-sxm").after, applied)
                    .refusal.isEmpty());

        QString error;
        // "" and "none" clear the limit: a value (no error) that holds no limit.
        for (const char* cleared : {"", " None ", "none"}) {
            const auto v = parseLimitGpus(cleared, &error);
            QVERIFY(v.has_value() && !v->has_value());
        }
        QCOMPARE(**parseLimitGpus("32", &error), 32.0);
        QCOMPARE(**parseLimitGpus("32 GPUs", &error), 32.0);
        QVERIFY(!parseLimitGpus("lots", &error).has_value());
        QVERIFY(error.contains("not a number"));
    }

    void tableListsQuotasAndUnmanagedTeams() {
        Fixture f(QStringLiteral("shared-cohort.json"));
        QuotaPanel* panel = quotaPanel(f);
        QVERIFY(panel);
        Model* m = panel->model();
        // One row per (team, flavor): three managed teams of one flavor, data-science greyed.
        QCOMPARE(m->rowCount(), 4);
        QCOMPARE(cell(panel, "applied", Model::NominalColumn).data().toString(),
                 QStringLiteral("64"));
        QCOMPARE(cell(panel, "applied", Model::BorrowingLimitColumn).data().toString(),
                 QStringLiteral("32"));
        QCOMPARE(cell(panel, "applied", Model::LendingLimitColumn).data().toString(),
                 QStringLiteral("none"));
        QCOMPARE(cell(panel, "applied", Model::WeightColumn).data().toString(),
                 QStringLiteral("2"));
        QCOMPARE(cell(panel, "research", Model::ReclaimColumn).data().toString(),
                 QStringLiteral("Any"));
        QCOMPARE(cell(panel, "data-science", Model::GpuModelColumn).data().toString(),
                 QStringLiteral("not managed"));
        QVERIFY(!cell(panel, "data-science", Model::TeamColumn).data(Model::ManagedRole).toBool());
        QVERIFY(!(cell(panel, "data-science", Model::NominalColumn).flags() & Qt::ItemIsEditable));
        QVERIFY(cell(panel, "applied", Model::NominalColumn).flags() & Qt::ItemIsEditable);
        QVERIFY(m->headerData(Model::BorrowingLimitColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains("borrowingLimit"));
        QVERIFY(panel->fairSharingBox("all") && panel->fairSharingBox("all")->isChecked());

        // Usage at the scrubber's time is the series' sample at or before t, and the wait
        // p95 is the results' own team KPI.
        const Results& r = *f.window->results();
        const double t = 2 * 86400 + 300;  // between two samples (600 s apart)
        f.window->scrubber()->setTime(t);
        QCOMPARE(m->time(), t);
        const std::size_t k = *r.sampleAt(t);
        QCOMPARE(r.sampleTimesS[k], 2 * 86400.0);
        const auto usage = m->usageOf("research");
        QVERIFY(usage);
        QCOMPARE(usage->usedGpus, r.findSeries("quota_used_gpus{research}")->values[k]);
        QCOMPARE(usage->borrowedGpus, r.findSeries("quota_borrowed_gpus{research}")->values[k]);
        QCOMPARE(usage->nominalGpus, 96.0);
        QCOMPARE(cell(panel, "research", Model::UsageColumn).data().toString(), usage->text());
        QVERIFY(cell(panel, "research", Model::UsageColumn).data(Model::UsageRole).isValid());
        double p95 = 0;
        for (const GroupKpis& g : r.teamKpis)
            if (g.name == "applied") p95 = g.waitP95S;
        QCOMPARE(m->waitP95S("applied"), p95);

        // Fixed numbers: 72 used of a nominal 64, 8 of it borrowed, borrowing up to 32.
        ui::QuotaUsage u{72, 8, 64, 32};
        QCOMPARE(u.text(), QStringLiteral("72 / 64 (+8 borrowed)"));
        QCOMPARE(u.scaleGpus(), 96.0);  // 64 + 32
        u.borrowingLimitGpus.reset();   // unlimited: the nominal again
        QCOMPARE(u.scaleGpus(), 128.0);
        QCOMPARE((ui::QuotaUsage{150, 86, 64, 32}.scaleGpus()), 150.0);  // what it uses
    }

    void aTeamWithTwoGpuModelsHasTwoRows() {
        // The model shows what it is given (the document validates): research with a second
        // flavor has two rows; its usage (the series are per team) is on its first row only.
        Scenario s = sharedCohort();
        s.quotas[0].flavors.push_back(FlavorQuotaDef{"a100-80gb", 8, {}, {}});
        auto results = std::make_shared<const Results>(simulate(sharedCohort()));
        Model m;
        m.setScenario(std::make_shared<const Scenario>(s));
        m.setResults(results);
        m.setTime(86400);
        QCOMPARE(m.rowCount(), 5);
        QCOMPARE(m.rowOf("research", "a100-80gb"), 1);
        QCOMPARE(m.rowOf("applied"), 2);
        QCOMPARE(m.index(1, Model::GpuModelColumn).data().toString(), QStringLiteral("A100"));
        QCOMPARE(m.index(1, Model::NominalColumn).data().toString(), QStringLiteral("8"));
        QVERIFY(m.index(0, Model::UsageColumn).data(Model::UsageRole).isValid());
        QVERIFY(!m.index(1, Model::UsageColumn).data(Model::UsageRole).isValid());
        QCOMPARE(m.usageOf("research")->nominalGpus, 104.0);  // 96 + 8, all models together
        // The same rows again keep the model (no reset: a drag keeps its selection).
        QSignalSpy resets(&m, &QAbstractItemModel::modelReset);
        s.quotas[0].fairShareWeight = 3;
        m.setScenario(std::make_shared<const Scenario>(s));
        QCOMPARE(resets.count(), 0);
        QCOMPARE(m.index(1, Model::WeightColumn).data().toString(), QStringLiteral("3"));
    }

    void editingAQuotaChangesWhoRunsAndUndoRestoresIt() {
        Fixture f;
        const Scenario original = twoTeamsNoCohort();
        f.doc.reset(original, QString());
        QVERIFY(f.waitForResults());
        const Results& before = *f.window->results();
        QCOMPARE(gpuHoursOf(before, "research"), 8.0);
        QCOMPARE(gpuHoursOf(before, "applied"), 8.0);
        const std::uint64_t originalFingerprint = before.fingerprint;

        QuotaPanel* panel = quotaPanel(f);
        QVERIFY(panel);
        const int stepsBefore = f.doc.undoStack()->count();
        QVERIFY(panel->model()->setData(cell(panel, "applied", Model::NominalColumn),
                                        QStringLiteral("0"), Qt::EditRole));
        QCOMPARE(f.doc.undoStack()->count(), stepsBefore + 1);
        QCOMPARE(f.doc.undoStack()->undoText(),
                 QStringLiteral("Set applied's nominal H100 quota to 0"));
        QCOMPARE(f.doc.scenario().quotas[1].flavors[0].nominalGpus, 0.0);
        QVERIFY(f.waitForResults());
        const Results& after = *f.window->results();
        QCOMPARE(gpuHoursOf(after, "applied"), 0.0);
        QCOMPARE(gpuHoursOf(after, "research"), 8.0);
        // At 30 min, "a" waits with Kueue's token; research's "r" runs.
        std::uint32_t a = 0;
        QVERIFY(findJob(after, "a", &a));
        bool pendingWithToken = false;
        for (const PendingJob& p : after.pendingAt(1800))
            if (p.job == a)
                pendingWithToken =
                    p.layer == Layer::Scheduling && p.token == ReasonToken::ExceedsMaxQuota;
        QVERIFY(pendingWithToken);
        // The pending list at 30 min shows "a" blamed on its quota (the reason's words).
        f.window->scrubber()->setTime(1800);
        ui::PendingTableModel* pending = f.window->pendingModel();
        bool listed = false;
        for (int r = 0; r < pending->rowCount(); ++r) {
            if (pending->index(r, 0).data(ui::PendingTableModel::JobIndexRole).toUInt() != a)
                continue;
            QString row;
            for (int c = 0; c < pending->columnCount(); ++c)
                row += pending->index(r, c).data().toString() + " | ";
            listed = row.contains("quota", Qt::CaseInsensitive);
            QVERIFY2(listed, qPrintable(row));
        }
        QVERIFY(listed);
        const std::uint64_t editedFingerprint = after.fingerprint;
        QVERIFY(editedFingerprint != originalFingerprint);
        QCOMPARE(cell(panel, "applied", Model::NominalColumn).data().toString(),
                 QStringLiteral("0"));

        // Undo: the scenario exactly as it was, and the same run.
        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario() == original);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fingerprint, originalFingerprint);
        QCOMPARE(cell(panel, "applied", Model::NominalColumn).data().toString(),
                 QStringLiteral("64"));
        // Redo: the edit again, and its run.
        f.doc.undoStack()->redo();
        QCOMPARE(f.doc.scenario().quotas[1].flavors[0].nominalGpus, 0.0);
        QVERIFY(f.waitForResults());
        QCOMPARE(f.window->results()->fingerprint, editedFingerprint);
    }

    void refusedValuesChangeNothingAndSayWhy() {
        Fixture f(QStringLiteral("shared-cohort.json"));
        QuotaPanel* panel = quotaPanel(f);
        QVERIFY(panel);
        const Scenario before = f.doc.scenario();
        const int steps = f.doc.undoStack()->count();
        const int index = f.doc.undoStack()->index();

        // A negative nominal quota: the validator's own reason, in the scenario's names.
        QVERIFY(!panel->model()->setData(cell(panel, "applied", Model::NominalColumn),
                                         QStringLiteral("-4"), Qt::EditRole));
        QVERIFY(f.doc.scenario() == before);
        QCOMPARE(f.doc.undoStack()->count(), steps);
        QCOMPARE(f.doc.undoStack()->index(), index);
        QVERIFY2(panel->refusal().contains("quota of team \"applied\"") &&
                     panel->refusal().contains("nominal quota") && panel->refusal().contains("-4"),
                 qPrintable(panel->refusal()));
        QVERIFY2(f.status().startsWith("Refused: ") && f.status().contains("-4"),
                 qPrintable(f.status()));
        QCOMPARE(cell(panel, "applied", Model::NominalColumn).data().toString(),
                 QStringLiteral("64"));

        // Lending more than the nominal quota (research: 96).
        QVERIFY(!panel->model()->setData(cell(panel, "research", Model::LendingLimitColumn),
                                         QStringLiteral("100"), Qt::EditRole));
        QVERIFY(f.doc.scenario() == before);
        QCOMPARE(f.doc.undoStack()->count(), steps);
        QVERIFY2(panel->refusal().contains("lends more than its nominal quota of 96"),
                 qPrintable(panel->refusal()));
        QVERIFY(f.status().contains("lends more than its nominal quota of 96"));
        QCOMPARE(cell(panel, "research", Model::LendingLimitColumn).data().toString(),
                 QStringLiteral("32"));

        // Not a number at all.
        QVERIFY(!panel->model()->setData(cell(panel, "applied", Model::WeightColumn),
                                         QStringLiteral("heavy"), Qt::EditRole));
        QVERIFY(panel->refusal().contains("not a number"));
        QVERIFY(f.doc.scenario() == before);

        // Out of its cohort, applied's borrowing limit has nothing to borrow from: refused.
        QVERIFY(!panel->model()->setData(cell(panel, "applied", Model::CohortColumn),
                                         Model::kNoCohort, Qt::EditRole));
        QVERIFY2(panel->refusal().contains("borrowing needs a cohort"),
                 qPrintable(panel->refusal()));
        QVERIFY(f.doc.scenario() == before);
        // product has no limits: it may leave the cohort (and come back with undo).
        QCOMPARE(cell(panel, "product", Model::CohortColumn).data(ui::ChoicesRole).toStringList(),
                 (QStringList{Model::kNoCohort, "all"}));
        QVERIFY(panel->model()->setData(cell(panel, "product", Model::CohortColumn),
                                        Model::kNoCohort, Qt::EditRole));
        QCOMPARE(f.doc.scenario().quotas[2].cohort, std::string());
        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario() == before);

        // The reclaim policy is picked from Kueue's three.
        QVERIFY(panel->model()->setData(cell(panel, "product", Model::ReclaimColumn),
                                        QStringLiteral("LowerPriority"), Qt::EditRole));
        QCOMPARE(f.doc.scenario().quotas[2].reclaimWithinCohort, ReclaimPolicy::LowerPriority);
        QCOMPARE(cell(panel, "product", Model::ReclaimColumn).data(ui::ChoicesRole).toStringList(),
                 (QStringList{"Never", "LowerPriority", "Any"}));
        f.doc.undoStack()->undo();

        // A limit cleared with "none" goes through, and a good value clears the reason.
        QVERIFY(panel->model()->setData(cell(panel, "research", Model::LendingLimitColumn),
                                        QStringLiteral("none"), Qt::EditRole));
        QVERIFY(!f.doc.scenario().quotas[0].flavors[0].lendingLimitGpus);
        QVERIFY(panel->refusal().isEmpty());
        QCOMPARE(f.doc.undoStack()->count(), steps + 1);
    }

    void addAndRemoveQuotaButtons() {
        Fixture f(QStringLiteral("shared-cohort.json"));
        QuotaPanel* panel = quotaPanel(f);
        panel->selectRow("data-science");
        QCOMPARE(panel->selected().team, std::string("data-science"));
        QVERIFY(!panel->removeButton()->isEnabled());
        panel->addButton()->click();
        QCOMPARE(f.doc.scenario().quotas.size(), std::size_t{4});
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Add data-science's H100 quota"));
        // The new row is selected, managed now, and can go again.
        QCOMPARE(panel->selected().gpuModel, std::string("h100-sxm"));
        QVERIFY(panel->removeButton()->isEnabled());
        panel->removeButton()->click();
        QCOMPARE(f.doc.scenario().quotas.size(), std::size_t{3});
        QCOMPARE(panel->model()
                     ->index(panel->model()->rowOf("data-science"), Model::GpuModelColumn)
                     .data()
                     .toString(),
                 QStringLiteral("not managed"));
        // The cohort's fair sharing switch is one edit too.
        panel->fairSharingBox("all")->click();
        QVERIFY(!f.doc.scenario().cohorts[0].fairSharing);
        QCOMPARE(f.doc.undoStack()->undoText(),
                 QStringLiteral("Turn fair sharing off in cohort all"));
        f.doc.undoStack()->undo();
        QVERIFY(panel->fairSharingBox("all")->isChecked());
    }

    void aSliderDragIsOneUndoStep() {
        Fixture f(QStringLiteral("shared-cohort.json"));
        auto* dock = f.window->findChild<QuotaDock*>();
        dock->show();
        dock->raise();
        QuotaPanel* panel = dock->panel();
        panel->selectRow("applied");
        QSlider* slider = panel->weightSlider();
        QTRY_VERIFY(slider->isVisible() && slider->width() > 100);
        QCOMPARE(slider->value(), 2 * QuotaPanel::kWeightSteps);  // applied's weight 2
        const Scenario before = f.doc.scenario();
        const int steps = f.doc.undoStack()->count();

        // Grab the handle and drag it right in several steps, as a person would.
        const QPoint start = handleCentre(slider);
        QTest::mousePress(slider, Qt::LeftButton, {}, start);
        int edits = 0;
        QObject::connect(&f.doc, &ScenarioDocument::changed, [&edits] { ++edits; });
        for (int dx = 10; dx <= 60; dx += 10) {
            QTest::mouseMove(slider, start + QPoint(dx, 0), 20);
            // The hand rests longer than the merge window: still the same drag.
            if (dx == 30) QTest::qWait(ScenarioDocument::kMergeWindowMs + 300);
        }
        QTest::mouseRelease(slider, Qt::LeftButton, {}, start + QPoint(60, 0));
        QVERIFY2(edits >= 3, qPrintable(QString::number(edits)));  // several steps re-simulated
        const double weight = f.doc.scenario().quotas[1].fairShareWeight;
        QVERIFY(weight > 2);
        QCOMPARE(weight, static_cast<double>(slider->value()) / QuotaPanel::kWeightSteps);
        QCOMPARE(f.doc.undoStack()->count(), steps + 1);  // one drag, one undo step
        QCOMPARE(f.doc.undoStack()->undoText(),
                 QStringLiteral("Set applied's fair-share weight to %1").arg(weight));
        QVERIFY(f.waitForResults());

        // A second drag right after (within the merge window) is a step of its own.
        const QPoint again = handleCentre(slider);
        QTest::mousePress(slider, Qt::LeftButton, {}, again);
        QTest::mouseMove(slider, again + QPoint(-20, 0), 20);
        QTest::mouseRelease(slider, Qt::LeftButton, {}, again + QPoint(-20, 0));
        QCOMPARE(f.doc.undoStack()->count(), steps + 2);
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().quotas[1].fairShareWeight, weight);
        QVERIFY(f.waitForResults());

        // One undo takes the whole drag back, and the slider follows.
        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario() == before);
        QCOMPARE(slider->value(), 2 * QuotaPanel::kWeightSteps);

        // The nominal slider: its steps are one undo step too.
        QSlider* nominal = panel->nominalSlider();
        QCOMPARE(nominal->value(), 64);
        for (int v = 65; v <= 70; ++v)
            nominal->setValue(v);  // arrow keys: one step each
        QCOMPARE(f.doc.scenario().quotas[1].flavors[0].nominalGpus, 70.0);
        QCOMPARE(f.doc.undoStack()->count(), steps + 1);
        QCOMPARE(f.doc.undoStack()->undoText(),
                 QStringLiteral("Set applied's nominal H100 quota to 70"));
        QVERIFY(f.waitForResults());
    }
};

GPUPLAN_APP_TEST("test_quota_panel", QuotaPanelTest);
#include "test_quota_panel.moc"
