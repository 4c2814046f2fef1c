// A Slurm accounting export replayed as a trace (TraceFormat::Sacct): the output of
//   sacct --parsable2 --allocations --format=JobID,Account,Partition,Submit,Start,End,State,
//         AllocTRES,ReqTRES,TimelimitRaw ...
// '|'-separated, a header line naming the columns in any order (other columns are ignored;
// `--parsable`'s trailing '|' is accepted). Required: JobID, Account, Partition, Submit,
// Start, End, State, TimelimitRaw and AllocTRES or ReqTRES; a missing one is an error naming it.
//
// Rules:
//  - t = 0 is the earliest Submit of a kept job (as for Philly traces). Times read
//    2026-10-01T08:00:00 (local time, as sacct prints it; only differences are used);
//    `Unknown`, `None` and an empty field mean no time.
//  - The export time is the latest timestamp of any allocation line: "now" when sacct ran
//    (a pending job's Start, where sacct gives one, is the scheduler's estimate: not counted).
//  - A finished job (COMPLETED, FAILED, TIMEOUT, CANCELLED (`CANCELLED by 123` too), NODE_FAIL,
//    PREEMPTED, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, REVOKED) runs End − Start. One that ended
//    without a Start (cancelled while pending) is left out and counted.
//  - A job RUNNING (or SUSPENDED, RESIZING, STOPPED, SIGNALING, COMPLETING) at the export
//    runs its time limit (TimelimitRaw minutes), or what it has run so far when that is
//    longer; a PENDING one (or REQUEUED, REQUEUE_HOLD, REQUEUE_FED, SPECIAL_EXIT) runs its
//    time limit. A limit of UNLIMITED, Partition_Limit, Unknown or empty runs to the end of
//    the horizon (an assumption, counted).
//  - GPUs: `gres/gpu=N` of AllocTRES, else the sum of its `gres/gpu:<type>=N`; pending jobs
//    read ReqTRES (and any job whose AllocTRES is empty or absent). No GPU: a CPU-only job,
//    left out and counted.
//  - GPU type: a job whose ReqTRES asks `gres/gpu:<type>=N` runs only on that type's model
//    (TraceJob::allowedGpuModels over the types in TraceData::gpuModels; the scenario maps a
//    type to a model by the trace's "gpuTypes", then gpuModelNamedBy's rule: sacctTypeModels).
//    AllocTRES's types are where a job ran, not what it needed: an untyped request runs on
//    any model. Several types asked: kept to the one the fleet has most of (counted).
//  - The team is the Account; an empty one is team "unknown" (counted).
//  - Array tasks (123_4) are jobs of their own; a pending array record (123_[5-9],
//    123_[1,3,5-7%2]) is that many tasks, at most kMaxTasksPerRecord. Heterogeneous job
//    components (123+0) are jobs of their own. Job steps (123.batch, 123.0) are left out and
//    counted: the allocation line holds the job.
// A line longer than kMaxLineBytes, with more than kMaxFields fields or another field count
// than the header's, or more than kMaxJobs jobs in all, is refused with its line.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "core/civil_time.hpp"
#include "gpuplan/import/slurm_import.hpp"
#include "gpuplan/import/trace_readers.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "io/text_lines.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

