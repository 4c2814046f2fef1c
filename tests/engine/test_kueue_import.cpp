// gpuplan-cli import-kueue's engine side: Kueue manifests (tests/data/kueue) into a
// scenario's teams, quotas and cohorts. The fleet of kueue/base.json: 2 dgx-h100 (h100-sxm)
// and 2 dgx-a100 (a100-40gb-sxm) nodes; teams "research" and "keep".
#include <catch2/catch.hpp>

#include <functional>

#include "gpuplan/import/kueue_import.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "import/kube_quantity.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

const Catalog& catalog() {
    return test::presetCatalog();
}

Scenario base() {
    return loadScenario(test::testDataDir() / "kueue" / "base.json", catalog());
}

std::filesystem::path fixture(const std::string& name) {
    return test::testDataDir() / "kueue" / name;
}

KueueImport importText(const std::string& yaml, const KueueImportOptions& options = {}) {
    return importKueue(base(), {{"m.yaml", yaml}}, options);
}

using test::inputErrorOf;

InputError textError(const std::string& yaml, const KueueImportOptions& options = {}) {
    return inputErrorOf([&] { importText(yaml, options); });
}

InputError fileError(const std::string& name, const KueueImportOptions& options = {}) {
    return inputErrorOf([&] { importKueueFiles(base(), {fixture(name)}, options); });
}

const QuotaDef& quotaOf(const Scenario& s, const std::string& team) {
    for (const QuotaDef& q : s.quotas)
        if (q.team == team) return q;
    FAIL("no quota for team " << team);
    throw;
}

/// A ClusterQueue of `gpus` nvidia.com/gpu in flavor h100-sxm (named like the fleet's model),
/// after `spec` lines of its own (indented by 2).
std::string queue(const std::string& name, const std::string& spec, const std::string& gpus = "8") {
    std::string yaml = "apiVersion: kueue.x-k8s.io/v1beta1\n";  // line 1
    yaml += "kind: ClusterQueue\n";                             // 2
    yaml += "metadata: {name: " + name + "}\n";                 // 3
    yaml += "spec:\n" + spec;                                   // 4, then the spec's lines
    yaml += "  resourceGroups:\n";
    yaml += "  - coveredResources: [nvidia.com/gpu]\n";
    yaml += "    flavors:\n";
    yaml += "    - name: h100-sxm\n";
    yaml += "      resources: [{name: nvidia.com/gpu, nominalQuota: " + gpus + "}]\n";
    return yaml;
}

bool hasNote(const KueueImport& r, const std::string& text) {
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&](const std::string& n) { return n == text; });
}

}  // namespace

