#include "cli_outputs.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "cli_common.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "paths.hpp"

namespace gpuplan::cli {

namespace fs = std::filesystem;

namespace {

std::string quoted(const fs::path& path) {
    return "\"" + path.string() + "\"";
}

/// What is at `path`: not_found when nothing (also when a parent is a file); OutputError when
/// it cannot even be looked at.
fs::file_type typeOf(const std::string& flag, const fs::path& path) {
    std::error_code ec;
    const fs::file_type type = fs::status(path, ec).type();
    if (ec && type != fs::file_type::not_found)
        throw OutputError{flag + ": cannot look at " + quoted(path) + ": " + ec.message()};
    return type;
}

void checkWritableFolder(const std::string& flag, const fs::path& folder) {
    const fs::file_type type = typeOf(flag, folder);
    if (type == fs::file_type::not_found)
        throw OutputError{flag + ": folder " + quoted(folder) + " does not exist"};
    if (type != fs::file_type::directory)
        throw OutputError{flag + ": " + quoted(folder) + " is not a folder"};
    // writeFileAtomic creates a temporary file beside the target, then renames it.
    if (access(folder.c_str(), W_OK | X_OK) != 0)
        throw OutputError{flag + ": cannot write into " + quoted(folder) + ": " +
                          std::strerror(errno)};
}

}  // namespace

void checkOutputFile(const std::string& flag, const fs::path& file) {
    if (file.empty()) throw OutputError{flag + " needs a file name, got \"\""};
    if (!file.has_filename() || typeOf(flag, file) == fs::file_type::directory)
        throw OutputError{flag + ": " + quoted(file) + " is a folder; give a file name"};
    checkWritableFolder(flag, file.has_parent_path() ? file.parent_path() : fs::path("."));
}

void prepareOutputFolder(const std::string& flag, const fs::path& folder) {
    if (folder.empty()) throw OutputError{flag + " needs a folder, got \"\""};
    if (typeOf(flag, folder) == fs::file_type::not_found) {
        std::error_code ec;
        fs::create_directories(folder, ec);
        if (ec) throw OutputError{flag + ": cannot create " + quoted(folder) + ": " + ec.message()};
    }
    checkWritableFolder(flag, folder);
}

Scenario saveImportedScenario(const Scenario& imported, const std::filesystem::path& out,
                              const CommonOptions& common, const Catalog& catalog) {
    std::vector<std::filesystem::path> dataDirs = common.dataDirs;
    for (const auto& d : paths::dataDirs())
        dataDirs.push_back(d);
    Scenario scenario = rebaseTraces(imported, folderOf(out), dataDirs);
    try {
        validateScenario(scenario, catalog, common.budget);
    } catch (const InputError& e) {  // a rule the import did not check first: still refused
        throw InputError(out.string() + " (not written)", e.place(), e.message());
    }
    saveScenarioAtomic(scenario, out);
    return scenario;
}

}  // namespace gpuplan::cli