namespace {

constexpr std::size_t kMaxLineBytes = 64 * 1024;
constexpr std::size_t kMaxFields = 256;
constexpr long long kMaxTasksPerRecord = 100'000;
constexpr long long kMaxJobs = 2'000'000;
constexpr long long kMaxGpusPerJob = 100'000;
constexpr long long kMaxLimitMinutes = 100LL * 366 * 24 * 60;
/// A job without a time limit runs past any horizon (InputLimits::maxHorizonS).
constexpr double kRunsToHorizonS = InputLimits::maxHorizonS;
const char* const kUnknownTeam = "unknown";

enum Column { JobId, Account, Partition, Submit, Start, End, State, AllocTres, ReqTres, Limit };
constexpr std::array<const char*, 10> kColumnNames = {
    "JobID", "Account", "Partition", "Submit",  "Start",
    "End",   "State",   "AllocTRES", "ReqTRES", "TimelimitRaw"};
constexpr int kNoColumn = -1;

class Rows {
public:
    Rows(std::string_view text, const std::string& file) : m_lines(text), m_file(file) {}
    bool next(std::string_view& line) { return m_lines.next(line); }
    std::size_t lineNumber() const { return m_lines.lineNumber(); }
    [[noreturn]] void fail(const std::string& message) const {
        throw InputError(m_file, "line " + std::to_string(m_lines.lineNumber()), message);
    }

private:
    detail::TextLines m_lines;
    const std::string& m_file;
};

using detail::wholeNumber;

std::string inQuotes(std::string_view text) {
    return "\"" + detail::escapedForMessage(text, 80) + "\"";
}

int digits(std::string_view s, std::size_t at, std::size_t count) {
    int value = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (s[i] < '0' || s[i] > '9') return -1;
        value = value * 10 + (s[i] - '0');
    }
    return value;
}

/// Seconds since 1970 of "2026-10-01T08:00:00"; nothing for Unknown, None or empty.
std::optional<double> timestamp(std::string_view s, const char* column, const Rows& rows) {
    if (s.empty() || s == "Unknown" || s == "None") return std::nullopt;
    const auto bad = [&]() {
        rows.fail(std::string("bad ") + column + " time " + inQuotes(s) +
                  " (expected YYYY-MM-DDTHH:MM:SS, Unknown or None)");
    };
    if (s.size() != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
        s[16] != ':')
        bad();
    const int year = digits(s, 0, 4), month = digits(s, 5, 2), day = digits(s, 8, 2);
    const int hour = digits(s, 11, 2), minute = digits(s, 14, 2), second = digits(s, 17, 2);
    if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 ||
        minute < 0 || minute > 59 || second < 0 || second > 60)
        bad();
    return static_cast<double>(detail::daysFromCivil(year, static_cast<unsigned>(month),
                                                     static_cast<unsigned>(day))) *
               86400.0 +
           hour * 3600.0 + minute * 60.0 + second;
}

enum class Phase { Finished, Running, Pending };

Phase phaseOf(std::string_view state, const Rows& rows) {
    // "CANCELLED by 123": the state is the first word.
    const std::string_view word = state.substr(0, state.find(' '));
    static constexpr std::pair<std::string_view, Phase> kStates[] = {
        {"COMPLETED", Phase::Finished},     {"FAILED", Phase::Finished},
        {"TIMEOUT", Phase::Finished},       {"CANCELLED", Phase::Finished},
        {"NODE_FAIL", Phase::Finished},     {"PREEMPTED", Phase::Finished},
        {"OUT_OF_MEMORY", Phase::Finished}, {"BOOT_FAIL", Phase::Finished},
        {"DEADLINE", Phase::Finished},      {"REVOKED", Phase::Finished},
        {"RUNNING", Phase::Running},        {"SUSPENDED", Phase::Running},
        {"RESIZING", Phase::Running},       {"STOPPED", Phase::Running},
        {"SIGNALING", Phase::Running},      {"COMPLETING", Phase::Running},
        {"PENDING", Phase::Pending},        {"REQUEUED", Phase::Pending},
        {"REQUEUE_HOLD", Phase::Pending},   {"REQUEUE_FED", Phase::Pending},
        {"SPECIAL_EXIT", Phase::Pending}};
    for (const auto& [name, phase] : kStates)
        if (word == name) return phase;
    rows.fail("unknown job state " + inQuotes(state) +
              " (known: COMPLETED, FAILED, TIMEOUT, CANCELLED, NODE_FAIL, PREEMPTED, "
              "OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, REVOKED, RUNNING, SUSPENDED, RESIZING, "
              "STOPPED, SIGNALING, COMPLETING, PENDING, REQUEUED, REQUEUE_HOLD, REQUEUE_FED, "
              "SPECIAL_EXIT)");
}

