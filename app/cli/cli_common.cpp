#include "cli_common.hpp"

#include <unistd.h>

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gpuplan/model/workload.hpp"
#include "gpuplan/results/results.hpp"
#include "gpuplan/scenario_io/pricebook.hpp"

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "paths.hpp"

namespace gpuplan::cli {

Args::Args(int argc, char** argv, int first) {
    for (int i = first; i < argc; ++i)
        m_args.emplace_back(argv[i]);
}

bool Args::at(std::string_view flag) const {
    if (done()) return false;
    const std::string_view a = peek();
    return a == flag || (a.size() > flag.size() && a.starts_with(flag) && a[flag.size()] == '=');
}

bool Args::atOption() const {
    return !done() && peek().size() > 1 && peek()[0] == '-';
}

std::string Args::value(const std::string& flag) {
    const std::string arg = take();
    if (arg.size() > flag.size()) return arg.substr(flag.size() + 1);  // "--flag=VALUE"
    if (done() || peek().rfind("--", 0) == 0) throw UsageError{flag + " needs a value"};
    return take();
}

void Args::flag(const std::string& flag) {
    if (take() != flag) throw UsageError{flag + " takes no value"};
}

std::optional<std::uint64_t> parseUnsigned(std::string_view text) {
    std::uint64_t value = 0;
    const char* const last = text.data() + text.size();
    // from_chars on an unsigned type takes digits only: no sign, space, exponent or hex.
    const auto [end, ec] = std::from_chars(text.data(), last, value, 10);
    if (text.empty() || ec != std::errc() || end != last) return std::nullopt;
    return value;
}

std::uint64_t Args::integer(const std::string& flag, std::uint64_t min, std::uint64_t max) {
    const std::string text = value(flag);
    const std::optional<std::uint64_t> v = parseUnsigned(text);
    if (!v || *v < min || *v > max)
        throw UsageError{flag + " needs a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max) + ", got \"" + text + "\""};
    return *v;
}

bool Args::common(CommonOptions& c) {
    if (at("--presets")) {
        c.presetsDir = value("--presets");
        return true;
    }
    if (at("--catalog")) {
        c.catalogFile = value("--catalog");
        return true;
    }
    if (at("--data-dir")) {
        c.dataDirs.emplace_back(value("--data-dir"));
        return true;
    }
    if (at("--pricebook")) {
        c.priceBook = value("--pricebook");
        return true;
    }
    if (at("--budget-gb")) {
        c.budget.memoryBytes = positiveNumber("--budget-gb", 1e6) * (1ull << 30);
        return true;
    }
    if (at("--budget-ops")) {
        c.budget.workOps = positiveNumber("--budget-ops", 1e18);
        return true;
    }
    return false;
}

double Args::positiveNumber(const std::string& flag, double max) {
    const std::string text = value(flag);
    char* end = nullptr;
    const double v = text.empty() ? 0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v <= 0 ||
        v > max || std::isspace(static_cast<unsigned char>(text[0])))
        throw UsageError{flag + " needs a number above 0 and at most " + std::to_string(max) +
                         ", got \"" + text + "\""};
    return v;
}

std::pair<std::string, std::string> Args::assignment(const std::string& flag) {
    const std::string text = value(flag);
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw UsageError{flag + " needs NAME=VALUE, got \"" + text + "\""};
    return {text.substr(0, eq), text.substr(eq + 1)};
}

void Args::scenario(std::optional<std::filesystem::path>& scenario) {
    if (atOption()) unknown();
    if (scenario) throw UsageError{"more than one scenario given"};
    scenario = take();
}

void Args::unknown() const {
    if (atOption()) throw UsageError{"unknown option " + peek()};
    throw UsageError{"unexpected argument " + peek()};
}

std::filesystem::path presetsDirFor(const CommonOptions& c) {
    return c.presetsDir ? *c.presetsDir : paths::presetsDir();
}

Catalog loadCatalogFor(const CommonOptions& c) {
    if (c.catalogFile) return loadCatalog(*c.catalogFile);
    return loadCatalog(presetsDirFor(c) / "catalog" / "catalog.json");
}

LoadOptions loadOptionsFor(const CommonOptions& c) {
    LoadOptions options;
    options.dataDirs = c.dataDirs;
    options.budget = c.budget;
    for (const auto& d : paths::dataDirs())
        options.dataDirs.push_back(d);
    return options;
}

