// gpuplan-cli: the engine, headless. Exit codes: 0 ok, 2 bad input, 1 internal error.
#include <cstdio>
#include <exception>
#include <string>

#include "cli_common.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"

namespace {

const char* const kUsage =
    "usage: gpuplan-cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  run SCENARIO       simulate a scenario and print its KPIs\n"
    "  validate SCENARIO  check a scenario file; exit 0 if good, 2 with the error if not\n"
    "  why SCENARIO --at T  the jobs pending at time T, with layer and reason\n"
    "  bench              run the engine benchmarks\n"
    "  fill               one fill run of the FGD study on openb node and pod lists\n"
    "  study              every openb pod list x policy x seed of the FGD study\n"
    "  mix SCENARIO       total cost per reserved level, 0 to the peak demand, and the\n"
    "                     cheapest (the rest bought on demand)\n"
    "  compare BASELINE CANDIDATE\n"
    "                     both on the same seeds: each KPI's difference with its 95 % interval\n"
    "  sweep SPEC.json --out DIR\n"
    "                     a scenario over a grid of parameters x replications, in shards\n"
    "  plan SCENARIO --target EXPR --vary SPEC\n"
    "                     the cheapest change that meets every target, with 95 % intervals\n"
    "  trace SCENARIO --out TRACE.json\n"
    "                     the run as Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
    "  report SCENARIO --out REPORT.pdf\n"
    "                     a PDF for the planning meeting: scenario, KPIs, charts, pending\n"
    "                     reasons, assumptions (optionally against --baseline OTHER)\n"
    "  import-kueue FILE.yaml... --into SCENARIO --out NEW.json\n"
    "                     Kueue queues, cohorts and flavors into a scenario's quotas\n"
    "  forecast SCENARIO  its demand as history: a forecast with its interval, and the\n"
    "                     reservation it implies\n"
    "  lesson list | lesson run ID\n"
    "                     the teaching lessons, and one lesson's effects before and after\n"
    "  import-k8s NODES.json [--pods PODS.json] --out SCENARIO.json\n"
    "                     a Kubernetes cluster's GPU nodes and pods into a new scenario\n"
    "  import-slurm --nodes NODES.txt [--jobs SACCT.txt] --out SCENARIO.json\n"
    "                     a Slurm cluster's GPU nodes (and accounting, replayed) as a scenario\n"
    "\n"
    "options:\n"
    "  --help             help (also after a command: gpuplan-cli run --help)\n"
    "  --version          print the version\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace gpuplan::cli;
    if (argc < 2) {
        std::fputs(kUsage, stderr);
        return kBadInput;
    }
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::fputs(kUsage, stdout);
        return kOk;
    }
    if (command == "--version") {
        std::printf("gpuplan-cli %s\n", GPUPLAN_VERSION);
        return kOk;
    }
    const char* usage = command == "run"            ? kRunUsage
                        : command == "validate"     ? kValidateUsage
                        : command == "why"          ? kWhyUsage
                        : command == "bench"        ? kBenchUsage
                        : command == "fill"         ? kFillUsage
                        : command == "study"        ? kStudyUsage
                        : command == "import-kueue" ? kImportKueueUsage
                        : command == "import-k8s"   ? kImportK8sUsage
                        : command == "lesson"       ? kLessonUsage
                        : command == "forecast"     ? kForecastUsage
                        : command == "import-slurm" ? kImportSlurmUsage
                        : command == "mix"          ? kMixUsage
                        : command == "trace"        ? kTraceUsage
                        : command == "compare"      ? kCompareUsage
                        : command == "sweep"        ? kSweepUsage
                        : command == "plan"         ? kPlanUsage
                        : command == "report"       ? kReportUsage
                                                    : nullptr;
    if (!usage) {
        std::fprintf(stderr, "gpuplan-cli: unknown command \"%s\"\n\n%s", command.c_str(), kUsage);
        return kBadInput;
    }
    Args args(argc, argv, 2);
    try {
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--help" || a == "-h") {
                std::fputs(usage, stdout);
                return kOk;
            }
        }
        if (command == "run") return runCommand(args);
        if (command == "validate") return validateCommand(args);
        if (command == "why") return whyCommand(args);
        if (command == "fill") return fillCommand(args);
        if (command == "study") return studyCommand(args);
        if (command == "import-kueue") return importKueueCommand(args);
        if (command == "import-k8s") return importK8sCommand(args);
        if (command == "lesson") return lessonCommand(args);
        if (command == "forecast") return forecastCommand(args);
        if (command == "import-slurm") return importSlurmCommand(args);
        if (command == "mix") return mixCommand(args);
        if (command == "trace") return traceCommand(args);
        if (command == "compare") return compareCommand(args);
        if (command == "sweep") return sweepCommand(args);
        if (command == "plan") return planCommand(args);
        if (command == "report") return reportCommand(args);
        return benchCommand(args);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "gpuplan-cli %s: %s\n\n%s", command.c_str(), e.message.c_str(), usage);
        return kBadInput;
    } catch (const OutputError& e) {
        std::fprintf(stderr, "gpuplan-cli %s: %s\n", command.c_str(), e.message.c_str());
        return kBadInput;
    } catch (const gpuplan::InputError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return kBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "internal error: %s\n", e.what());
        return kInternalError;
    }
}