/// The GPUs of a TRES list and the GPU types it names with a count above 0.
struct TresGpus {
    long long gpus = 0;
    std::vector<std::string_view> types;
};

/// GPUs of a TRES list ("billing=8,cpu=8,gres/gpu:h100=4,gres/gpu=4,mem=64G,node=1"): the
/// untyped count, else the sum of the typed ones; 0 without any.
TresGpus tresGpus(std::string_view tres, const char* column, const Rows& rows) {
    std::optional<long long> untyped;
    long long typed = 0;
    TresGpus out;
    std::size_t start = 0;
    while (start <= tres.size() && !tres.empty()) {
        std::size_t end = tres.find(',', start);
        if (end == std::string_view::npos) end = tres.size();
        const std::string_view item = tres.substr(start, end - start);
        start = end + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) {
            if (item.empty()) continue;
            rows.fail(std::string(column) + " entry " + inQuotes(item) + " is not KEY=VALUE");
        }
        const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
        const bool isUntyped = key == "gres/gpu";
        if (!isUntyped && key.rfind("gres/gpu:", 0) != 0) continue;
        const auto n = wholeNumber(value);
        if (!n || *n > kMaxGpusPerJob)
            rows.fail(std::string(column) + " " + inQuotes(item) +
                      ": GPUs must be a whole number from 0 to " + std::to_string(kMaxGpusPerJob));
        if (isUntyped) {
            if (untyped) rows.fail(std::string(column) + " names gres/gpu twice");
            untyped = *n;
        } else {
            typed += *n;
            if (typed > kMaxGpusPerJob)
                rows.fail(std::string(column) + ": more than " + std::to_string(kMaxGpusPerJob) +
                          " GPUs");
            const std::string_view type = key.substr(9);
            if (type.empty())
                rows.fail(std::string(column) + " " + inQuotes(item) + ": no GPU type");
            if (*n > 0) out.types.push_back(type);
        }
    }
    out.gpus = untyped ? *untyped : typed;
    return out;
}

/// Tasks of a pending array record's index list ("5-9", "1,3,5-7%2", "1-9:2").
long long arrayTasksIn(std::string_view list, std::string_view jobId, const Rows& rows) {
    const auto bad = [&](const std::string& why) {
        rows.fail("bad array JobID " + inQuotes(jobId) + ": " + why);
    };
    if (const std::size_t percent = list.find('%'); percent != std::string_view::npos) {
        if (!wholeNumber(list.substr(percent + 1))) bad("the throttle after '%' is not a number");
        list = list.substr(0, percent);
    }
    long long tasks = 0;
    std::size_t start = 0;
    while (start <= list.size()) {
        std::size_t end = list.find(',', start);
        if (end == std::string_view::npos) end = list.size();
        std::string_view item = list.substr(start, end - start);
        start = end + 1;
        long long step = 1;
        if (const std::size_t colon = item.find(':'); colon != std::string_view::npos) {
            const auto s = wholeNumber(item.substr(colon + 1));
            if (!s || *s < 1) bad("the step after ':' is not a number ≥ 1");
            step = *s;
            item = item.substr(0, colon);
        }
        const std::size_t dash = item.find('-');
        const auto first = wholeNumber(item.substr(0, dash));
        const auto last =
            dash == std::string_view::npos ? first : wholeNumber(item.substr(dash + 1));
        if (!first || !last) bad("expected task ids like 5-9 or 1,3,5-7");
        if (*last < *first) bad("a range ends before it starts");
        if (*last - *first >= kMaxTasksPerRecord * step)
            bad("more than " + std::to_string(kMaxTasksPerRecord) + " tasks in one record");
        tasks += (*last - *first) / step + 1;
        if (tasks > kMaxTasksPerRecord)
            bad("more than " + std::to_string(kMaxTasksPerRecord) + " tasks in one record");
    }
    return tasks;
}