TEST_CASE("a small Kueue cohort imports to the quotas worked out by hand", "[kueue]") {
    const KueueImport r = importKueueFiles(base(), {fixture("cohort.yaml")});
    const Scenario& s = r.scenario;
    CHECK(r.clusterQueues == 3);
    CHECK(r.cohorts == 2);
    CHECK(r.resourceFlavors == 4);
    CHECK(r.localQueues == 2);

    // research-cq: both LocalQueues are in namespace "research", so team research. Its
    // flavors h100 (product label NVIDIA-H100-80GB-HBM3) and spot-h100 (the same label in
    // lower case) are both h100-sxm and merge:
    //   nominal   8 + 4 = 12
    //   borrowing 4 + 2 = 6 (both set)
    //   lending   2 + 4 = 6 (spot-h100 sets none, so it lends all of its nominal 4)
    // a100-40gb-sxm has no ResourceFlavor label: it maps by its name; 4500m = 4.5 GPUs.
    // cpu, memory and pods quotas are skipped. fairSharing.weight "2"; policies as written.
    const QuotaDef& research = quotaOf(s, "research");
    CHECK(research.cohort == "ml");
    REQUIRE(research.flavors.size() == 2);
    CHECK(research.flavors[0] == FlavorQuotaDef{"h100-sxm", 12, 6.0, 6.0});
    CHECK(research.flavors[1] == FlavorQuotaDef{"a100-40gb-sxm", 4.5, std::nullopt, std::nullopt});
    CHECK(research.fairShareWeight == 2);
    CHECK(research.reclaimWithinCohort == ReclaimPolicy::Any);
    CHECK(research.withinTeam == WithinTeamPolicy::LowerPriority);

    // serving (v1beta2, spec.cohortName) and batch have no LocalQueue: teams of their names.
    const QuotaDef& serving = quotaOf(s, "serving");
    CHECK(serving.cohort == "ml");
    REQUIRE(serving.flavors.size() == 1);
    CHECK(serving.flavors[0] == FlavorQuotaDef{"h100-sxm", 4, std::nullopt, 4.0});
    CHECK(serving.fairShareWeight == 1);
    CHECK(serving.reclaimWithinCohort == ReclaimPolicy::Never);
    CHECK(serving.withinTeam == WithinTeamPolicy::Never);
    const QuotaDef& batch = quotaOf(s, "batch");
    CHECK(batch.cohort == "shared");
    REQUIRE(batch.flavors.size() == 1);
    CHECK(batch.flavors[0] == FlavorQuotaDef{"a100-40gb-sxm", 2, std::nullopt, std::nullopt});
    CHECK(s.quotas.size() == 3);

    // Cohort objects in file order (ml, then v1alpha1's org), then "shared", which only
    // batch names. ml holds 2 H100 of its own, borrows at most 1 from org; weight 500m = 0.5.
    REQUIRE(s.cohorts.size() == 3);
    CHECK(s.cohorts[0] == CohortDef{"ml", "org", false, {{"h100-sxm", 2, 1.0, std::nullopt}}, 0.5});
    CHECK(s.cohorts[1] == CohortDef{"org", "", false, {}, 1});
    CHECK(s.cohorts[2] == CohortDef{"shared", "", false, {}, 1});

    // Teams: the base's two, then the two the queues add; "keep" has no quota.
    REQUIRE(s.teams.size() == 4);
    CHECK(s.teams[2].name == "serving");
    CHECK(s.teams[3].name == "batch");
    CHECK(r.createdTeams == std::vector<std::string>{"serving", "batch"});
    CHECK(r.unmanagedTeams == std::vector<std::string>{"keep"});
    // Everything else is the base's.
    Scenario rest = s;
    rest.quotas.clear();
    rest.cohorts.clear();
    rest.teams.resize(2);
    CHECK(rest == base());

    // Notes, one per kind. Skipped: cpu and memory of research-cq's three GPU flavors (6)
    // and the pods quota of cpu-only (1) = 7, the first at line 62.
    CHECK(hasNote(r,
                  "skipped quotas of resources other than nvidia.com/gpu (gpuplan's quotas "
                  "count GPUs) [cpu, memory, pods] (7 places, first " +
                      fixture("cohort.yaml").string() + ": line 62)"));
    CHECK(hasNote(r,
                  "flavors of one GPU model merged into one quota (nominal quotas and limits "
                  "added): gpuplan's quotas are per GPU model [h100+spot-h100 = h100-sxm] "
                  "(1 place: " +
                      fixture("cohort.yaml").string() + ": line 70)"));
    // Weights on research-cq (line 40) and ml (line 118), fair sharing not switched on.
    CHECK(hasNote(r,
                  "fairSharing weights kept, but fair sharing is off: Kueue switches it on "
                  "in its Configuration (fairSharing.enable), which no manifest holds; pass "
                  "--fair-sharing if your cluster does (2 places, first " +
                      fixture("cohort.yaml").string() + ": line 40)"));
    CHECK(hasNote(r,
                  "skipped objects that are not Kueue ClusterQueues, Cohorts, ResourceFlavors "
                  "or LocalQueues [Namespace] (1 place: " +
                      fixture("cohort.yaml").string() + ": line 153)"));
    // Defaults written out (namespaceSelector {}, BestEffortFIFO, Borrow/TryNextFlavor,
    // borrowWithinCohort Never, stopPolicy None) are no notes.
    CHECK(r.notes.size() == 4);
}

