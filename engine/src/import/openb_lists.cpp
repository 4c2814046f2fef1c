// openb node and pod lists (plain CSV) → OpenbNode / OpenbPod. Hand-rolled, as the Philly
// reader: the pod lists parse in a few milliseconds.
//
// The header names the columns, in any order; unknown columns are ignored, a missing required
// one is an error naming it. The format has no quoting: a '"' is an error, not a quoted field
// (a CR or LF inside quotes would split the row). Names (node sn, pod name, model, the models
// in gpu_spec, qos, pod_phase) obey the rule for every name (detail::nameProblem), so invalid
// UTF-8, NUL and other control characters, quotes and spaces are refused with the line, the
// column and what is wrong. Empty lines are skipped; CRLF line ends are fine.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <span>
#include <unordered_map>

#include "gpuplan/import/trace_readers.hpp"
#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "gpuplan/model/openb.hpp"
#include "io/text_lines.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

namespace {

/// The lines of a CSV text with a header: fields of the current row by column position.
class Table {
public:
    Table(std::string_view text, const std::string& file, const char* rowKind, std::size_t maxRows)
        : m_text(withoutBom(text)),
          m_lines(m_text),
          m_file(file),
          m_rowKind(rowKind),
          m_maxRows(maxRows) {}

    /// Reads the header. `columns` lists the wanted columns, the first `required` of them
    /// required. Returns for each its position in a row, or -1 when the file lacks it.
    std::vector<int> header(std::span<const std::string_view> columns, std::size_t required) {
        std::string_view line;
        std::string expected;
        for (std::size_t i = 0; i < required; ++i)
            expected += (i ? "," : "") + std::string(columns[i]);
        if (!m_lines.next(line)) {
            m_lines.setLineNumber(1);
            fail("empty file (expected a header line: " + expected + ")");
        }
        if (line.find('"') != std::string_view::npos)
            fail("the header \"" + detail::escapedForMessage(line, 120) +
                 "\" holds a quote (the format has no quoting)");
        std::vector<std::string_view> names;
        split(line, names);
        m_width = names.size();
        std::vector<int> positions(columns.size(), -1);
        std::string missing;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            for (std::size_t p = 0; p < names.size(); ++p) {
                if (names[p] != columns[c]) continue;
                if (positions[c] >= 0)
                    fail("column " + std::string(columns[c]) + " appears twice in the header");
                positions[c] = static_cast<int>(p);
            }
            if (positions[c] < 0 && c < required)
                missing += (missing.empty() ? "" : ", ") + std::string(columns[c]);
        }
        if (!missing.empty())
            fail("missing column" + std::string(missing.find(',') == missing.npos ? " " : "s ") +
                 missing + " (the header is \"" + detail::escapedForMessage(line, 120) +
                 "\"; expected at least " + expected + ")");
        return positions;
    }

    /// The next non-empty row, split into as many fields as the header has.
    bool nextRow() {
        std::string_view line;
        do {
            if (!m_lines.next(line)) return false;
        } while (line.empty());
        if (++m_rows > m_maxRows)
            fail("more than " + detail::withThousands(static_cast<long long>(m_maxRows)) + " " +
                 m_rowKind + " (the limit for one file)");
        const auto count = static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
        if (count != m_width)
            fail("expected " + std::to_string(m_width) +
                 " fields (as many as the header has), got " + std::to_string(count));
        split(line, m_fields);
        return true;
    }

    std::string_view field(int position) const {
        return position < 0 ? std::string_view() : m_fields[static_cast<std::size_t>(position)];
    }
    std::size_t line() const { return m_lines.lineNumber(); }
    /// An upper bound on the rows to come, for reserve(): proportional to the text, capped.
    std::size_t rowsBound() const {
        return std::min<std::size_t>(std::count(m_text.begin(), m_text.end(), '\n') + 1, m_maxRows);
    }

    [[noreturn]] void fail(const std::string& message) const {
        throw InputError(m_file, "line " + std::to_string(m_lines.lineNumber()), message);
    }

private:
    static std::string_view withoutBom(std::string_view text) {
        if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 BOM
        return text;
    }
    static void split(std::string_view line, std::vector<std::string_view>& out) {
        out.clear();
        std::size_t start = 0;
        for (std::size_t i = 0; i <= line.size(); ++i) {
            if (i == line.size() || line[i] == ',') {
                out.push_back(line.substr(start, i - start));
                start = i + 1;
            }
        }
    }