struct JobIdKind {
    bool step = false;
    bool arrayTask = false;
    long long tasks = 1;
};

/// "123", "123_4", "123_[5-9]", "123+0"; a step ("123.batch", "123_4.0") is marked as one.
JobIdKind jobIdKind(std::string_view id, const Rows& rows) {
    JobIdKind kind;
    const std::size_t bracket = id.find('[');
    const std::size_t dot = id.find('.');
    if (dot != std::string_view::npos && (bracket == std::string_view::npos || dot < bracket)) {
        kind.step = true;
        return kind;
    }
    const auto bad = [&]() {
        rows.fail("bad JobID " + inQuotes(id) +
                  " (expected 123, 123_4, 123_[5-9], 123+0 or a step 123.batch)");
    };
    const std::size_t sep = id.find_first_of("_+");
    if (!wholeNumber(id.substr(0, sep))) bad();
    if (sep == std::string_view::npos) return kind;
    const std::string_view rest = id.substr(sep + 1);
    if (id[sep] == '+') {
        if (!wholeNumber(rest)) bad();
        return kind;
    }
    kind.arrayTask = true;
    if (rest.size() >= 2 && rest.front() == '[' && rest.back() == ']') {
        kind.tasks = arrayTasksIn(rest.substr(1, rest.size() - 2), id, rows);
        return kind;
    }
    if (!wholeNumber(rest)) bad();
    return kind;
}

/// One allocation line, checked; durations wait for the export time.
struct Record {
    double submitS = 0;
    double startS = 0;
    double endS = 0;
    Phase phase = Phase::Finished;
    std::optional<long long> limitMinutes;
    int gpus = 0;
    int team = 0;
    long long tasks = 1;
    std::uint64_t allowedGpuTypes = 0;  ///< bits index TraceData::gpuModels; 0 = any
};

class SacctReader {
public:
    SacctReader(std::string_view text, const std::string& sourceName)
        : m_rows(text, sourceName), m_source(sourceName) {}

    SacctTrace read() {
        header();
        std::string_view line;
        std::vector<std::string_view> fields;
        while (m_rows.next(line)) {
            if (line.empty()) continue;
            split(line, fields);
            if (fields.size() != m_columnCount)
                m_rows.fail("expected " + std::to_string(m_columnCount) +
                            " '|'-separated fields, as the header, got " +
                            std::to_string(fields.size()));
            record(fields);
        }
        return finish();
    }

private:
    void split(std::string_view line, std::vector<std::string_view>& fields) const {
        if (line.size() > kMaxLineBytes)
            m_rows.fail("line longer than " + std::to_string(kMaxLineBytes) + " bytes");
        if (m_trailingBar) {
            if (line.back() != '|')
                m_rows.fail("no '|' at the end of the line, as the header has (sacct --parsable)");
            line.remove_suffix(1);
        }
        fields.clear();
        std::size_t start = 0;
        while (true) {
            if (fields.size() == kMaxFields)
                m_rows.fail("more than " + std::to_string(kMaxFields) + " fields");
            const std::size_t bar = line.find('|', start);
            fields.push_back(line.substr(start, bar - start));
            if (bar == std::string_view::npos) break;
            start = bar + 1;
        }
    }

