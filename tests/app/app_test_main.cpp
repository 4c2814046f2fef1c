// main of gpuplan_app_tests: runs the one QtTest class named by the first argument.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "app_test_main.hpp"

namespace gpuplan::app::test {
namespace {

struct Registry {
    std::map<std::string, AppTestMain> mains;
    std::vector<std::string> duplicates;
};

// A function-local static: registrations run during static initialisation, in any order.
Registry& registry() {
    static Registry r;
    return r;
}

}  // namespace

bool registerAppTest(const char* name, AppTestMain main) {
    if (!registry().mains.emplace(name, main).second) registry().duplicates.emplace_back(name);
    return true;
}

}  // namespace gpuplan::app::test

int main(int argc, char** argv) {
    using gpuplan::app::test::registry;
    for (const std::string& name : registry().duplicates) {
        std::fprintf(stderr, "gpuplan_app_tests: two test files register the name %s\n",
                     name.c_str());
        return 2;
    }
    const auto found = argc >= 2 ? registry().mains.find(argv[1]) : registry().mains.end();
    if (found == registry().mains.end()) {
        if (argc >= 2) std::fprintf(stderr, "gpuplan_app_tests: no test named %s\n", argv[1]);
        std::fprintf(stderr, "usage: gpuplan_app_tests NAME [QtTest options]; the names:\n");
        for (const auto& [name, main] : registry().mains)
            std::fprintf(stderr, "  %s\n", name.c_str());
        return 2;
    }
    // The test sees the program and its own options, as it would as an executable of its own.
    std::vector<char*> testArgv{argv[0]};
    for (int i = 2; i < argc; ++i)
        testArgv.push_back(argv[i]);
    testArgv.push_back(nullptr);
    return found->second(argc - 1, testArgv.data());
}
