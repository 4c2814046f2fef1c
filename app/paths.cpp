#include "paths.hpp"

#include <cstdlib>
#include <string>

namespace gpuplan::paths {

namespace fs = std::filesystem;

namespace {
fs::path executableDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}
bool isDir(const fs::path& p) {
    std::error_code ec;
    return !p.empty() && fs::is_directory(p, ec);
}
}  // namespace

fs::path presetsDir() {
    if (const char* env = std::getenv("GPUPLAN_PRESETS_DIR"); env && *env) return env;
    const fs::path installed = executableDir() / ".." / "share" / "gpuplan" / "presets";
    if (isDir(installed)) return fs::weakly_canonical(installed);
    if (isDir(GPUPLAN_SOURCE_PRESETS_DIR)) return GPUPLAN_SOURCE_PRESETS_DIR;
    return GPUPLAN_INSTALL_PRESETS_DIR;
}

fs::path catalogFile() {
    return presetsDir() / "catalog" / "catalog.json";
}

std::vector<fs::path> dataDirs() {
    std::vector<fs::path> dirs;
    if (const char* env = std::getenv("GPUPLAN_DATA_DIR"); env && *env) {
        std::string list = env;
        std::size_t start = 0;
        while (start <= list.size()) {
            const std::size_t end = std::min(list.find(':', start), list.size());
            if (end > start) dirs.emplace_back(list.substr(start, end - start));
            start = end + 1;
        }
    }
    // After the user's own folders: the traces and lists gpuplan ships beside its presets.
    if (const fs::path shipped = presetsDir() / "data"; isDir(shipped)) dirs.push_back(shipped);
    return dirs;
}

}  // namespace gpuplan::paths