    void header() {
        std::string_view line;
        if (!m_rows.next(line))
            throw InputError(m_source, "line 1",
                             "empty file (expected sacct's header line, JobID|Account|...)");
        m_trailingBar = !line.empty() && line.back() == '|';
        std::vector<std::string_view> names;
        split(line, names);
        m_columnCount = names.size();
        m_column.fill(kNoColumn);
        for (std::size_t i = 0; i < names.size(); ++i)
            for (std::size_t c = 0; c < kColumnNames.size(); ++c)
                if (detail::equalIgnoringCase(names[i], kColumnNames[c])) {
                    if (m_column[c] != kNoColumn)
                        m_rows.fail(std::string("column ") + kColumnNames[c] + " appears twice");
                    m_column[c] = static_cast<int>(i);
                }
        if (std::all_of(m_column.begin(), m_column.end(), [](int c) { return c == kNoColumn; }))
            m_rows.fail("the first line " + inQuotes(line) +
                        " is not sacct's header: no JobID, Account, … column (exported with "
                        "--noheader, or not sacct --parsable2 output?)");
        for (std::size_t c = 0; c < kColumnNames.size(); ++c) {
            if (c == AllocTres || c == ReqTres || m_column[c] != kNoColumn) continue;
            m_rows.fail(std::string("no ") + kColumnNames[c] + " column in the header " +
                        inQuotes(line) +
                        " (export with sacct --parsable2 --allocations "
                        "--format=JobID,Account,Partition,Submit,Start,End,State,AllocTRES,"
                        "ReqTRES,TimelimitRaw)");
        }
        if (m_column[AllocTres] == kNoColumn && m_column[ReqTres] == kNoColumn)
            m_rows.fail("no AllocTRES or ReqTRES column in the header " + inQuotes(line) +
                        ": the GPUs of each job are read from them");
    }

    std::string_view field(const std::vector<std::string_view>& fields, Column c) const {
        return m_column[c] == kNoColumn ? std::string_view() : fields[m_column[c]];
    }

    void seen(std::optional<double> t) {
        if (t) m_latestS = std::max(m_latestS, *t);
    }

    void record(const std::vector<std::string_view>& fields) {
        const std::string_view id = field(fields, JobId);
        const JobIdKind kind = jobIdKind(id, m_rows);
        if (kind.step) {
            ++m_data->rows.steps;
            return;
        }
        Record r;
        r.tasks = kind.tasks;
        r.phase = phaseOf(field(fields, State), m_rows);
        const auto submit = timestamp(field(fields, Submit), "Submit", m_rows);
        const auto start = timestamp(field(fields, Start), "Start", m_rows);
        const auto end = timestamp(field(fields, End), "End", m_rows);
        // A pending job's Start, where given, is the scheduler's estimate: not yet a time.
        seen(submit);
        if (r.phase != Phase::Pending) {
            seen(start);
            seen(end);
        }
        if (!submit) m_rows.fail("job " + inQuotes(id) + " has no Submit time");
        r.submitS = *submit;
        if (start && end && *end < *start)
            m_rows.fail("job " + inQuotes(id) + " ends before it starts");
        r.limitMinutes = limit(field(fields, Limit));

        // Pending jobs hold nothing yet: their request. Others what they were given.
        const bool requested = r.phase == Phase::Pending || field(fields, AllocTres).empty();
        const TresGpus asked = tresGpus(field(fields, ReqTres), "ReqTRES", m_rows);
        const long long gpus =
            requested ? asked.gpus : tresGpus(field(fields, AllocTres), "AllocTRES", m_rows).gpus;
        const int tasks = static_cast<int>(r.tasks);
        if (gpus == 0) {
            m_data->rows.cpuOnly += tasks;
            return;
        }
        r.gpus = static_cast<int>(gpus);
        if (r.phase == Phase::Finished) {
            if (!start) {
                m_data->rows.cancelledBeforeStart += tasks;
                return;
            }
            if (!end)
                m_rows.fail("job " + inQuotes(id) + " ended (" +
                            detail::escapedForMessage(field(fields, State), 40) +
                            ") but its End is Unknown");
            r.startS = *start;
            r.endS = *end;
        } else if (r.phase == Phase::Running) {
            if (!start) m_rows.fail("running job " + inQuotes(id) + " has no Start time");
            r.startS = *start;
        }
        // The GPU types the job asked (ReqTRES): it runs on their models only. AllocTRES's
        // types are where it ran, not what it needed.
        for (std::string_view type : asked.types)
            r.allowedGpuTypes |= std::uint64_t{1} << gpuType(type);
        if (std::popcount(r.allowedGpuTypes) > 1) m_data->rows.severalModels += tasks;
        r.team = team(field(fields, Account), tasks);
        if (kind.arrayTask) m_data->rows.arrayTasks += tasks;
        m_jobCount += r.tasks;
        if (m_jobCount > kMaxJobs)
            m_rows.fail("more than " + detail::withThousands(kMaxJobs) + " jobs in the file");
        m_records.push_back(r);
    }

