#include "report_page_one.hpp"

#include <QCoreApplication>
#include <QLocale>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "baseline_changes.hpp"
#include "fleet_description.hpp"
#include "format/kpi_format.hpp"
#include "format/ui_palette.hpp"
#include "gpuplan/studies/replications.hpp"

namespace gpuplan::report {

namespace {

const QColor kNoteColor(QStringLiteral("#505050"));

/// One side of the comparison: a run, and the replications behind it (null: one run).
struct Side {
    const Results* results = nullptr;
    const Replications* replications = nullptr;
    explicit operator bool() const { return results != nullptr; }
};

Side current(const ReportInput& input) {
    return {input.results.get(), input.replications.get()};
}

Side baseline(const ReportInput& input) {
    return {input.baseline.get(), input.baseline ? input.baselineReplications.get() : nullptr};
}

/// Both sides ran on the same seeds: deltas get paired intervals.
bool paired(const ReportInput& input) {
    return input.baseline && input.replications && input.baselineReplications &&
           input.replications->seeds == input.baselineReplications->seeds;
}

/// A fleet-wide KPI as shown: the mean over replications when there are some.
std::optional<Kpi> fleetKpi(const Side& side, const std::string& name) {
    const Kpi* k = side ? side.results->findKpi(name) : nullptr;
    if (!k) return std::nullopt;
    Kpi shown = *k;
    if (const KpiEstimate* e = side.replications ? side.replications->findKpi(name) : nullptr)
        shown.value = e->interval.mean;
    return shown;
}

/// One team's KPI (teamKpiList's names) as shown; nullopt when the team did not run there.
std::optional<Kpi> teamKpi(const Side& side, const std::string& team, const std::string& name) {
    if (!side) return std::nullopt;
    if (const TeamEstimates* t = side.replications ? side.replications->findTeam(team) : nullptr)
        if (const KpiEstimate* e = t->findKpi(name))
            return Kpi{e->name, e->interval.mean, e->unit, e->description};
    for (const GroupKpis& g : side.results->teamKpis)
        if (g.name == team)
            for (const Kpi& k : teamKpiList(g))
                if (k.name == name) return k;
    return std::nullopt;
}

/// A column of the team table: the team's KPI and the fleet's that fills the fleet's row.
struct TeamColumn {
    const char* header;
    const char* teamKpi;
    const char* fleetKpi;
};
const TeamColumn kTeamColumns[] = {
    {QT_TRANSLATE_NOOP("report", "Wait p50"), "wait_s_p50", "wait_s_p50"},
    {QT_TRANSLATE_NOOP("report", "Wait p95"), "wait_s_p95", "wait_s_p95"},
    {QT_TRANSLATE_NOOP("report", "GPU-hours"), "gpu_hours_allocated", "gpu_hours_allocated"},
    {QT_TRANSLATE_NOOP("report", "Still waiting"), "jobs_waiting_at_end", "jobs_waiting_at_end"},
    {QT_TRANSLATE_NOOP("report", "Share of fleet"), "allocation_share", "allocation_mean"},
};

QString valueText(const std::optional<Kpi>& k) {
    return k ? ui::formatKpiValue(*k) : QStringLiteral("–");
}

/// A group's rows: baseline, current, Δ and (paired) the half-width of the Δ's 95 % interval;
/// one row of the current values without a baseline.
void addGroup(ReportTable& table, const ReportInput& input, const TableCell& name,
              const std::function<std::optional<Kpi>(const Side&, const char* kpi)>& kpi,
              const std::function<std::optional<MeanInterval>(const char* kpi)>& pairedOf) {
    if (!input.baseline) {
        std::vector<TableCell> row{name};
        for (const TeamColumn& c : kTeamColumns)
            row.push_back({valueText(kpi(current(input), c.teamKpi))});
        table.rows.push_back(std::move(row));
        return;
    }
    const bool withInterval = paired(input);
    std::vector<TableCell> before{name, {QObject::tr("baseline"), kNoteColor}};
    std::vector<TableCell> now{{}, {QObject::tr("current"), Qt::black, true}};
    std::vector<TableCell> delta{{}, {QObject::tr("Δ"), kNoteColor}};
    std::vector<TableCell> interval{{}, {QObject::tr("± 95 %"), kNoteColor}};
    for (const TeamColumn& c : kTeamColumns) {
        const std::optional<Kpi> a = kpi(baseline(input), c.teamKpi);
        const std::optional<Kpi> b = kpi(current(input), c.teamKpi);
        before.push_back({valueText(a), kNoteColor});
        now.push_back({valueText(b), Qt::black, true});
        if (a && b) {
            const ui::KpiDelta d =
                ui::compareKpi(*b, *a, withInterval ? pairedOf(c.teamKpi) : std::nullopt);
            delta.push_back({d.text, ui::deltaToneColor(d.tone), d.tone != ui::DeltaTone::Neutral});
            interval.push_back({d.halfWidth, kNoteColor});
        } else {
            delta.push_back({QStringLiteral("–"), kNoteColor});
            interval.push_back({});
        }
    }
    table.rows.push_back(std::move(before));
    table.rows.push_back(std::move(now));
    table.rows.push_back(std::move(delta));
    if (withInterval) table.rows.push_back(std::move(interval));
}

/// The teams of either run, the current run's order first.
std::vector<std::string> teamsOf(const ReportInput& input) {
    std::vector<std::string> teams;
    auto add = [&](const Results* r) {
        if (!r) return;
        for (const std::string& t : r->teams)
            if (std::find(teams.begin(), teams.end(), t) == teams.end() &&
                std::any_of(r->teamKpis.begin(), r->teamKpis.end(),
                            [&](const GroupKpis& g) { return g.name == t; }))
                teams.push_back(t);
    };
    add(input.results.get());
    add(input.baseline.get());
    return teams;
}

QString measuredSpanText(const Results& r) {
    return ui::measuredSpan(r);
}

}  // namespace

ReportTable teamTable(const ReportInput& input) {
    ReportTable table;
    table.header << QObject::tr("Team");
    if (input.baseline) table.header << QString();
    for (const TeamColumn& c : kTeamColumns)
        table.header << QCoreApplication::translate("report", c.header);
    if (input.baseline) {
        table.columnWeights = {15, 10, 15, 15, 15, 15, 15};
        table.rowsPerGroup = paired(input) ? 4 : 3;
        table.rowPadPt = 1.5;  // a team's rows together; a rule between teams
    } else {
        table.columnWeights = {20, 16, 16, 16, 16, 16};
    }
    table.alignment.assign(table.columnWeights.size(), Qt::AlignRight);
    table.alignment[0] = Qt::AlignLeft;
    if (input.baseline) table.alignment[1] = Qt::AlignLeft;
    const std::vector<QColor> colors = ui::teamColors(*input.results);
    const std::vector<std::string> teams = teamsOf(input);
    for (const std::string& team : teams) {
        const auto at = std::find(input.results->teams.begin(), input.results->teams.end(), team);
        const QColor color = at != input.results->teams.end()
                                 ? colors[at - input.results->teams.begin()].darker(140)
                                 : QColor(Qt::black);
        addGroup(
            table, input, {QString::fromStdString(team), color, true},
            [&](const Side& side, const char* kpi) { return teamKpi(side, team, kpi); },
            [&](const char* kpi) {
                return pairedTeamDifference(*input.baselineReplications, *input.replications, team,
                                            kpi);
            });
    }
    // The fleet: every team together, its share the fleet's allocation.
    auto fleetNameOf = [](const char* teamKpiName) {
        for (const TeamColumn& c : kTeamColumns)
            if (std::string_view(c.teamKpi) == teamKpiName) return c.fleetKpi;
        return teamKpiName;
    };
    addGroup(
        table, input, {QObject::tr("All teams"), Qt::black, true},
        [&](const Side& side, const char* kpi) { return fleetKpi(side, fleetNameOf(kpi)); },
        [&](const char* kpi) {
            return pairedDifference(*input.baselineReplications, *input.replications,
                                    fleetNameOf(kpi));
        });
    return table;
}

ReportTable costTable(const ReportInput& input) {
    struct Row {
        const char* kpi;
        QString label;
    };
    const Row rows[] = {
        {"cost_usd", QObject::tr("Cost of the fleet")},
        {"idle_cost_usd", QObject::tr("Idle cost (paid, SMs not busy)")},
        {"usd_per_useful_gpu_h", QObject::tr("Cost of a useful GPU-hour")},
    };
    ReportTable table;
    const bool withInterval = paired(input);
    if (input.baseline) {
        table.header = {QString(), QObject::tr("Baseline"), QObject::tr("Current"),
                        QObject::tr("Δ")};
        table.columnWeights = {40, 20, 20, 20};
        if (withInterval) {
            table.header << QObject::tr("Δ ± 95 %");
            table.columnWeights = {36, 16, 16, 16, 16};
        }
    } else {
        table.header = {QString(), QObject::tr("Value")};
        table.columnWeights = {60, 40};
    }
    table.alignment.assign(table.columnWeights.size(), Qt::AlignRight);
    table.alignment[0] = Qt::AlignLeft;
    for (const Row& r : rows) {
        const std::optional<Kpi> now = fleetKpi(current(input), r.kpi);
        std::vector<TableCell> cells{{r.label}};
        if (!input.baseline) {
            cells.push_back({valueText(now), Qt::black, true});
        } else {
            const std::optional<Kpi> before = fleetKpi(baseline(input), r.kpi);
            cells.push_back({valueText(before), kNoteColor});
            cells.push_back({valueText(now), Qt::black, true});
            if (now && before) {
                const ui::KpiDelta d = ui::compareKpi(
                    *now, *before,
                    withInterval
                        ? pairedDifference(*input.baselineReplications, *input.replications, r.kpi)
                        : std::nullopt);
                cells.push_back(
                    {d.text, ui::deltaToneColor(d.tone), d.tone != ui::DeltaTone::Neutral});
                if (withInterval) cells.push_back({d.halfWidth, kNoteColor});
            } else {
                cells.push_back({QStringLiteral("–"), kNoteColor});
                if (withInterval) cells.push_back({});
            }
        }
        table.rows.push_back(std::move(cells));
    }
    return table;
}

namespace {

QString runsText(const Replications* replications) {
    return replications && replications->count > 1
               ? QObject::tr("means of %1 runs").arg(replications->count)
               : QObject::tr("one run");
}

/// "allocation 66.2 % → 77.2 % (+11.0 pp)", or "allocation 77.2 %" without a baseline; empty
/// when the run lacks the KPI.
QString figure(const QString& label, const std::optional<Kpi>& now,
               const std::optional<Kpi>& before) {
    if (!now || !std::isfinite(now->value)) return {};
    // Each amount stays whole on its line: "+8.0 pp", not "+8.0" and "pp" apart.
    auto whole = [](QString amount) { return amount.replace(QLatin1Char(' '), QChar(0x00A0)); };
    if (!before || !std::isfinite(before->value))
        return QStringLiteral("%1 %2").arg(label, whole(ui::formatKpiValue(*now)));
    const QString delta = ui::compareKpi(*now, *before).text;
    if (delta.startsWith(QStringLiteral("±")))  // reads zero
        return QObject::tr("%1 %2 (unchanged)").arg(label, whole(ui::formatKpiValue(*now)));
    return QStringLiteral("%1 %2 → %3 (%4)")
        .arg(label, whole(ui::formatKpiValue(*before)), whole(ui::formatKpiValue(*now)),
             whole(delta));
}

/// The figures a meeting asks first, in one sentence: the fleet's wait p95 and the team that
/// waits longest, jobs still waiting at the end, the allocation, the cost over the span and
/// the cost of a useful GPU-hour, each before → after with its Δ when there is a baseline.
QString inShort(const ReportInput& input) {
    const Side now = current(input), before = baseline(input);
    auto both = [&](const char* kpi) {
        return std::pair{fleetKpi(now, kpi), fleetKpi(before, kpi)};
    };
    QStringList parts;
    auto add = [&](const QString& label, const char* kpi) {
        const auto [a, b] = both(kpi);
        if (QString f = figure(label, a, b); !f.isEmpty()) parts << f;
    };
    add(QObject::tr("wait p95"), "wait_s_p95");
    // The team that waits longest now, when there are several.
    const std::vector<std::string> teams = teamsOf(input);
    std::optional<Kpi> longest;
    std::string longestTeam;
    for (const std::string& t : teams)
        if (const std::optional<Kpi> k = teamKpi(now, t, "wait_s_p95");
            k && std::isfinite(k->value) && (!longest || k->value > longest->value)) {
            longest = k;
            longestTeam = t;
        }
    if (teams.size() > 1 && longest && longest->value > 0)
        parts << figure(QObject::tr("the longest, %1's,").arg(QString::fromStdString(longestTeam)),
                        longest, teamKpi(before, longestTeam, "wait_s_p95"));
    add(QObject::tr("jobs still waiting at the end"), "jobs_waiting_at_end");
    add(QObject::tr("allocation"), "allocation_mean");
    if (input.results->fleet.priced) {
        add(QObject::tr("cost"), "cost_usd");
        if (!parts.isEmpty() && parts.back().startsWith(QObject::tr("cost")))
            parts.back() += QLatin1Char(' ') + measuredSpanText(*input.results);
        add(QObject::tr("a useful GPU-hour"), "usd_per_useful_gpu_h");
    }
    // A word joiner keeps a signed amount whole across a line break: "(−$0.26/GPU-h)".
    return parts.join(QStringLiteral("; "))
        .replace(QStringLiteral("−$"), QStringLiteral("−\u2060$"))
        .replace(QStringLiteral("+$"), QStringLiteral("+\u2060$"));
}

void baselineSection(ReportCanvas& canvas, const ReportInput& input, const NodeTypeNames& names) {
    canvas.heading(input.baseline ? QObject::tr("Against the baseline") : QObject::tr("In short"));
    if (!input.baseline) {
        QString summary = inShort(input);
        if (!summary.isEmpty()) summary[0] = summary[0].toUpper();
        canvas.paragraph(summary + QLatin1Char('.'), Qt::black, ReportCanvas::kBodyPt + 1);
        canvas.paragraph(QObject::tr("No baseline was given, so nothing is compared: pin one "
                                     "in gpuplan (Run ▸ Pin as baseline) or give gpuplan-cli "
                                     "report --baseline."),
                         kNoteColor, 8);
        return;
    }
    const QString name = input.baselineName.isEmpty()
                             ? QString()
                             : QStringLiteral(" (\u201c%1\u201d)").arg(input.baselineName);
    canvas.paragraph(
        QObject::tr("Baseline%1: %2, %3%4.")
            .arg(name, fleetHeadline(input.baseline->fleet, names),
                 QObject::tr("simulated %1").arg(ui::formatDuration(input.baseline->horizonS)),
                 paired(input) ? QObject::tr(", %1 on the same seeds")
                                     .arg(runsText(input.baselineReplications.get()))
                               : QString()));
    const BaselineChanges changes = compareWithBaseline(
        input.baseline->fleet, input.baselineScenario ? &*input.baselineScenario : nullptr,
        input.results->fleet, input.scenario, names);
    canvas.paragraph(QObject::tr("What changed: %1.").arg(changesSentence(changes)), Qt::black,
                     ReportCanvas::kBodyPt + 1, true);
    if (!changes.settingsCompared)
        canvas.paragraph(QObject::tr("Only the fleets were compared: the baseline's other "
                                     "settings were not given."),
                         kNoteColor, 8);
    canvas.paragraph(QObject::tr("What it does: %1.").arg(inShort(input)), Qt::black,
                     ReportCanvas::kBodyPt + 1);
}

void costSection(ReportCanvas& canvas, const ReportInput& input) {
    const bool priced =
        input.results->fleet.priced || (input.baseline && input.baseline->fleet.priced);
    if (!priced) {
        canvas.paragraph(QObject::tr("The fleet has no prices, so the report shows no costs."),
                         kNoteColor);
        return;
    }
    canvas.heading(QObject::tr("Cost %1").arg(measuredSpanText(*input.results)), 80);
    canvas.table(costTable(input), ReportCanvas::kBodyPt);
    QString note;
    if (input.scenario.pricing)
        note += QObject::tr("Prices: %1 (as of %2). ")
                    .arg(QString::fromStdString(input.scenario.pricing->book),
                         QString::fromStdString(input.scenario.pricing->asOf));
    note += QObject::tr(
        "The fleet's cost counts every GPU from its delivery on at its price per GPU-hour; a "
        "useful GPU-hour is one of progress (lost work, start-up and crash loops excluded).");
    if (input.baseline && measuredSpanText(*input.baseline) != measuredSpanText(*input.results))
        note += ' ' + QObject::tr(
                          "The baseline's costs are %1: compare the cost of a useful "
                          "GPU-hour rather than the totals.")
                          .arg(measuredSpanText(*input.baseline));
    canvas.paragraph(note, kNoteColor, 8);
}

/// The planner's answer first: the question, the recommendation, each target with its
/// interval and whether it is met, and the objective against the scenario as it stood.
void planSection(ReportCanvas& canvas, const PlanFinding& plan) {
    canvas.heading(QObject::tr("The question"), 120);
    canvas.paragraph(plan.question, Qt::black, ReportCanvas::kBodyPt + 1);
    canvas.heading(plan.feasible ? QObject::tr("Recommendation")
                                 : QObject::tr("No change within the bounds meets every target"),
                   100);
    if (!plan.feasible) canvas.paragraph(QObject::tr("The closest candidate:"), kNoteColor);
    for (const QString& change : plan.changes)
        canvas.paragraph(QStringLiteral("• ") + change, Qt::black, ReportCanvas::kBodyPt + 1, true);
    ReportTable table;
    table.header = {QObject::tr("Target"),        QObject::tr("Bound"),
                    QObject::tr("With the plan"), QObject::tr("95 % interval"),
                    QObject::tr("Met"),           QObject::tr("Now")};
    table.columnWeights = {3.2, 1.3, 1.4, 2.4, 0.8, 1.4};
    table.alignment = {Qt::AlignLeft,  Qt::AlignRight,  Qt::AlignRight,
                       Qt::AlignRight, Qt::AlignCenter, Qt::AlignRight};
    const QColor met = ui::deltaToneColor(ui::DeltaTone::Better);
    const QColor missed = ui::deltaToneColor(ui::DeltaTone::Worse);
    for (const PlanFinding::Target& t : plan.targets)
        table.rows.push_back(
            {{t.label},
             {t.bound},
             {t.value, Qt::black, true},
             {t.interval, kNoteColor},
             {t.met ? QObject::tr("yes") : QObject::tr("no"), t.met ? met : missed, true},
             {t.now, kNoteColor}});
    table.rows.push_back({{plan.objectiveLabel, Qt::black, true},
                          {},
                          {plan.objectiveValue, Qt::black, true},
                          {plan.objectiveInterval, kNoteColor},
                          {},
                          {plan.objectiveNow, kNoteColor}});
    canvas.table(table, 8);
    QString note = plan.method;
    if (!plan.objectiveDelta.isEmpty())
        note = QObject::tr("%1 against the scenario as it stood: %2. ")
                   .arg(plan.objectiveLabel, plan.objectiveDelta) +
               note;
    canvas.paragraph(note, kNoteColor, 8);
}

}  // namespace

void pageOne(ReportCanvas& canvas, const ReportInput& input) {
    const Results& r = *input.results;
    NodeTypeNames names;
    names.add(r.fleet);
    if (input.baseline) names.add(input.baseline->fleet);
    const QString scenarioName =
        !input.scenarioName.isEmpty()
            ? input.scenarioName
            : QString::fromStdString(input.scenario.name.empty() ? "scenario"
                                                                 : input.scenario.name);
    // The scenario's name is a label its author wrote (an edit does not change it): quoted,
    // under the fleet counted above.
    QString subtitle = QObject::tr("Planning report on scenario \u201c%1\u201d").arg(scenarioName);
    if (input.baseline)
        subtitle += input.baselineName.isEmpty() || input.baselineName == scenarioName
                        ? QObject::tr(" · compared with its baseline")
                        : QObject::tr(" · compared with %1").arg(input.baselineName);
    subtitle += QObject::tr(" · simulated %1").arg(ui::formatDuration(r.horizonS));
    if (r.warmupS > 0)
        subtitle += QObject::tr(" (figures after a %1 warm-up)").arg(ui::formatDuration(r.warmupS));
    subtitle += QStringLiteral(" · ") + runsText(input.replications.get());
    canvas.title(fleetHeadline(r.fleet, names), subtitle);
    QString fleet = fleetDetails(r.fleet);
    const double submitted = r.kpi("jobs_submitted");
    QString work = QObject::tr("Work: %1 from %2")
                       .arg(countOf(static_cast<long long>(submitted), QObject::tr("job"),
                                    QObject::tr("jobs")),
                            countOf(static_cast<long long>(r.teamKpis.size()), QObject::tr("team"),
                                    QObject::tr("teams")));
    if (input.scenario.demandMultiplier != 1)
        work += QObject::tr(" (demand × %1)")
                    .arg(QLocale::c().toString(input.scenario.demandMultiplier, 'g', 4));
    fleet += (fleet.isEmpty() ? QString() : QStringLiteral(" ")) + work + QLatin1Char('.');
    canvas.paragraph(fleet);
    if (input.plan) planSection(canvas, *input.plan);
    baselineSection(canvas, input, names);

    canvas.heading(QObject::tr("Per team"), 120);
    canvas.table(teamTable(input), 8);
    canvas.paragraph(
        QObject::tr("Wait: from submit to first start (p50: half the jobs waited less; p95: all "
                    "but one in 20; jobs still queued at the end count with their wait so far). "
                    "GPU-hours: what its jobs held. Still waiting: its jobs queued when the run "
                    "ends. Share of fleet: its GPU-hours ÷ the fleet's GPU-hours in service (all "
                    "teams: the allocation).") +
            (input.baseline
                 ? ' ' + QObject::tr(
                             "Δ = current − baseline (pp: percentage points): green better, red "
                             "worse, grey no change or no direction.")
                 : QString()) +
            (paired(input) ? ' ' + QObject::tr("Over %1 runs on the same seeds, Δ is the mean "
                                               "paired difference, ± the half-width of its 95 % "
                                               "interval; a Δ whose interval holds 0 may be "
                                               "noise and is grey.")
                                       .arg(input.replications->count)
                           : QString()),
        kNoteColor, 8);
    costSection(canvas, input);
}

}  // namespace gpuplan::report