TEST_CASE("an imported Kueue cohort round-trips through the scenario file", "[kueue]") {
    KueueImportOptions options;
    options.fairSharing = true;
    const KueueImport r = importKueueFiles(base(), {fixture("cohort.yaml")}, options);
    for (const CohortDef& c : r.scenario.cohorts)
        CHECK(c.fairSharing);    // --fair-sharing: every cohort
    CHECK(r.notes.size() == 3);  // no note on weights now
    const std::string json = scenarioToJson(r.scenario);
    const Scenario reread = parseScenario(json, "imported.json", catalog());
    CHECK(reread == r.scenario);
    CHECK(scenarioToJson(reread) == json);
    CHECK_NOTHROW(validateScenario(r.scenario, catalog()));
}

TEST_CASE("Kueue manifests gpuplan cannot model are refused at their line", "[kueue]") {
    SECTION("MIG instances as a resource") {
        const InputError e = fileError("mig-resource.yaml");
        CHECK(e.file() == fixture("mig-resource.yaml").string());
        CHECK(e.place() == "line 9");
        CHECK_THAT(e.message(), Catch::Contains("\"nvidia.com/mig-1g.10gb\": MIG instances") &&
                                    Catch::Contains("not supported") &&
                                    Catch::Contains("nvidia.com/gpu quota in GPUs instead"));
    }
    SECTION("a quantity that is not one, and a negative one") {
        const InputError bad = fileError("bad-quantity.yaml");
        CHECK(bad.place() == "line 14");
        CHECK(bad.message() ==
              "\"borrowingLimit\": \"4 GPUs\" is not a Kubernetes quantity (like 8, 1.5, 500m or "
              "64Gi)");
        const InputError negative = fileError("negative-quota.yaml");
        CHECK(negative.place() == "line 12");
        CHECK(negative.message() == "\"nominalQuota\" must not be negative, got \"-2\"");
    }
    SECTION("a flavor of GPUs the fleet lacks, named at its product label") {
        const InputError e = fileError("unmapped-flavor.yaml");
        CHECK(e.place() == "line 7");
        CHECK_THAT(e.message(),
                   Catch::StartsWith("ResourceFlavor \"b200\" selects nvidia.com/gpu.product "
                                     "\"NVIDIA-B200\", which is no GPU model of the scenario's "
                                     "fleet (h100-sxm = NVIDIA-H100-80GB-HBM3, a100-40gb-sxm = "
                                     "NVIDIA-A100-SXM4-40GB)") &&
                       Catch::EndsWith("map it with --flavor b200=GPU_MODEL"));
        // Mapped by hand, it imports; cpu-only, used by no GPU quota, needs no model.
        KueueImportOptions options;
        options.flavorModels = {{"b200", "h100-sxm"}};
        const KueueImport r = importKueueFiles(base(), {fixture("unmapped-flavor.yaml")}, options);
        CHECK(quotaOf(r.scenario, "research").flavors ==
              std::vector<FlavorQuotaDef>{{"h100-sxm", 8, std::nullopt, std::nullopt}});
    }
    SECTION("aliases (billion laughs) at the first one") {
        const InputError e = fileError("aliases.yaml");
        CHECK(e.place() == "line 4");
        CHECK_THAT(e.message(), Catch::Contains("aliases (*name) are not supported"));
    }
    SECTION("a queue two namespaces use, unless --team names its team") {
        const InputError e = fileError("shared-queue.yaml");
        CHECK(e.place() == "line 5");
        CHECK(e.message() ==
              "ClusterQueue \"pool\" is used by LocalQueues in 2 namespaces (alice, bob): gpuplan "
              "gives a quota to one team; name it with --team pool=TEAM");
        KueueImportOptions options;
        options.queueTeams = {{"pool", "research"}};
        const KueueImport r = importKueueFiles(base(), {fixture("shared-queue.yaml")}, options);
        CHECK(quotaOf(r.scenario, "research").flavors.at(0).nominalGpus == 8);
        CHECK(r.createdTeams.empty());
    }
    SECTION("a cohort cycle, at the parentName that closes it") {
        const InputError e = fileError("cohort-cycle.yaml");
        CHECK(e.place() == "line 6");
        CHECK_THAT(e.message(), Catch::StartsWith("Cohort \"a\" is its own ancestor (a → b → a)"));
    }
}

