// The application's QtTests share one executable, gpuplan_app_tests: each test file registers
// its class under the file's name with GPUPLAN_APP_TEST, and `gpuplan_app_tests NAME [QtTest
// options]` runs that one class (ctest runs every name as its own test, in its own process).
// One executable links the application once instead of once per test file.
#pragma once

#include <QApplication>
#include <QtTest>

namespace gpuplan::app::test {

/// A test's main: receives the QtTest options (argv[0] is the program, the test's name removed).
using AppTestMain = int (*)(int argc, char** argv);

/// Adds a test to the executable's list; a name given twice is a build defect (main says so).
bool registerAppTest(const char* name, AppTestMain main);

/// What QTEST_MAIN does for a widgets test: a QApplication at 96 DPI, then the class's slots.
template <class TestClass>
int runAppTest(int argc, char** argv) {
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestClass test;
    return QTest::qExec(&test, argc, argv);
}

}  // namespace gpuplan::app::test

/// Registers TestClass under `name` (the test file's name without .cpp, which CMake uses for
/// the ctest name).
#define GPUPLAN_APP_TEST(name, TestClass)                         \
    static const bool gpuplanAppTestRegistered [[maybe_unused]] = \
        ::gpuplan::app::test::registerAppTest(name, &::gpuplan::app::test::runAppTest<TestClass>)