    std::string_view m_text;
    detail::TextLines m_lines;
    const std::string& m_file;
    const char* m_rowKind;
    std::size_t m_maxRows;
    std::size_t m_rows = 0, m_width = 0;
    std::vector<std::string_view> m_fields;
};

/// A whole number in 0…max; the message names the column.
std::int64_t wholeNumber(const Table& t, std::string_view column, std::string_view field,
                         std::int64_t max, const char* maxMeaning = "") {
    const std::string name(column);
    if (field.empty()) t.fail(name + " is empty");
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (end != field.data() + field.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
        t.fail(name + " \"" + detail::escapedForMessage(field) + "\" is not a whole number");
    if (field.front() == '-') t.fail(name + " " + std::string(field) + " is negative");
    if (ec == std::errc::result_out_of_range || value > max)
        t.fail(name + " " + detail::escapedForMessage(field, 40) + " is above " +
               detail::withThousands(max) + maxMeaning);
    return value;
}

/// Seconds from the trace start, 0…maxTimeS; an empty field (or no column) is NaN.
double seconds(const Table& t, std::string_view column, std::string_view field) {
    if (field.empty()) return std::numeric_limits<double>::quiet_NaN();
    double value = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    const std::string name(column);
    if (ec != std::errc() || end != field.data() + field.size() || !std::isfinite(value))
        t.fail(name + " \"" + detail::escapedForMessage(field) + "\" is not a number");
    if (value < 0 || value > OpenbLimits::maxTimeS)
        t.fail(name + " " + std::string(field) + " is outside 0 … 1e10 s");
    return value;
}

/// A field that obeys the name rule.
std::string nameField(const Table& t, std::string_view column, std::string_view field) {
    if (const auto problem = detail::nameProblem(field))
        t.fail(std::string(column) + " " + *problem);
    return std::string(field);
}

constexpr const char* kCpuBound = " (10,000 vCPUs)";
constexpr const char* kMemoryBound = " MiB (64 TiB)";

}  // namespace

std::vector<OpenbNode> parseOpenbNodes(std::string_view text, const std::string& sourceName,
                                       const OpenbLimits& limits) {
    static constexpr std::string_view kColumns[] = {"sn", "cpu_milli", "memory_mib", "gpu",
                                                    "model"};
    enum { kSn, kCpu, kMemory, kGpu, kModel };
    Table t(text, sourceName, "nodes", limits.maxRows);
    const std::vector<int> at = t.header(kColumns, 5);
    std::vector<OpenbNode> nodes;
    nodes.reserve(t.rowsBound());
    std::unordered_map<std::string_view, std::size_t> lineOf;  // name → line, to name both
    lineOf.reserve(t.rowsBound());
    while (t.nextRow()) {
        OpenbNode n;
        n.name = nameField(t, kColumns[kSn], t.field(at[kSn]));
        const auto [it, fresh] = lineOf.emplace(t.field(at[kSn]), t.line());
        if (!fresh)
            t.fail("duplicate node name \"" + n.name + "\" (first on line " +
                   std::to_string(it->second) + ")");
        n.cpuMilli =
            wholeNumber(t, kColumns[kCpu], t.field(at[kCpu]), limits.maxCpuMilli, kCpuBound);
        n.memoryMiB = wholeNumber(t, kColumns[kMemory], t.field(at[kMemory]), limits.maxMemoryMiB,
                                  kMemoryBound);
        n.gpus =
            static_cast<int>(wholeNumber(t, kColumns[kGpu], t.field(at[kGpu]), limits.maxGpus));
        const std::string_view model = t.field(at[kModel]);
        if (n.gpus > 0 && model.empty())
            t.fail("model is empty on a node with gpu " + std::to_string(n.gpus) +
                   " (a GPU node names its GPU model)");
        if (n.gpus > 0)
            n.model = nameField(t, kColumns[kModel], model);
        else if (!model.empty())
            t.fail("model \"" + detail::escapedForMessage(model) +
                   "\" on a node with gpu 0 (a CPU-only node has an empty model)");
        nodes.push_back(std::move(n));
    }
    if (nodes.empty()) t.fail("no nodes in the file (only a header)");
    return nodes;
}