TEST_CASE("an empty value is refused, never read as no limit or an empty name", "[kueue]") {
    SECTION("borrowingLimit: [] and lendingLimit: {} at their lines") {
        // Neither may import as no limit (unlimited borrowing, lending all).
        const InputError borrowing = fileError("borrowing-limit-empty.yaml");
        CHECK(borrowing.place() == "line 16");
        CHECK(borrowing.message() ==
              "\"borrowingLimit\" must be a quantity (like 8, 1.5, 500m or 64Gi), got a list");
        const InputError lending = fileError("lending-limit-empty.yaml");
        CHECK(lending.place() == "line 16");
        CHECK(lending.message() ==
              "\"lendingLimit\" must be a quantity (like 8, 1.5, 500m or 64Gi), got a map");
    }
    SECTION("an empty name says it is empty") {
        const InputError e = fileError("empty-name.yaml");
        CHECK(e.place() == "line 5");
        CHECK(e.message() == "\"name\" is empty: give its value, or leave the key out");
    }
    SECTION("null and a missing key stay no limit; \"\" is no quantity (Kubernetes refuses it)") {
        const auto limited = [](const std::string& line) {
            return queue("q", "  cohort: c\n")
                .replace(queue("q", "  cohort: c\n").find("nominalQuota: 8}"), 16,
                         "nominalQuota: 8, " + line + "}");
        };
        const KueueImport none = importText(limited("borrowingLimit: null"));
        CHECK(quotaOf(none.scenario, "q").flavors ==
              std::vector<FlavorQuotaDef>{{"h100-sxm", 8, std::nullopt, std::nullopt}});
        const KueueImport two = importText(limited("borrowingLimit: 2"));
        CHECK(quotaOf(two.scenario, "q").flavors.at(0).borrowingLimitGpus == 2);
        CHECK(textError(limited("borrowingLimit: \"\"")).message() ==
              "\"borrowingLimit\" is empty: give its value, or leave the key out");
        // A cohort left "" is no cohort (Kubernetes' empty string); [] is refused.
        CHECK(importText(queue("q", "  cohort: \"\"\n")).scenario.cohorts.empty());
        CHECK(textError(queue("q", "  cohort: []\n")).message() ==
              "\"cohort\" must be text, got a list");
    }
}

TEST_CASE("a note quotes what it ignores escaped, never cut at a NUL", "[kueue]") {
    // YAML's "\\0" and "\\e" escapes put a NUL and an ESC into a value; the file holds neither.
    const std::string yaml = queue("q", "") +
                             "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
                             "metadata: {name: lq, namespace: q}\n"
                             "spec: {clusterQueue: q, stopPolicy: \"Hold\\0\\e[2J\"}\n";
    const KueueImport r = importText(yaml);
    CHECK(hasNote(r,
                  "LocalQueue stopPolicy \"Hold\\u0000\\u001b[2J\" ignored: its team's jobs are "
                  "admitted (1 place: m.yaml: line 14)"));
}

TEST_CASE("a quota of another resource is bounded in its own unit, without overflow", "[kueue]") {
    // 1e30 cores: the bound is 1E (10^18), the largest SI suffix, written out in full. It used
    // to be 1e30 cast to a long long (-9,223,372,036,854,775,808) and labelled GPUs.
    const InputError cpu = fileError("huge-cpu-quota.yaml");
    CHECK(cpu.place() == "line 16");
    CHECK(cpu.message() ==
          "\"nominalQuota\": \"1e30\" is more than 1,000,000,000,000,000,000 cores");
    const auto quota = [](const std::string& resource, const std::string& amount) {
        std::string yaml = queue("q", "");
        yaml.replace(yaml.find("[nvidia.com/gpu]"), 16, "[nvidia.com/gpu, " + resource + "]");
        return yaml.replace(yaml.find("}]"), 2,
                            "}, {name: " + resource + ", nominalQuota: " + amount + "}]");
    };
    CHECK_THAT(textError(quota("memory", "2Ei")).message(),
               Catch::EndsWith("\"2Ei\" is more than 1,000,000,000,000,000,000 bytes"));
    CHECK_THAT(textError(quota("pods", "2E")).message(),
               Catch::EndsWith("\"2E\" is more than 1,000,000,000,000,000,000 pods"));
    CHECK_THAT(textError(quota("example.com/fpga", "2E")).message(),
               Catch::EndsWith("is more than 1,000,000,000,000,000,000 units of "
                               "\"example.com/fpga\""));
    // 1E itself is within the bound: skipped with a note, the GPU quota imported.
    CHECK(quotaOf(importText(quota("cpu", "1E")).scenario, "q").flavors.at(0).nominalGpus == 8);
    // GPUs keep their bound, the scenario reader's 10^7.
    CHECK(textError(queue("q", "", "2e7")).message() ==
          "\"nominalQuota\": \"2e7\" is more than 10,000,000 GPUs");
}

