#include "cli_common.hpp"

#include <cmath>
#include <cstdio>

#include "gpuplan/scenario_io.hpp"
#include "paths.hpp"

namespace gpuplan::cli {

Args::Args(int argc, char** argv, int first) {
    for (int i = first; i < argc; ++i)
        m_args.emplace_back(argv[i]);
}

std::string Args::value(const std::string& flag) {
    const std::string arg = take();
    if (arg.size() > flag.size() && arg.compare(0, flag.size() + 1, flag + "=") == 0)
        return arg.substr(flag.size() + 1);
    if (done() || peek().rfind("--", 0) == 0) throw UsageError{flag + " needs a value"};
    return take();
}

bool Args::common(CommonOptions& c) {
    const std::string& a = peek();
    auto is = [&](const char* flag) {
        return a == flag || a.rfind(std::string(flag) + "=", 0) == 0;
    };
    if (is("--presets")) {
        c.presetsDir = value("--presets");
        return true;
    }
    if (is("--catalog")) {
        c.catalogFile = value("--catalog");
        return true;
    }
    if (is("--data-dir")) {
        c.dataDirs.emplace_back(value("--data-dir"));
        return true;
    }
    return false;
}

std::filesystem::path presetsDirFor(const CommonOptions& c) {
    return c.presetsDir ? *c.presetsDir : paths::presetsDir();
}

Catalog loadCatalogFor(const CommonOptions& c) {
    if (c.catalogFile) return loadCatalog(*c.catalogFile);
    return loadCatalog(presetsDirFor(c) / "catalog" / "catalog.json");
}

Scenario loadScenarioFor(const std::filesystem::path& file, const CommonOptions& c) {
    const Catalog catalog = loadCatalogFor(c);
    LoadOptions options;
    options.dataDirs = c.dataDirs;
    for (const auto& d : paths::dataDirs())
        options.dataDirs.push_back(d);
    return loadScenario(file, catalog, options);
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

}  // namespace gpuplan::cli