    /// TimelimitRaw minutes; nothing for UNLIMITED, Partition_Limit, Unknown or empty.
    std::optional<long long> limit(std::string_view s) const {
        if (s.empty() || s == "UNLIMITED" || s == "Partition_Limit" || s == "Unknown")
            return std::nullopt;
        const auto minutes = wholeNumber(s);
        if (!minutes || *minutes > kMaxLimitMinutes)
            m_rows.fail("bad TimelimitRaw " + inQuotes(s) +
                        " (expected minutes, UNLIMITED, Partition_Limit or Unknown)");
        return minutes;
    }

    /// The bit of a GPU type in TraceData::gpuModels, added on first sight with its line.
    int gpuType(std::string_view type) {
        std::vector<std::string>& types = m_data->gpuModels;
        const auto it = std::find(types.begin(), types.end(), type);
        if (it != types.end()) return static_cast<int>(it - types.begin());
        if (const auto problem = detail::nameProblem(type)) m_rows.fail("GPU type " + *problem);
        if (types.size() == 64) m_rows.fail("more than 64 GPU types in the file");
        types.emplace_back(type);
        m_data->gpuModelFirstPod.push_back("line " + std::to_string(m_rows.lineNumber()));
        return static_cast<int>(types.size() - 1);
    }

    int team(std::string_view account, int tasks) {
        if (account.empty()) {
            m_data->rows.noAccount += tasks;
            account = kUnknownTeam;
        } else if (const auto problem = detail::nameProblem(account)) {
            m_rows.fail("Account " + *problem + " (an account is a team name)");
        }
        const auto [it, added] =
            m_teams.emplace(std::string(account), static_cast<int>(m_data->teams.size()));
        if (added) m_data->teams.emplace_back(account);
        return it->second;
    }

    SacctTrace finish() {
        TraceRowCounts& c = m_data->rows;
        if (m_records.empty())
            throw InputError(m_source, "line " + std::to_string(m_rows.lineNumber()),
                             "no GPU job to replay (" + std::to_string(c.cpuOnly) + " CPU-only, " +
                                 std::to_string(c.cancelledBeforeStart) +
                                 " cancelled before they started, " + std::to_string(c.steps) +
                                 " job steps)");
        double first = m_records.front().submitS;
        for (const Record& r : m_records)
            first = std::min(first, r.submitS);
        std::vector<TraceJob>& jobs = m_data->jobs;
        jobs.reserve(static_cast<std::size_t>(m_jobCount));
        for (const Record& r : m_records) {
            TraceJob job;
            job.submitS = r.submitS - first;
            job.gpus = r.gpus;
            job.team = r.team;
            job.allowedGpuModels = r.allowedGpuTypes;
            const int tasks = static_cast<int>(r.tasks);
            const std::optional<double> limitS =
                r.limitMinutes ? std::optional<double>(static_cast<double>(*r.limitMinutes) * 60)
                               : std::nullopt;
            switch (r.phase) {
                case Phase::Finished:
                    job.durationS = r.endS - r.startS;
                    c.finished += tasks;
                    break;
                case Phase::Running:
                    job.durationS =
                        limitS ? std::max(*limitS, m_latestS - r.startS) : kRunsToHorizonS;
                    c.running += tasks;
                    break;
                case Phase::Pending:
                    job.durationS = limitS ? *limitS : kRunsToHorizonS;
                    c.pending += tasks;
                    break;
            }
            if (r.phase != Phase::Finished && !limitS) c.unlimitedLimits += tasks;
            jobs.insert(jobs.end(), static_cast<std::size_t>(r.tasks), job);
        }
        std::stable_sort(jobs.begin(), jobs.end(), [](const TraceJob& a, const TraceJob& b) {
            return a.submitS < b.submitS;
        });
        SacctTrace trace;
        trace.firstSubmitEpochS = first;
        trace.exportEpochS = m_latestS;
        trace.data = std::move(m_data);
        return trace;
    }