TEST_CASE("malformed Kueue YAML is refused at its line", "[kueue]") {
    // Each case: the manifest, the line, what the message holds.
    struct Case {
        std::string yaml;
        std::string line, message;
    };
    const std::vector<Case> cases = {
        {"kind: ClusterQueue\nkind: Cohort\n", "line 2", "duplicate key \"kind\""},
        {"kind: [ClusterQueue\n", "line 2", "invalid YAML"},
        {"- a\n- b\n", "line 1", "expected a Kubernetes object (a map of keys), got a list"},
        // yaml-cpp 0.7 would read empty documents here forever (a fuzzer found it).
        {"kind: Cohort\n---\n,a: b\n", "line 3",
         "invalid YAML: unexpected \",\" where a document should start"},
        {"apiVersion: kueue.x-k8s.io/v1\nkind: ClusterQueue\nmetadata: {name: q}\n", "line 1",
         "apiVersion \"kueue.x-k8s.io/v1\" of a ClusterQueue is not supported"},
        {"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nspec: {}\n", "line 1",
         "\"metadata\" is missing"},
        // borrowingLimit without a cohort.
        {"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n"
         "  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n"
         "    - name: h100-sxm\n      resources:\n      - name: nvidia.com/gpu\n"
         "        nominalQuota: 8\n        borrowingLimit: 2\n",
         "line 12", "borrowingLimit needs spec.cohort"},
        {"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n"
         "  cohort: c\n  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n"
         "    - name: h100-sxm\n      resources:\n      - name: nvidia.com/gpu\n"
         "        nominalQuota: 8\n        lendingLimit: 9\n",
         "line 13", "lendingLimit 9 is more than the nominal quota 8"},
        {queue("q", "  preemption: {reclaimWithinCohort: Sometimes}\n"), "line 5",
         "unknown reclaimWithinCohort \"Sometimes\" (Never, LowerPriority or Any)"},
        // A flavor with no ResourceFlavor and a name no fleet model has: at its name.
        {"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n"
         "  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n"
         "    - name: default-flavor\n      resources: [{name: nvidia.com/gpu, nominalQuota: 1}]\n",
         "line 8",
         "flavor \"default-flavor\" maps to no GPU model of the scenario's fleet: no "
         "ResourceFlavor \"default-flavor\" is in the files"},
        {"apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: q}\n"
         "spec: {clusterQueue: x}\n",
         "line 3", "LocalQueue \"q\" has no metadata.namespace"},
        // Two queues in one namespace: at the second LocalQueue.
        {queue("a", "") + "---\n" + queue("b", "") +
             "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
             "metadata: {name: q1, namespace: n}\nspec: {clusterQueue: a}\n"
             "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
             "metadata: {name: q2, namespace: n}\nspec: {clusterQueue: b}\n",
         "line 28", "namespace \"n\" has LocalQueues of ClusterQueues \"a\" and \"b\""},
        // A queue without LocalQueue takes its own name: not a gpuplan name (a space).
        {queue("has space", ""), "line 3", "team \"has space\" may only use letters"},
        {"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: f}\n"
         "spec: {nodeLabels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB-MIG-1g.5gb}}\n---\n" +
             queue("q", "").replace(queue("q", "").find("h100-sxm"), 8, "f"),
         "line 4", "counts MIG instances or shared replicas, not GPUs: not supported"},
        {std::string("kind: Cohort\nx: a") + '\0' + "b\n", "line 2", "a NUL byte"},
    };
    for (const Case& c : cases) {
        INFO(c.yaml);
        const InputError e = textError(c.yaml);
        CHECK(e.file() == "m.yaml");
        CHECK(e.place() == c.line);
        CHECK_THAT(e.message(), Catch::Contains(c.message));
    }
}