std::vector<OpenbPod> parseOpenbPods(std::string_view text, const std::string& sourceName,
                                     const OpenbLimits& limits) {
    static constexpr std::string_view kColumns[] = {
        "name", "cpu_milli", "memory_mib",    "num_gpu",       "gpu_milli",     "gpu_spec",
        "qos",  "pod_phase", "creation_time", "deletion_time", "scheduled_time"};
    enum {
        kName,
        kCpu,
        kMemory,
        kNumGpu,
        kGpuMilli,
        kSpec,
        kQos,
        kPhase,
        kCreated,
        kDeleted,
        kScheduled
    };
    Table t(text, sourceName, "pods", limits.maxRows);
    const std::vector<int> at = t.header(kColumns, 5);
    std::vector<OpenbPod> pods;
    pods.reserve(t.rowsBound());
    while (t.nextRow()) {
        OpenbPod p;
        p.name = nameField(t, kColumns[kName], t.field(at[kName]));
        p.cpuMilli =
            wholeNumber(t, kColumns[kCpu], t.field(at[kCpu]), limits.maxCpuMilli, kCpuBound);
        p.memoryMiB = wholeNumber(t, kColumns[kMemory], t.field(at[kMemory]), limits.maxMemoryMiB,
                                  kMemoryBound);
        p.numGpu = static_cast<int>(
            wholeNumber(t, kColumns[kNumGpu], t.field(at[kNumGpu]), limits.maxGpus));
        p.gpuMilli = static_cast<int>(
            wholeNumber(t, kColumns[kGpuMilli], t.field(at[kGpuMilli]), 1000, " (a whole GPU)"));
        if (p.numGpu == 0 && p.gpuMilli != 0)
            t.fail("gpu_milli " + std::to_string(p.gpuMilli) +
                   " with num_gpu 0 (a CPU-only pod has gpu_milli 0)");
        if (p.numGpu > 0 && p.gpuMilli == 0)
            t.fail("gpu_milli 0 with num_gpu " + std::to_string(p.numGpu) +
                   " (a GPU pod asks 1 … 1000 milli-GPU per GPU)");
        if (p.gpuMilli > 0 && p.gpuMilli < 1000 && p.numGpu != 1)
            t.fail("gpu_milli " + std::to_string(p.gpuMilli) + " with num_gpu " +
                   std::to_string(p.numGpu) + " (a partial GPU, 1 … 999, goes with num_gpu 1)");
        // gpu_spec: models joined by '|'. A name may repeat (the trace has V100M32 twice).
        if (const std::string_view spec = t.field(at[kSpec]); !spec.empty()) {
            for (std::size_t start = 0;;) {
                const std::size_t bar = std::min(spec.find('|', start), spec.size());
                const std::string_view model = spec.substr(start, bar - start);
                if (const auto problem = detail::nameProblem(model))
                    t.fail("gpu_spec \"" + detail::escapedForMessage(spec) + "\": a model name " +
                           *problem);
                p.gpuSpec.emplace_back(model);
                if (bar == spec.size()) break;
                start = bar + 1;
            }
        }
        if (at[kQos] >= 0) p.qos = nameField(t, kColumns[kQos], t.field(at[kQos]));
        if (at[kPhase] >= 0) p.phase = nameField(t, kColumns[kPhase], t.field(at[kPhase]));
        p.creationS = seconds(t, kColumns[kCreated], t.field(at[kCreated]));
        p.deletionS = seconds(t, kColumns[kDeleted], t.field(at[kDeleted]));
        p.scheduledS = seconds(t, kColumns[kScheduled], t.field(at[kScheduled]));
        if (p.deletionS < p.creationS)  // false when either is NaN
            t.fail("deletion_time " + std::string(t.field(at[kDeleted])) +
                   " is before creation_time " + std::string(t.field(at[kCreated])));
        // A pod runs from its scheduling to its deletion (the time replay's duration).
        if (p.scheduledS < p.creationS)
            t.fail("scheduled_time " + std::string(t.field(at[kScheduled])) +
                   " is before creation_time " + std::string(t.field(at[kCreated])));
        if (p.deletionS < p.scheduledS)
            t.fail("deletion_time " + std::string(t.field(at[kDeleted])) +
                   " is before scheduled_time " + std::string(t.field(at[kScheduled])));
        pods.push_back(std::move(p));
    }
    if (pods.empty()) t.fail("no pods in the file (only a header)");
    return pods;
}

std::vector<OpenbNode> readOpenbNodes(const std::filesystem::path& file) {
    return parseOpenbNodes(readTextFile(file), file.string());
}

std::vector<OpenbPod> readOpenbPods(const std::filesystem::path& file) {
    return parseOpenbPods(readTextFile(file), file.string());
}

}  // namespace gpuplan
