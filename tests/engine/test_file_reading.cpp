// Scenario, catalog and trace paths: only regular files are read, anything else is refused
// with what it is before a byte is read (a FIFO would block, /dev/zero never ends).
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "gpuplan/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

/// A fresh folder under the temp directory, removed at the end of the test.
struct TempFolder {
    fs::path path;
    explicit TempFolder(const std::string& name)
        : path(fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempFolder() { fs::remove_all(path); }
};

std::string readError(const fs::path& file) {
    try {
        readTextFile(file);
    } catch (const InputError& e) {
        return e.what();
    }
    return "read";
}

const Catalog& catalog() {
    return test::presetCatalog();
}

/// A scenario in `folder` whose one trace is `traceFile`.
fs::path scenarioWithTrace(const fs::path& folder, const std::string& traceFile) {
    std::string text = readTextFile(test::testDataDir() / "valid-minimal.json");
    text.insert(text.rfind('}'),
                ", \"traces\": [{\"format\": \"philly\", \"file\": \"" + traceFile + "\"}]");
    writeFileAtomic(folder / "scenario.json", text);
    return folder / "scenario.json";
}

}  // namespace

TEST_CASE("a path that is not a regular file is refused with what it is, before reading") {
    TempFolder tmp("gpuplan-file-types");
    const fs::path fifo = tmp.path / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // Reading a FIFO nobody writes to used to block forever.
    CHECK(readError(fifo) == fifo.string() + ": is a named pipe (FIFO), not a regular file");
    // /dev/zero used to be read whole (5.6 GB) before the size was known.
    CHECK(readError("/dev/zero") == "/dev/zero: is a character device, not a regular file");
    CHECK(readError(tmp.path) == tmp.path.string() + ": is a folder, not a regular file");

    const fs::path socketPath = tmp.path / "socket";
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(s >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
    REQUIRE(::bind(s, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    CHECK(readError(socketPath) == socketPath.string() + ": is a socket, not a regular file");
    ::close(s);

    CHECK(readError(tmp.path / "missing.json") ==
          (tmp.path / "missing.json").string() + ": file not found");
    fs::create_symlink(tmp.path / "gone.json", tmp.path / "dangling.json");
    CHECK(readError(tmp.path / "dangling.json") ==
          (tmp.path / "dangling.json").string() + ": is a symbolic link to \"" +
              (tmp.path / "gone.json").string() + "\", which does not exist");

    // A symbolic link to a regular file is that file.
    writeFileAtomic(tmp.path / "real.json", "{}");
    fs::create_symlink(tmp.path / "real.json", tmp.path / "link.json");
    CHECK(readTextFile(tmp.path / "link.json") == "{}");

    // The size is the opened file's: a sparse 64 MB + 1 byte file is refused unread.
    { std::ofstream big(tmp.path / "big.json"); }
    fs::resize_file(tmp.path / "big.json", InputLimits::maxFileBytes + 1);
    CHECK(readError(tmp.path / "big.json") ==
          (tmp.path / "big.json").string() + ": file is larger than 64 MB");
}

TEST_CASE("scenario and catalog loaders refuse a device or FIFO with what it is") {
    CHECK_THROWS_WITH(loadScenario("/dev/zero", catalog()),
                      "/dev/zero: is a character device, not a regular file");
    CHECK_THROWS_WITH(loadCatalog("/dev/zero"),
                      "/dev/zero: is a character device, not a regular file");
    TempFolder tmp("gpuplan-loader-types");
    const fs::path fifo = tmp.path / "catalog.json";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THROWS_WITH(loadCatalog(fifo),
                      fifo.string() + ": is a named pipe (FIFO), not a regular file");
}

TEST_CASE("a trace path that is a folder or a FIFO is said to be one, not \"not found\"") {
    TempFolder tmp("gpuplan-trace-types");
    fs::create_directories(tmp.path / "folder.csv");
    CHECK_THROWS_WITH(loadScenario(scenarioWithTrace(tmp.path, "folder.csv"), catalog()),
                      (tmp.path / "folder.csv").string() + ": is a folder, not a regular file");
    REQUIRE(::mkfifo((tmp.path / "fifo.csv").c_str(), 0600) == 0);
    CHECK_THROWS_WITH(
        loadScenario(scenarioWithTrace(tmp.path, "fifo.csv"), catalog()),
        (tmp.path / "fifo.csv").string() + ": is a named pipe (FIFO), not a regular file");
}