    Rows m_rows;
    const std::string& m_source;
    std::size_t m_columnCount = 0;
    bool m_trailingBar = false;
    std::array<int, kColumnNames.size()> m_column{};
    std::shared_ptr<TraceData> m_data = std::make_shared<TraceData>();
    std::unordered_map<std::string, int> m_teams;
    std::vector<Record> m_records;
    long long m_jobCount = 0;
    double m_latestS = 0;
};

std::string counted(int n, const char* one, const char* many) {
    return detail::withThousands(n) + " " + (n == 1 ? one : many);
}

}  // namespace

SacctTrace parseSacct(std::string_view text, const std::string& sourceName) {
    SacctReader reader(text, sourceName);
    SacctTrace trace = reader.read();
    auto data = std::const_pointer_cast<TraceData>(trace.data);
    data->resolvedPath = sourceName;
    data->format = TraceFormat::Sacct;
    return trace;
}

std::shared_ptr<const TraceData> readSacctTrace(const std::filesystem::path& file) {
    return parseSacct(readTextFile(file), file.string()).data;
}

std::string describeSacctRows(const TraceData& data) {
    const TraceRowCounts& c = data.rows;
    std::string text =
        counted(static_cast<int>(data.jobs.size()), "GPU job replayed", "GPU jobs replayed");
    std::vector<std::string> kept;
    if (c.finished > 0) kept.push_back(detail::withThousands(c.finished) + " finished");
    if (c.running > 0)
        kept.push_back(detail::withThousands(c.running) +
                       " running at the export, for their time limit");
    if (c.pending > 0)
        kept.push_back(detail::withThousands(c.pending) +
                       " pending at the export, for their time limit");
    if (c.unlimitedLimits > 0)
        kept.push_back(counted(c.unlimitedLimits, "without a time limit", "without a time limit") +
                       ": to the end of the horizon");
    if (c.arrayTasks > 0) kept.push_back(counted(c.arrayTasks, "array task", "array tasks"));
    if (c.noAccount > 0)
        kept.push_back(counted(c.noAccount, "without an account", "without an account") +
                       ": team " + kUnknownTeam);
    if (c.severalModels > 0)
        kept.push_back(
            counted(c.severalModels, "asking several GPU types", "asking several GPU types") +
            ": kept to the one the fleet has most of");
    std::string notes;
    for (const std::string& k : kept)
        notes += (notes.empty() ? "" : "; ") + k;
    if (!notes.empty()) text += " (" + notes + ")";
    std::vector<std::string> left;
    if (c.cpuOnly > 0) left.push_back(counted(c.cpuOnly, "CPU-only job", "CPU-only jobs"));
    if (c.cancelledBeforeStart > 0)
        left.push_back(counted(c.cancelledBeforeStart, "job", "jobs") +
                       " cancelled before starting");
    if (c.steps > 0) left.push_back(counted(c.steps, "job step", "job steps"));
    std::string leftText;
    for (const std::string& l : left)
        leftText += (leftText.empty() ? "" : ", ") + l;
    if (!leftText.empty()) text += "; left out: " + leftText;
    return text;
}

}  // namespace gpuplan