TEST_CASE("hostile Kueue YAML is bounded", "[kueue]") {
    SECTION("nesting deeper than 64 levels") {
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        const InputError e = textError(deep);
        CHECK(e.place() == "line 1");
        CHECK_THAT(e.message(), Catch::Contains("nested deeper than 64 levels"));
    }
    SECTION("a List of more than 20,000 objects") {
        std::string yaml = "apiVersion: v1\nkind: List\nitems:\n";
        for (int i = 0; i < 20001; ++i)
            yaml += "- {apiVersion: v1, kind: ConfigMap, metadata: {name: c" + std::to_string(i) +
                    "}}\n";
        const InputError e = textError(yaml);
        CHECK(e.place() == "line 3");
        CHECK_THAT(e.message(), Catch::Contains("more than 20,000 items"));
    }
    SECTION("more than a million values") {
        std::string yaml = "a: [";
        for (int i = 0; i < 1'000'001; ++i)
            yaml += "0,";
        yaml += "]\n";
        const InputError e = textError(yaml);
        CHECK_THAT(e.message(), Catch::Contains("more than 1,000,000 YAML values"));
    }
}

TEST_CASE("Kueue import options that name nothing are refused", "[kueue]") {
    const std::string yaml = queue("q", "");
    KueueImportOptions unknownFlavor;
    unknownFlavor.flavorModels = {{"h200", "h100-sxm"}};
    const InputError a = textError(yaml, unknownFlavor);
    CHECK(a.file() == "--flavor");
    CHECK(a.message() == "no ResourceFlavor or quota in the files names flavor \"h200\"");
    KueueImportOptions notInFleet;
    notInFleet.flavorModels = {{"h100-sxm", "b200"}};
    CHECK_THAT(textError(yaml, notInFleet).message(),
               Catch::StartsWith("\"h100-sxm=b200\": no node of the scenario's fleet has GPU model "
                                 "\"b200\""));
    KueueImportOptions unknownQueue;
    unknownQueue.queueTeams = {{"nope", "t"}};
    const InputError c = textError(yaml, unknownQueue);
    CHECK(c.file() == "--team");
    CHECK(c.message() == "no ClusterQueue \"nope\" in the files");
    // --flavor wins over the flavor's name: h100-sxm's quota counted as A100s.
    KueueImportOptions remap;
    remap.flavorModels = {{"h100-sxm", "a100-40gb-sxm"}};
    CHECK(quotaOf(importText(yaml, remap).scenario, "q").flavors.at(0).gpuModel == "a100-40gb-sxm");
}

TEST_CASE("Kubernetes quantities", "[kueue]") {
    using detail::parseKubeQuantity;
    // Suffixes by definition: m = 10^-3, k = 10^3, Ki = 2^10, e3 = 10^3.
    CHECK(parseKubeQuantity("8") == 8.0);
    CHECK(parseKubeQuantity("500m") == 0.5);
    CHECK(parseKubeQuantity("4500m") == 4.5);
    CHECK(parseKubeQuantity("1.5") == 1.5);
    CHECK(parseKubeQuantity(".5") == 0.5);
    CHECK(parseKubeQuantity("+2") == 2.0);
    CHECK(parseKubeQuantity("-2") == -2.0);
    CHECK(parseKubeQuantity("1k") == 1000.0);
    CHECK(parseKubeQuantity("1Ki") == 1024.0);
    CHECK(parseKubeQuantity("2Gi") == 2.0 * 1024 * 1024 * 1024);
    CHECK(parseKubeQuantity("1e3") == 1000.0);
    CHECK(parseKubeQuantity("25E-1") == 2.5);
    CHECK(parseKubeQuantity("1E") == 1e18);  // exa, not an exponent
    for (const char* bad : {"", "8 GPUs", " 8", "0x10", "1e", "1.2.3", "inf", "nan", "Ki", "1KI",
                            "- 1", "1e400", ".", "1,5"}) {
        INFO(bad);
        CHECK(!parseKubeQuantity(bad));
    }
}

