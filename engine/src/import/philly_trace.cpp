// Philly trace CSV (timestamp,duration,num_gpus,gpu_time,cluster) → TraceData.
// Hand-rolled for speed: the 82k-row file parses in a few milliseconds.
//
// Fields are plain: the format has no quoting, so a '"' is an error, not a quoted field (a
// CR or LF inside quotes would split the row). The cluster id becomes a team name, shown in
// tables, terminals and CSV rows, so it obeys the rule for every name (detail::nameProblem):
// 1–64 ASCII letters, digits, '.', '_' and '-'. Invalid UTF-8, NUL and other control
// characters, quotes, spaces and the like are refused with the line and what is wrong.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "core/civil_time.hpp"
#include "gpuplan/import/trace_readers.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "io/text_lines.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

namespace {

using detail::daysFromCivil;

class Rows {
public:
    Rows(std::string_view text, const std::string& file) : m_lines(text), m_file(file) {}

    bool next(std::string_view& line) { return m_lines.next(line); }
    [[noreturn]] void fail(const std::string& message) const {
        throw InputError(m_file, "line " + std::to_string(m_lines.lineNumber()), message);
    }

private:
    detail::TextLines m_lines;
    const std::string& m_file;
};

template <class T>
T parseNumber(std::string_view field, const Rows& rows, const char* what) {
    T value{};
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size())
        rows.fail(std::string("bad ") + what + " \"" + detail::escapedForMessage(field) + "\"");
    return value;
}

int twoDigits(std::string_view s, std::size_t at, const Rows& rows) {
    if (at + 2 > s.size() || !std::isdigit(static_cast<unsigned char>(s[at])) ||
        !std::isdigit(static_cast<unsigned char>(s[at + 1])))
        rows.fail("bad timestamp \"" + detail::escapedForMessage(s) +
                  "\" (expected YYYY-MM-DD HH:MM:SS)");
    return (s[at] - '0') * 10 + (s[at + 1] - '0');
}

double parseTimestamp(std::string_view s, const Rows& rows) {
    if (s.size() != 19 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' ||
        s[16] != ':')
        rows.fail("bad timestamp \"" + detail::escapedForMessage(s) +
                  "\" (expected YYYY-MM-DD HH:MM:SS)");
    const int year = twoDigits(s, 0, rows) * 100 + twoDigits(s, 2, rows);
    const int month = twoDigits(s, 5, rows), day = twoDigits(s, 8, rows);
    const int hour = twoDigits(s, 11, rows), minute = twoDigits(s, 14, rows),
              second = twoDigits(s, 17, rows);
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        rows.fail("bad timestamp \"" + detail::escapedForMessage(s) + "\"");
    return static_cast<double>(daysFromCivil(year, month, day)) * 86400.0 + hour * 3600.0 +
           minute * 60.0 + second;
}

}  // namespace

std::shared_ptr<const TraceData> parsePhillyTrace(std::string_view text,
                                                  const std::string& sourceName) {
    auto data = std::make_shared<TraceData>();
    data->resolvedPath = sourceName;
    Rows rows(text, sourceName);
    std::string_view line;
    if (!rows.next(line)) rows.fail("empty file (expected a header line)");
    if (line != "timestamp,duration,num_gpus,gpu_time,cluster")
        rows.fail("unexpected header \"" + detail::escapedForMessage(line, 80) +
                  "\" (expected timestamp,duration,num_gpus,gpu_time,cluster)");
    std::unordered_map<std::string, int> teams;
    std::vector<double> absolute;
    const auto rowsGuess = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    absolute.reserve(rowsGuess);
    data->jobs.reserve(rowsGuess);
    std::string_view fields[5];
    while (rows.next(line)) {
        if (line.empty()) continue;
        std::size_t count = 0, start = 0;
        for (std::size_t i = 0; i <= line.size(); ++i) {
            if (i == line.size() || line[i] == ',') {
                if (count == 5) rows.fail("more than 5 fields");
                fields[count++] = line.substr(start, i - start);
                start = i + 1;
            }
        }
        if (count != 5) rows.fail("expected 5 fields, got " + std::to_string(count));
        TraceJob job;
        absolute.push_back(parseTimestamp(fields[0], rows));
        job.durationS = parseNumber<double>(fields[1], rows, "duration");
        if (!std::isfinite(job.durationS) || job.durationS < 0 || job.durationS > 1e9)
            rows.fail("duration out of range: " + detail::escapedForMessage(fields[1]));
        const long long gpus = parseNumber<long long>(fields[2], rows, "num_gpus");
        if (gpus < 1 || gpus > 100000)
            rows.fail("num_gpus out of range: " + detail::escapedForMessage(fields[2]));
        job.gpus = static_cast<int>(gpus);
        parseNumber<double>(fields[3], rows, "gpu_time");
        if (const auto problem = detail::nameProblem(fields[4]))
            rows.fail("cluster id " + *problem + " (a cluster id is a team name)");
        auto [it, inserted] = teams.emplace(std::string(fields[4]), static_cast<int>(teams.size()));
        if (inserted) data->teams.emplace_back(fields[4]);
        job.team = it->second;
        data->jobs.push_back(job);
    }
    if (data->jobs.empty()) rows.fail("no jobs in the file");
    // Submit times relative to the earliest; rows sorted by time, file order among equals.
    const double first = *std::min_element(absolute.begin(), absolute.end());
    std::vector<std::size_t> order(data->jobs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return absolute[a] < absolute[b]; });
    std::vector<TraceJob> sorted;
    sorted.reserve(order.size());
    for (std::size_t i : order) {
        sorted.push_back(data->jobs[i]);
        sorted.back().submitS = absolute[i] - first;
    }
    data->jobs = std::move(sorted);
    return data;
}

std::shared_ptr<const TraceData> readPhillyTrace(const std::filesystem::path& file) {
    auto data = parsePhillyTrace(readTextFile(file), file.string());
    return data;
}

}  // namespace gpuplan