Scenario loadScenarioFor(const std::filesystem::path& file, const CommonOptions& c) {
    const Catalog catalog = loadCatalogFor(c);
    Scenario s = loadScenario(file, catalog, loadOptionsFor(c));
    if (!c.priceBook) return s;
    std::filesystem::path book = *c.priceBook;
    // A name alone is a preset book: "lambda" is PRESETS/pricebooks/lambda.json.
    if (!std::filesystem::exists(book) && !book.has_parent_path()) {
        book = presetsDirFor(c) / "pricebooks" / book;
        if (!book.has_extension()) book += ".json";
    }
    s.pricing = pricingOf(loadPriceBook(book, catalog), catalog);
    // Every node group needs a price under the new book: checked as a file would be.
    try {
        validateScenario(s, catalog, c.budget);
    } catch (const InputError& e) {
        throw InputError(file.string(), e.place(),
                         e.message() + " (with --pricebook " + c.priceBook->string() + ")");
    }
    return s;
}

void checkReplicationsBudget(const Scenario& scenario, int replications,
                             const std::filesystem::path& file, const CommonOptions& c) {
    if (replications == scenario.replications) return;  // the reader checked this count
    Scenario asked = scenario;
    asked.replications = replications;
    try {
        validateScenario(asked, loadCatalogFor(c), c.budget);
    } catch (const InputError& e) {
        // A count out of range is the option's fault, not the file's "replications" key.
        const std::string place = e.place() == "/replications" ? "--replications" : e.place();
        throw InputError(
            file.string(), place,
            e.message() + " (with --replications " + std::to_string(replications) + ")");
    }
}

std::string formatSeconds(double s) {
    if (!std::isfinite(s)) return "-";
    char buf[48];
    if (s < 120)
        std::snprintf(buf, sizeof buf, "%.1f s", s);
    else if (s < 7200)
        std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
    else
        std::snprintf(buf, sizeof buf, "%.2f h", s / 3600);
    return buf;
}

std::string formatKpi(double value, const std::string& unit) {
    char buf[96];
    if (!std::isfinite(value)) return "-";
    if (unit == "fraction") {
        std::snprintf(buf, sizeof buf, "%.2f %%", 100 * value);
    } else if (unit == "s") {
        return formatSeconds(value);
    } else if (unit == "jobs" && value == std::floor(value)) {
        std::snprintf(buf, sizeof buf, "%.0f", value);
    } else {
        std::snprintf(buf, sizeof buf, "%.3f %s", value, unit.c_str());
    }
    return buf;
}

ProgressFn progressBar(std::size_t runs) {
    if (!isatty(fileno(stderr))) return {};
    const auto start = std::chrono::steady_clock::now();
    return [runs, start](double fraction) {
        const double elapsedS =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const int filled = static_cast<int>(fraction * 30);
        char bar[31];
        std::memset(bar, '.', 30);
        std::memset(bar, '#', static_cast<std::size_t>(filled));
        bar[30] = 0;
        const double leftS = fraction > 0 ? elapsedS * (1 - fraction) / fraction : 0;
        std::fprintf(stderr, "\r[%s] %3.0f %% of %zu runs, %s left  ", bar, 100 * fraction, runs,
                     formatSeconds(leftS).c_str());
        if (fraction >= 1) std::fputc('\n', stderr);
    };
}

Shard parseShard(const std::string& text) {
    const std::size_t slash = text.find('/');
    const auto k = slash == std::string::npos ? std::nullopt : parseUnsigned(text.substr(0, slash));
    const auto n =
        slash == std::string::npos ? std::nullopt : parseUnsigned(text.substr(slash + 1));
    if (!k || !n || *k < 1 || *k > *n || *n > 100000)
        throw UsageError{"--shard takes K/N with 1 <= K <= N <= 100000, got \"" + text + "\""};
    return {static_cast<int>(*k), static_cast<int>(*n)};
}

std::string fnv64(std::string_view bytes) {
    return fingerprintHex(stableHash(bytes));
}

std::string catalogFnv64(const CommonOptions& common) {
    return fnv64(readTextFile(common.catalogFile
                                  ? *common.catalogFile
                                  : presetsDirFor(common) / "catalog" / "catalog.json"));
}

}  // namespace gpuplan::cli
