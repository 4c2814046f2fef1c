#include "workload_edits.hpp"

#include <QColor>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <span>

#include "format/workload_format.hpp"
#include "tables/workload_models.hpp"

namespace gpuplan::app {

namespace {

using ui::Quantity;

WorkloadEdit refused(const QString& reason) {
    WorkloadEdit e;
    e.refusal = reason;
    return e;
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

/// An integer typed into a cell; `error` names the field.
std::optional<long long> parseInteger(const QString& text, const QString& field, QString* error) {
    bool ok = false;
    const long long v = text.trimmed().toLongLong(&ok);
    if (!ok) *error = QObject::tr("%1: \"%2\" is not a whole number").arg(field, text.trimmed());
    return ok ? std::optional<long long>(v) : std::nullopt;
}

/// A percentage typed into a cell ("80" or "80 %") as a fraction 0..1.
std::optional<double> parseFraction(const QString& text, const QString& field, QString* error) {
    QString numberError;
    const auto v = ui::parseNumber(text, &numberError);
    if (!v) {
        *error = QStringLiteral("%1: %2").arg(field, numberError);
        return std::nullopt;
    }
    if (*v < 0 || *v > 100) {
        *error = QObject::tr("%1 must be between 0 and 100 %, got %2 %")
                     .arg(field, QString::number(*v, 'g', 6));
        return std::nullopt;
    }
    return *v / 100;
}

/// Sets the trait columns classes and jobs share; false if `column` is not one of them.
bool setTrait(JobTraitsDef& t, const QString& field, const QString& value, bool isTeam,
              bool isPriority, QString* error) {
    if (isTeam) {
        t.team = value.trimmed().toStdString();
        return true;
    }
    if (isPriority) {
        const auto v = parseInteger(value, field, error);
        if (!v) return false;
        if (*v < -1'000'000'000 || *v > 1'000'000'000) {
            *error = QObject::tr("%1 must be between -1000000000 and 1000000000").arg(field);
            return false;
        }
        t.priority = static_cast<int>(*v);
        return true;
    }
    return false;
}

/// The Elastic to cell: blank, "fixed" or 0 = fixed size, else a whole number of GPUs
/// ("16" or "16 GPUs"). The reader's rules (whole GPUs only; an explicit job's maximum above
/// its GPUs) apply when the edit is committed.
bool setElastic(JobTraitsDef& t, const QString& field, QString text, QString* error) {
    text.remove(QStringLiteral("GPUs"), Qt::CaseInsensitive);
    text.remove(QStringLiteral("GPU"), Qt::CaseInsensitive);
    text = text.trimmed();
    if (text.isEmpty() || text == QLatin1String("fixed") || text == QLatin1String("0")) {
        t.elasticMaxGpus = 0;
        return true;
    }
    const auto v = parseInteger(text, field, error);
    if (!v) return false;
    if (*v < 0) {
        *error = QObject::tr("%1 must be a number of GPUs above 0 (blank = fixed size), got %2")
                     .arg(field)
                     .arg(*v);
        return false;
    }
    // Past the file's range the reader refuses it with its bounds.
    t.elasticMaxGpus = static_cast<int>(std::min<long long>(*v, 10'000'000));
    return true;
}

/// Blank, "none", "never" and friends: the trait's default.
bool meansDefault(const QString& text) {
    static const QStringList words{"",     "none",      "never",     "any",
                                   "auto", "automatic", "not asked", "whole"};
    return words.contains(text.trimmed().toLower());
}

/// A unit a quantity may be typed in, and how many of the stored unit it is.
struct UnitWord {
    const char* word;
    double factor;
};

/// An amount typed with an optional unit ("24", "24 cores", "500m", "64 GiB"), in the stored
/// unit: a whole number from 1 to `max` (0 is refused: blank is how to ask for none), so no
/// value rounds to "not asked" or past the reader's bound unseen. `units` lists the words,
/// the first being the one a bare number means and the message names.
std::optional<long long> parseWholeAmount(const QString& typed, std::span<const UnitWord> units,
                                          long long max, const char* range, const QString& field,
                                          QString* error) {
    QString text = typed.trimmed();
    double factor = units.front().factor;
    for (const UnitWord& u : units) {
        const QString word = QString::fromUtf8(u.word);
        if (!word.isEmpty() && text.endsWith(word, Qt::CaseInsensitive)) {
            text.chop(word.size());
            factor = u.factor;
            break;
        }
    }
    const auto v = ui::parseNumber(text.trimmed(), error);
    if (!v) return std::nullopt;
    const double stored = *v * factor;
    if (!(stored >= 1) || stored > static_cast<double>(max)) {
        *error = QObject::tr("%1 must be %2 (blank = none), got %3")
                     .arg(field, QString::fromUtf8(range), typed.trimmed());
        return std::nullopt;
    }
    return std::llround(stored);
}

/// GPU memory in GB (the catalog's decimal GB), above 0 and at most the reader's 1e5.
std::optional<double> parseGpuGb(QString text, const QString& field, QString* error) {
    text = text.trimmed();
    if (text.endsWith(QLatin1String("GB"), Qt::CaseInsensitive)) text.chop(2);
    const auto v = ui::parseNumber(text.trimmed(), error);
    if (!v) return std::nullopt;
    if (!(*v >= 0.001 && *v <= 1e5)) {
        *error = QObject::tr("%1 must be between 0.001 and 100000 GB (blank = none)").arg(field);
        return std::nullopt;
    }
    return v;
}

/// "0.6" in a percentage row: 0.6 % or 60 %? Refused unless written with "%".
bool ambiguousFraction(const QString& text, const QString& field, QString* error) {
    bool isNumber = false;
    const double v = text.trimmed().toDouble(&isNumber);
    if (!isNumber || !(v > 0 && v <= 1)) return false;
    *error = QObject::tr("%1: \"%2\" reads as %2 %; write %3 % for a fraction of %2")
                 .arg(field, text.trimmed(), QString::number(100 * v, 'g', 6));
    return true;
}

/// Sets one pod request row on `t`; false with `error` when the text cannot be read. Ranges
/// and combinations (a share and a MIG instance, a model not in the catalog) are the reader's
/// rules, applied when the document validates the edit.
bool setPodRequestRow(JobTraitsDef& t, int row, const QString& text, const QString& field,
                      QString* error) {
    using R = ui::PodRequestModel;
    const bool blank = meansDefault(text);
    const JobTraitsDef defaults;
    switch (row) {
        case R::GpuModelRow:
            if (blank)
                t.gpuModel.reset();
            else
                t.gpuModel = text.trimmed().toStdString();
            return true;
        case R::GpusPerPodRow: {
            if (blank) {
                t.gpusPerPod = 0;
                return true;
            }
            QString count = text;  // "8", "8 GPUs"
            count.remove(QStringLiteral("GPUs"), Qt::CaseInsensitive);
            count.remove(QStringLiteral("GPU"), Qt::CaseInsensitive);
            const auto v = parseInteger(count, field, error);
            if (v) t.gpusPerPod = static_cast<int>(std::clamp<long long>(*v, -1, 1000));
            return v.has_value();
        }
        case R::GpuShareRow: {
            // 0.25 is a quarter of a GPU; 250m the same in milli-GPU.
            QString s = text.trimmed();
            if (blank) {
                t.gpuMilli = 1000;
                return true;
            }
            const bool milli = s.endsWith(QLatin1Char('m'));
            if (milli) s.chop(1);
            const auto v = ui::parseNumber(s.trimmed(), error);
            if (!v) return false;
            const double m = milli ? *v : *v * 1000;
            if (!(m >= 1 && m <= 1000) || m != std::round(m)) {
                *error = QObject::tr(
                             "%1: a share is 0.001 to 1 GPU (or 1m to 1000m), in whole "
                             "milli-GPUs; got %2")
                             .arg(field, text.trimmed());
                return false;
            }
            t.gpuMilli = static_cast<int>(m);
            return true;
        }
        case R::MigProfileRow: {
            QString s = text.trimmed();
            t.migProfile.clear();
            t.migMemoryGb = 0;
            if (blank) return true;
            // A profile is named <compute>g.<memory>gb; anything else is memory, "20 GB".
            if (!s.contains(QLatin1String("g."), Qt::CaseInsensitive)) {
                const auto v = parseGpuGb(s, field, error);
                if (v) {
                    t.migMemoryGb = *v;
                    t.gpuMilli = 1000;
                }
                return v.has_value();
            }
            t.migProfile = s.toLower().toStdString();  // nvidia-smi's names are lower case
            t.gpuMilli = 1000;  // an instance replaces a share (the reader refuses both)
            return true;
        }
        case R::CpuRow:
        case R::HostMemoryRow: {
            const bool cpu = row == R::CpuRow;
            int& target = cpu ? t.cpuMilliPerPod : t.memoryMiBPerPod;
            if (blank) {
                target = 0;
                return true;
            }
            // Stored in milli-cores and MiB, within the reader's bounds; GB is 10^9 bytes.
            static constexpr UnitWord cores[] = {
                {"cores", 1000}, {"core", 1000}, {"CPUs", 1000}, {"CPU", 1000}, {"m", 1}};
            static constexpr UnitWord memory[] = {
                {"GiB", 1024}, {"Gi", 1024}, {"MiB", 1}, {"Mi", 1}, {"GB", 1e9 / 1048576.0}};
            const auto v =
                cpu ? parseWholeAmount(text, cores, 100'000'000,
                                       "0.001 to 100000 cores (1m to 100000000m)", field, error)
                    : parseWholeAmount(text, memory, 1'000'000'000, "1 MiB to 976562 GiB", field,
                                       error);
            if (v) target = static_cast<int>(*v);
            return v.has_value();
        }
        case R::GpuMemoryRow: {
            if (blank) {
                t.memoryGbPerGpu = 0;
                return true;
            }
            const auto v = parseGpuGb(text, field, error);
            if (v) t.memoryGbPerGpu = *v;
            return v.has_value();
        }
        case R::EngineActiveRow:
            // Blank: as SM activity. Its floor (the SM activity) is the reader's, on commit.
            if (blank) {
                t.engineActive.reset();
                return true;
            } else if (ambiguousFraction(text, field, error)) {
                return false;
            } else if (const auto v = parseFraction(text, field, error)) {
                t.engineActive = *v;
                return true;
            }
            return false;
        case R::SmActivityRow:
        case R::MfuRow:
        case R::MatmulShareRow:
        case R::TopologyRow: {
            double& target = row == R::SmActivityRow    ? t.smActivity
                             : row == R::MfuRow         ? t.mfu
                             : row == R::MatmulShareRow ? t.matmulShare
                                                        : t.topologySensitivity;
            if (blank) {
                target = row == R::SmActivityRow    ? defaults.smActivity
                         : row == R::MfuRow         ? defaults.mfu
                         : row == R::MatmulShareRow ? defaults.matmulShare
                                                    : defaults.topologySensitivity;
                return true;
            }
            if (ambiguousFraction(text, field, error)) return false;
            const auto v = parseFraction(text, field, error);
            if (v) target = *v;
            return v.has_value();
        }
        case R::StartupRow:
        case R::CheckpointIntervalRow:
        case R::CheckpointCostRow: {
            double& v = row == R::StartupRow              ? t.startupS
                        : row == R::CheckpointIntervalRow ? t.checkpointIntervalS
                                                          : t.checkpointCostS;
            if (blank || text.trimmed() == QLatin1String("0")) {
                v = 0;
                return true;
            }
            // A bare number would be hours (the tables' rule for durations): too easy to
            // mean seconds or minutes here. Ask for the unit.
            bool bare = false;
            text.trimmed().toDouble(&bare);
            if (bare) {
                *error =
                    QObject::tr("%1: add a unit to %2 (s, min or h)").arg(field, text.trimmed());
                return false;
            }
            const auto d = ui::parseQuantity(text, Quantity::DurationS, error);
            if (d) v = *d;
            return d.has_value();
        }
        case R::PrecisionRow: {
            const QString s = text.trimmed().toLower();
            if (blank || s == QLatin1String("bf16")) {
                t.precision = Precision::Bf16;
            } else if (s == QLatin1String("fp8")) {
                t.precision = Precision::Fp8;
            } else {
                *error =
                    QObject::tr("%1: \"bf16\" or \"fp8\", got \"%2\"").arg(field, text.trimmed());
                return false;
            }
            return true;
        }
        case R::FlopsPerByteRow: {
            if (blank) {
                t.flopsPerByte.reset();
                return true;
            }
            QString s = text;  // "64", "64 FLOP/B"
            s.remove(QStringLiteral("FLOPs/B"), Qt::CaseInsensitive);
            s.remove(QStringLiteral("FLOP/B"), Qt::CaseInsensitive);
            const auto v = ui::parseNumber(s.trimmed(), error);
            if (v) t.flopsPerByte = *v;  // its range (0 does no work) is the reader's, on commit
            return v.has_value();
        }
        case R::PreemptionRow: {
            const QString s = text.trimmed().toLower();
            if (s == QLatin1String("never")) {
                t.preemptionPolicy = PreemptionPolicy::Never;
            } else if (s.isEmpty() || s.contains(QLatin1String("lower"))) {
                t.preemptionPolicy = defaults.preemptionPolicy;
            } else {
                *error = QObject::tr("%1: \"lower priority\" or \"never\", got \"%2\"")
                             .arg(field, text.trimmed());
                return false;
            }
            return true;
        }
    }
    *error = QObject::tr("That row cannot be edited.");
    return false;
}

/// The class table's trait columns are pod request rows: one parser per trait.
int podRequestRowOf(int column) {
    using C = ui::JobClassTableModel;
    using R = ui::PodRequestModel;
    switch (column) {
        case C::GpusPerPodColumn:
            return R::GpusPerPodRow;
        case C::MemoryColumn:
            return R::GpuMemoryRow;
        case C::SmActivityColumn:
            return R::SmActivityRow;
        case C::EngineActiveColumn:
            return R::EngineActiveRow;
        case C::MfuColumn:
            return R::MfuRow;
        case C::TopologyColumn:
            return R::TopologyRow;
        case C::CheckpointIntervalColumn:
            return R::CheckpointIntervalRow;
        case C::CheckpointCostColumn:
            return R::CheckpointCostRow;
    }
    return -1;
}

}  // namespace

// ---- teams ----------------------------------------------------------------------------------

WorkloadEdit renameTeam(const Scenario& s, int team, const QString& name) {
    const std::string oldName = s.teams.at(team).name;
    const std::string newName = name.trimmed().toStdString();
    if (newName.empty()) return refused(QObject::tr("A team needs a name."));
    for (const TeamDef& t : s.teams)
        if (t.name == newName && t.name != oldName)
            return refused(QObject::tr("There is already a team \"%1\".").arg(q(newName)));
    WorkloadEdit e;
    e.after = s;
    e.after.teams[team].name = newName;
    // Everything that runs for the team follows it, so no reference breaks.
    for (JobClassDef& c : e.after.jobClasses)
        if (c.traits.team == oldName) c.traits.team = newName;
    for (JobDef& j : e.after.jobs)
        if (j.traits.team == oldName) j.traits.team = newName;
    for (QuotaDef& quota : e.after.quotas)
        if (quota.team == oldName) quota.team = newName;
    e.text = QObject::tr("Rename team %1 to %2").arg(q(oldName), q(newName));
    return e;
}

WorkloadEdit setTeamCell(const Scenario& s, int row, int column, const QVariant& value) {
    const QString text = value.toString().trimmed();
    if (column == ui::TeamTableModel::NameColumn) return renameTeam(s, row, text);
    if (column != ui::TeamTableModel::ColorColumn)
        return refused(QObject::tr("That column cannot be edited."));
    WorkloadEdit e;
    e.after = s;
    if (!text.isEmpty() && text != QLatin1String("automatic")) {
        const QColor colour(text);
        if (!colour.isValid())
            return refused(QObject::tr("Colour: \"%1\" is not a colour (e.g. #4e79a7)").arg(text));
        e.after.teams[row].color = colour.name().toStdString();
    } else {
        e.after.teams[row].color.clear();
    }
    e.text = QObject::tr("Colour of team %1").arg(q(s.teams[row].name));
    return e;
}

WorkloadEdit addTeam(const Scenario& s) {
    WorkloadEdit e;
    e.after = s;
    for (int i = 1;; ++i) {
        const std::string name = "team-" + std::to_string(i);
        if (std::none_of(s.teams.begin(), s.teams.end(),
                         [&](const TeamDef& t) { return t.name == name; })) {
            e.after.teams.push_back(TeamDef{name, ""});
            e.text = QObject::tr("Add team %1").arg(q(name));
            return e;
        }
    }
}

WorkloadEdit removeTeam(const Scenario& s, int team) {
    const std::string name = s.teams.at(team).name;
    for (const JobClassDef& c : s.jobClasses)
        if (c.traits.team == name)
            return refused(QObject::tr("Team %1 still runs class %2; give it another team first.")
                               .arg(q(name), q(c.name)));
    for (const JobDef& j : s.jobs)
        if (j.traits.team == name)
            return refused(QObject::tr("Team %1 still runs job %2; give it another team first.")
                               .arg(q(name), q(j.name)));
    for (const QuotaDef& quota : s.quotas)
        if (quota.team == name)
            return refused(QObject::tr("Team %1 has a quota; remove it in the Quotas panel first.")
                               .arg(q(name)));
    WorkloadEdit e;
    e.after = s;
    e.after.teams.erase(e.after.teams.begin() + team);
    e.text = QObject::tr("Remove team %1").arg(q(name));
    return e;
}

// ---- job classes ----------------------------------------------------------------------------

/// A class column that is the class's own (not a trait of its pods): false with `error` when
/// the text cannot be read or the column cannot be edited.
bool setClassOwnCell(JobClassDef& c, int column, const QString& text, const QString& field,
                     QString& error) {
    using C = ui::JobClassTableModel;
    JobTraitsDef& t = c.traits;
    bool ok = true;
    switch (column) {
        case C::NameColumn:
            c.name = text.toStdString();
            break;
        case C::TeamColumn:
        case C::PriorityColumn:
            ok = setTrait(t, field, text, column == C::TeamColumn, column == C::PriorityColumn,
                          &error);
            break;
        case C::ArrivalColumn: {
            const auto a = ui::parseArrival(text, c.arrival, &error);
            ok = a.has_value();
            if (ok) c.arrival = *a;
            break;
        }
        case C::RateColumn: {
            QString t2 = text;
            t2.remove(QStringLiteral("jobs/h"));
            const auto v = ui::parseNumber(t2, &error);
            ok = v.has_value();
            if (ok && *v < 0) {
                error = QObject::tr("Rate must not be negative, got %1 jobs/h").arg(*v);
                ok = false;
            }
            if (ok) c.arrival.ratePerHour = *v;
            break;
        }
        case C::MaxJobsColumn:
            if (text.isEmpty()) {
                c.maxJobs.reset();
            } else if (const auto v = parseInteger(text, field, &error)) {
                if (*v < 0) {
                    error = QObject::tr("Max jobs must not be negative (empty = no limit)");
                    ok = false;
                } else {
                    c.maxJobs = static_cast<int>(std::min<long long>(*v, 1'000'000'000));
                }
            } else {
                ok = false;
            }
            break;
        case C::GpusColumn:
        case C::DurationColumn: {
            const Quantity kind = column == C::GpusColumn ? Quantity::Gpus : Quantity::DurationS;
            const auto d = ui::parseDistribution(text, kind, &error);
            ok = d.has_value();
            if (ok) (column == C::GpusColumn ? c.gpus : c.durationS) = *d;
            break;
        }
        case C::ElasticColumn:
            ok = setElastic(t, field, text, &error);
            break;
        default:
            error = QObject::tr("That column cannot be edited.");
            return false;
    }
    return ok;
}

WorkloadEdit setClassCell(const Scenario& s, int row, int column, const QVariant& value) {
    const QString text = value.toString().trimmed();
    const QString field = ui::JobClassTableModel::titles().value(column);
    WorkloadEdit e;
    e.after = s;
    JobClassDef& c = e.after.jobClasses.at(row);
    QString error;
    const int traitRow = podRequestRowOf(column);
    const bool ok = traitRow >= 0 ? setPodRequestRow(c.traits, traitRow, text, field, &error)
                                  : setClassOwnCell(c, column, text, field, error);
    if (!ok) {
        // Parsers name the field themselves where they can; others get it here.
        return refused(error.startsWith(field) ? error
                                               : QStringLiteral("%1: %2").arg(field, error));
    }
    e.text = QObject::tr("%1 of class %2: %3").arg(field, q(s.jobClasses[row].name), text);
    return e;
}

WorkloadEdit addJobClass(const Scenario& s) {
    if (s.teams.empty()) return refused(QObject::tr("Add a team first: a class runs for a team."));
    WorkloadEdit e;
    e.after = s;
    JobClassDef c;
    for (int i = 1;; ++i) {
        c.name = "class-" + std::to_string(i);
        if (std::none_of(s.jobClasses.begin(), s.jobClasses.end(),
                         [&](const JobClassDef& o) { return o.name == c.name; }))
            break;
    }
    c.traits.team = s.teams.front().name;
    c.arrival.ratePerHour = 1;
    c.gpus.value = 1;
    c.durationS.value = 3600;
    e.after.jobClasses.push_back(c);
    e.text = QObject::tr("Add job class %1").arg(q(c.name));
    return e;
}

WorkloadEdit duplicateJobClass(const Scenario& s, int row) {
    JobClassDef copy = s.jobClasses.at(row);
    const std::string base = copy.name + "-copy";
    copy.name = base;
    for (int i = 2; std::any_of(s.jobClasses.begin(), s.jobClasses.end(),
                                [&](const JobClassDef& o) { return o.name == copy.name; });
         ++i)
        copy.name = base + std::to_string(i);
    WorkloadEdit e;
    e.after = s;
    e.after.jobClasses.insert(e.after.jobClasses.begin() + row + 1, copy);
    e.text = QObject::tr("Duplicate job class %1").arg(q(s.jobClasses[row].name));
    return e;
}

WorkloadEdit removeJobClass(const Scenario& s, int row) {
    WorkloadEdit e;
    e.after = s;
    // at() checks the row before anything is erased.
    e.text = QObject::tr("Remove job class %1").arg(q(s.jobClasses.at(row).name));
    e.after.jobClasses.erase(e.after.jobClasses.begin() + row);
    return e;
}

// ---- explicit jobs --------------------------------------------------------------------------

WorkloadEdit setJobCell(const Scenario& s, int row, int column, const QVariant& value) {
    using C = ui::ExplicitJobTableModel;
    const QString text = value.toString().trimmed();
    const QString field = ui::ExplicitJobTableModel::titles().value(column);
    WorkloadEdit e;
    e.after = s;
    JobDef& j = e.after.jobs.at(row);
    QString error;
    bool ok = true;
    switch (column) {
        case C::NameColumn:
            j.name = text.toStdString();
            break;
        case C::TeamColumn:
        case C::PriorityColumn:
            ok = setTrait(j.traits, field, text, column == C::TeamColumn,
                          column == C::PriorityColumn, &error);
            break;
        case C::GpusColumn: {
            QString t2 = text;
            t2.remove(QStringLiteral("GPUs"), Qt::CaseInsensitive);
            t2.remove(QStringLiteral("GPU"), Qt::CaseInsensitive);
            const auto v = parseInteger(t2, field, &error);
            ok = v.has_value();
            if (ok) j.gpus = static_cast<int>(std::clamp<long long>(*v, -1, 10'000'000));
            break;
        }
        case C::ElasticColumn:
            ok = setElastic(j.traits, field, text, &error);
            // The file's rule, in the table's words (the reader says "maxGpus").
            if (ok && j.traits.elasticMaxGpus > 0 && j.traits.elasticMaxGpus <= j.gpus) {
                error = QObject::tr("%1 must be more than the job's %2 GPUs (blank = fixed size)")
                            .arg(field)
                            .arg(j.gpus);
                ok = false;
            }
            break;
        case C::DurationColumn:
        case C::SubmitColumn: {
            const auto v = ui::parseQuantity(text, Quantity::DurationS, &error);
            ok = v.has_value();
            if (ok) (column == C::DurationColumn ? j.durationS : j.submitS) = *v;
            break;
        }
        case C::PinColumn: {
            const auto pin = ui::parsePin(text, &error);
            ok = pin.has_value();
            if (ok) j.traits.pin = *pin;
            break;
        }
        default:
            return refused(QObject::tr("That column cannot be edited."));
    }
    if (!ok)
        return refused(error.startsWith(field) ? error
                                               : QStringLiteral("%1: %2").arg(field, error));
    e.text = QObject::tr("%1 of job %2: %3").arg(field, q(s.jobs[row].name), text);
    return e;
}

// ---- the pod request editor -----------------------------------------------------------------

WorkloadEdit setPodRequestValue(const Scenario& s, ui::PodRequestModel::Target target, int row,
                                const QVariant& value) {
    using T = ui::PodRequestModel::Target;
    const bool isClass = target.kind == T::Class;
    const int count = static_cast<int>(isClass ? s.jobClasses.size() : s.jobs.size());
    if (target.kind == T::None || target.index < 0 || target.index >= count)
        return refused(QObject::tr("Select a job class or a job first."));
    WorkloadEdit e;
    e.after = s;
    JobTraitsDef& t =
        isClass ? e.after.jobClasses[target.index].traits : e.after.jobs[target.index].traits;
    const QString field = ui::PodRequestModel::titles().value(row);
    const QString text = value.toString();
    QString error;
    if (!setPodRequestRow(t, row, text, field, &error))
        return refused(error.startsWith(field) ? error
                                               : QStringLiteral("%1: %2").arg(field, error));
    const std::string& name = isClass ? s.jobClasses[target.index].name : s.jobs[target.index].name;
    e.text = (isClass ? QObject::tr("%1 of class %2: %3") : QObject::tr("%1 of job %2: %3"))
                 .arg(field, q(name),
                      text.trimmed().isEmpty() ? QObject::tr("default") : text.trimmed());
    return e;
}

WorkloadEdit removeJob(const Scenario& s, int row) {
    WorkloadEdit e;
    e.after = s;
    e.text = QObject::tr("Remove job %1").arg(q(s.jobs.at(row).name));  // at() checks the row
    e.after.jobs.erase(e.after.jobs.begin() + row);
    return e;
}

WorkloadEdit setDemandMultiplier(const Scenario& s, double multiplier) {
    if (!(multiplier > 0 && multiplier <= 100))
        return refused(
            QObject::tr("Demand × must be above 0 and at most 100, got %1").arg(multiplier));
    WorkloadEdit e;
    e.after = s;
    e.after.demandMultiplier = multiplier;
    e.text = QObject::tr("Demand × %1").arg(multiplier);
    return e;
}

}  // namespace gpuplan::app