TEST_CASE("Kueue objects gpuplan reads differently are imported with a note", "[kueue]") {
    // A CPU-only queue: its team gets an empty quota (no GPUs), as Kueue admits no GPU job
    // there. A LocalQueue of a queue in no file is left out. Both noted at their lines.
    const std::string yaml =
        "apiVersion: kueue.x-k8s.io/v1beta1\n"               // 1
        "kind: ClusterQueue\n"                               // 2
        "metadata: {name: cpu-queue}\n"                      // 3
        "spec:\n"                                            // 4
        "  resourceGroups:\n"                                // 5
        "  - coveredResources: [cpu]\n"                      // 6
        "    flavors:\n"                                     // 7
        "    - name: default\n"                              // 8
        "      resources: [{name: cpu, nominalQuota: 8}]\n"  // 9
        "---\n"                                              // 10
        "apiVersion: kueue.x-k8s.io/v1beta1\n"               // 11
        "kind: LocalQueue\n"                                 // 12
        "metadata: {name: lq, namespace: research}\n"        // 13
        "spec: {clusterQueue: elsewhere}\n";                 // 14
    const KueueImport r = importText(yaml);
    CHECK(quotaOf(r.scenario, "cpu-queue").flavors.empty());
    CHECK(r.createdTeams == std::vector<std::string>{"cpu-queue"});
    CHECK(r.unmanagedTeams == std::vector<std::string>{"research", "keep"});
    CHECK(r.notes == std::vector<std::string>{
                         "skipped quotas of resources other than nvidia.com/gpu (gpuplan's quotas "
                         "count GPUs) [cpu] (1 place: m.yaml: line 9)",
                         "LocalQueues left out: their ClusterQueue is in none of the files "
                         "[research/lq → elsewhere] (1 place: m.yaml: line 13)",
                         "ClusterQueues with no nvidia.com/gpu quota: their teams get no GPUs, as "
                         "Kueue admits no GPU job there [cpu-queue] (1 place: m.yaml: line 3)"});
}

TEST_CASE("randomly damaged Kueue manifests are imported or refused cleanly", "[kueue]") {
    // Byte-level damage to cohort.yaml (flips, deletions, duplications, digits): every variant
    // either imports to a scenario that validates or is refused with an InputError naming the
    // file; no other exception escapes and nothing crashes (ASan and UBSan builds run it too).
    const std::string original = readTextFile(fixture("cohort.yaml"));
    const Scenario start = base();
    std::uint64_t state = 2024;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return state >> 33;
    };
    int refused = 0, imported = 0;
    for (int round = 0; round < 400; ++round) {
        std::string text = original;
        const int edits = 1 + static_cast<int>(next() % 4);
        for (int e = 0; e < edits && !text.empty(); ++e) {
            const std::size_t at = next() % text.size();
            switch (next() % 4) {
                case 0:
                    text[at] = static_cast<char>(next() % 128);
                    break;
                case 1:
                    text.erase(at, 1 + next() % 8);
                    break;
                case 2:
                    text.insert(at, text.substr(at, 1 + next() % 16));
                    break;
                case 3:
                    text.insert(at, std::to_string(next() % 100000));
                    break;
            }
        }
        try {
            const KueueImport r = importKueue(start, {{"damaged.yaml", text}});
            validateScenario(r.scenario, catalog());  // whatever imports must validate
            ++imported;
        } catch (const InputError& e) {
            ++refused;
            CHECK_THAT(std::string(e.what()), Catch::StartsWith("damaged.yaml: "));
        }
    }
    // Not a vacuous run: most damage breaks the YAML or a rule, but some variants import
    // (a changed quota, a comment hit).
    CHECK(refused > 200);
    CHECK(imported > 20);
}
