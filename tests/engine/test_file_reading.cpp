// Scenario, catalog and trace paths: only regular files are read, anything else is refused
// with what it is before a byte is read (a FIFO would block, /dev/zero never ends). A file
// another file names (a trace, a lesson's or a sweep's scenario) is refused at that key.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/studies/lesson.hpp"
#include "gpuplan/studies/sweep.hpp"
#include "io/text_rules.hpp"
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
    // Reading a FIFO nobody writes to would block forever.
    CHECK(readError(fifo) == fifo.string() + ": is a named pipe (FIFO), not a regular file");
    // /dev/zero would be read without end: refused before reading.
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

TEST_CASE("a trace path that is a folder or a FIFO is said to be one, at the key naming it") {
    TempFolder tmp("gpuplan-trace-types");
    fs::create_directories(tmp.path / "folder.csv");
    const fs::path folderScenario = scenarioWithTrace(tmp.path, "folder.csv");
    CHECK_THROWS_WITH(loadScenario(folderScenario, catalog()),
                      folderScenario.string() + ": /traces/0/file: " +
                          (tmp.path / "folder.csv").string() + ": is a folder, not a regular file");
    REQUIRE(::mkfifo((tmp.path / "fifo.csv").c_str(), 0600) == 0);
    const fs::path fifoScenario = scenarioWithTrace(tmp.path, "fifo.csv");
    CHECK_THROWS_WITH(loadScenario(fifoScenario, catalog()),
                      fifoScenario.string() +
                          ": /traces/0/file: " + (tmp.path / "fifo.csv").string() +
                          ": is a named pipe (FIFO), not a regular file");
}

TEST_CASE("a path holding a NUL byte is refused, never read up to the NUL") {
    // The system reads "one-job.csv\0.json" as one-job.csv, a real trace.
    const fs::path trace = test::testDataDir() / "traces" / "one-job.csv";
    REQUIRE(readTextFile(trace).size() > 0);
    const std::string withNul = trace.string() + std::string(1, '\0') + ".json";
    CHECK(readError(withNul) ==
          trace.string() + "\\u0000.json: the path holds a NUL byte, which no file name can");
    // The scenario names the trace: refused at its key. Without the NUL it loads.
    const fs::path scenario = test::testDataDir() / "malformed" / "trace-path-nul.json";
    std::string text = readTextFile(scenario);
    const InputError e = test::inputErrorOf([&] { loadScenario(scenario, catalog()); });
    CHECK(e.file() == scenario.string());
    CHECK(e.place() == "/traces/0/file");
    CHECK(e.message() ==
          "the trace file \"../traces/one-job.csv\\u0000.json\" holds a NUL byte, which no "
          "file name can");
    text.replace(text.find("\\u0000.json"), 11, "");
    CHECK(parseScenario(text, scenario.string(), catalog(), {}, scenario.parent_path())
              .traces.at(0)
              .data->jobs.size() == 1);
}

TEST_CASE("a message never ends at a NUL its text holds") {
    // what() is a C string: a raw NUL in the file, place or message ended it there.
    const InputError e(std::string("a\0b.json", 8), std::string("/k\0", 3),
                       std::string("x\0y\x1b[2J", 7));
    CHECK(std::string(e.what()) == "a\\u0000b.json: /k\\u0000: x\\u0000y\\u001b[2J");
    CHECK(std::strlen(e.what()) == std::string(e.what()).size());
    CHECK(e.file() == "a\\u0000b.json");
    CHECK(e.message() == "x\\u0000y\\u001b[2J");
    // Text that is already escaped, or plain UTF-8, is kept as it is.
    CHECK(InputError("f", "", "caf\xc3\xa9 \\u0000").message() == "caf\xc3\xa9 \\u0000");
}

TEST_CASE("free text shown as it is holds no NUL or control character but line breaks") {
    using detail::proseProblem;
    CHECK_FALSE(proseProblem("Pack vs spread, and fragmentation"));
    CHECK_FALSE(proseProblem("two\nlines\tand a tab, caf\xc3\xa9 \xe2\x96\xb8"));
    CHECK(proseProblem(std::string("a\0b", 3)) == "holds a NUL byte");
    CHECK(proseProblem("clear\x1b[2J") == "holds a control character (\\u001b)");
    CHECK(proseProblem("over\rwrite") == "holds a control character (\\u000d)");
    CHECK(proseProblem("caf\xff") == "is not UTF-8 text (byte \\xff)");
    // A lesson's title with a NUL and an escape sequence: gpuplan-cli lesson list printed it
    // up to the NUL, after clearing the terminal.
    const fs::path lesson = test::testDataDir() / "lessons" / "title-control-characters.json";
    const InputError e = test::inputErrorOf([&] { loadLesson(lesson); });
    CHECK(e.place() == "/title");
    CHECK(e.message() == "the text holds a NUL byte");
}

TEST_CASE("a lesson's or a sweep's scenario path is refused at its key when unreadable") {
    const fs::path lessons = test::testDataDir() / "lessons";
    SECTION("a NUL byte, when the file is read") {
        const InputError e = test::inputErrorOf([&] { loadLesson(lessons / "scenario-nul.json"); });
        CHECK(e.place() == "/scenario");
        CHECK(e.message() ==
              "the lesson's scenario file \"../valid-minimal.json\\u0000.txt\" holds a NUL byte, "
              "which no file name can");
        const InputError s = test::inputErrorOf(
            [&] { loadSweepSpec(test::testDataDir() / "sweeps" / "scenario-nul.json"); });
        CHECK(s.place() == "/scenario");
        CHECK_THAT(s.message(), Catch::StartsWith("the sweep's scenario file \"../valid-minimal"));
    }
    // A folder, a device and a missing file: the message names the lesson (or sweep) and its
    // key, not only the path ("error: /: is a folder…").
    const std::pair<const char*, std::string> cases[] = {
        {"scenario-folder.json", "/: is a folder, not a regular file"},
        {"scenario-device.json", "/dev/null: is a character device, not a regular file"},
        {"scenario-missing.json", "no-such-scenario.json: file not found"}};
    for (const auto& [name, why] : cases) {
        INFO(name);
        const Lesson lesson = loadLesson(lessons / name);
        const InputError e = test::inputErrorOf([&] { lessonScenario(lesson, catalog(), {}); });
        CHECK(e.file() == (lessons / name).string());
        CHECK(e.place() == "/scenario");
        CHECK_THAT(e.message(), Catch::EndsWith(why));
        const fs::path sweepFile = test::testDataDir() / "sweeps" / name;
        const SweepSpec spec = loadSweepSpec(sweepFile);
        const InputError s = test::inputErrorOf([&] { sweepScenarioText(spec); });
        CHECK(s.file() == sweepFile.string());
        CHECK(s.place() == "/scenario");
        CHECK_THAT(s.message(), Catch::EndsWith(why));
        CHECK_THROWS_WITH(scenarioAtPoint(spec, 0, catalog(), {}),
                          sweepFile.string() + ": /scenario: " + s.message());
    }
    // The fixtures' good sibling reads.
    const SweepSpec grid = loadSweepSpec(test::testDataDir() / "sweeps" / "grid.json");
    CHECK(scenarioAtPoint(grid, 3, catalog(), {}).horizonS == 86400);
}
