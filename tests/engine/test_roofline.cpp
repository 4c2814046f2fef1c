// A job's arithmetic (gpuplan/model/roofline.hpp): FP8 speeds up its matmuls (Amdahl), and the
// roofline caps the MFU of bandwidth-bound kernels. Expected numbers are worked in comments.
#include <catch2/catch.hpp>

#include "gpuplan/model/roofline.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "gpuplan/sim/simulate.hpp"
#include "test_support.hpp"

using namespace gpuplan;

namespace {

const Catalog& realCatalog() {
    return test::presetCatalog();
}

/// One node of 8 test GPUs given an H100 SXM's arithmetic: 989.4 dense BF16 TFLOP/s, FP8,
/// 3.35 TB/s of HBM (ridge point 989.4 ÷ 3.35 = 295 FLOP/B). One 8-GPU job of 10 h of BF16
/// work, MFU 0.4, SM activity 0.8, holds the whole fleet from t = 0.
Scenario oneNode() {
    Scenario s = test::smallFleet(1, 1, "n8");
    s.gpuModels[0].bf16DenseTflops = 989.4;
    s.gpuModels[0].fp8DenseTflops = 1978.9;
    s.gpuModels[0].hbmTbps = 3.35;
    JobDef j = test::job("train", 8, 36000);
    j.traits.mfu = 0.4;
    j.traits.smActivity = 0.8;
    s.jobs = {j};
    return s;
}

double seriesAt(const Results& r, const std::string& name, double timeS) {
    return r.findSeries(name)->values[*r.sampleAt(timeS)];
}

double kpi(const Results& r, const std::string& name) {
    return r.findKpi(name)->value;
}

}  // namespace

TEST_CASE("FP8 speeds up only the matmuls (Amdahl)", "[roofline]") {
    // speedup = 1 / ((1 − m) + m / 2).
    CHECK(precisionSpeedup(Precision::Bf16, 0.7) == 1);
    CHECK(precisionSpeedup(Precision::Fp8, 1.0) == Approx(2.0));       // all matmuls: 1 / 0.5
    CHECK(precisionSpeedup(Precision::Fp8, 0.7) == Approx(1 / 0.65));  // 0.3 + 0.35
    CHECK(precisionSpeedup(Precision::Fp8, 0.0) == Approx(1.0));       // nothing to speed up
    CHECK(precisionSpeedup(Precision::Fp8, 0.5) == Approx(1 / 0.75));  // 0.5 + 0.25
}

TEST_CASE("The roofline caps MFU below the ridge point", "[roofline]") {
    GpuModel h100;
    h100.bf16DenseTflops = 989.4;
    h100.hbmTbps = 3.35;
    // 16 FLOP/B × 3.35 TB/s = 53.6 TFLOP/s of 989.4: 5.42 %.
    CHECK(mfuCeiling(16, h100) == Approx(53.6 / 989.4));
    // Past the ridge (989.4 ÷ 3.35 = 295.3 FLOP/B) compute binds: the ceiling is the peak.
    CHECK(mfuCeiling(295, h100) == Approx(295 * 3.35 / 989.4));
    CHECK(mfuCeiling(296, h100) == 1.0);
    CHECK(mfuCeiling(0, h100) == 1.0);  // unset: compute-bound
    GpuModel h200 = h100;
    h200.hbmTbps = 4.8;  // the same compute, 4.8 TB/s: 16 × 4.8 = 76.8 TFLOP/s
    CHECK(mfuCeiling(16, h200) == Approx(76.8 / 989.4));
    GpuModel unknown;  // a catalog entry without bandwidth draws no roofline
    CHECK(mfuCeiling(16, unknown) == 1.0);
}

TEST_CASE("Every catalog GPU with FP8 does twice its BF16 dense FLOPs", "[roofline]") {
    // kFp8OverBf16 is an architectural fact the catalog's numbers must keep (within their
    // rounding: 733 ÷ 362.05 = 2.025 on an L40S).
    int withFp8 = 0;
    for (const GpuModel& gpu : realCatalog().gpuModels) {
        if (!hasFp8(gpu)) continue;
        INFO(gpu.id);
        ++withFp8;
        CHECK(*gpu.fp8DenseTflops / gpu.bf16DenseTflops == Approx(kFp8OverBf16).epsilon(0.03));
    }
    CHECK(withFp8 >= 5);
}

TEST_CASE("An FP8 job does its BF16 work sooner, at a higher MFU against the BF16 peak",
          "[roofline]") {
    Scenario s = oneNode();
    SECTION("BF16: 10 h, MFU 0.4 while it runs") {
        const Results r = test::run(s);
        CHECK(r.jobs[test::jobIndex(r, "train")].endS == Approx(36000));
        CHECK(seriesAt(r, "mfu", 3600) == Approx(0.4));
    }
    SECTION("FP8 with 70 % of the step in matmuls: 1 / 0.65 = 1.538 times as fast") {
        s.jobs[0].traits.precision = Precision::Fp8;
        s.jobs[0].traits.matmulShare = 0.7;
        const Results r = test::run(s);
        // 10 h × 0.65 = 6.5 h = 23,400 s.
        CHECK(r.jobs[test::jobIndex(r, "train")].endS == Approx(23400));
        // The same model FLOPs in 0.65 of the time: MFU 0.4 ÷ 0.65 = 0.615 of the BF16 peak
        // (0.308 of the FP8 peak).
        CHECK(seriesAt(r, "mfu", 3600) == Approx(0.4 / 0.65));
        // Its GPUs are as busy and every second of them is useful: goodput stays 1, not 1.54.
        CHECK(seriesAt(r, "occupancy", 3600) == Approx(0.8));
        CHECK(kpi(r, "goodput") == Approx(1.0));
        CHECK(r.jobs[test::jobIndex(r, "train")].slowdown == Approx(1.0));
    }
    SECTION("FP8, MFU 0.6, all matmuls: 1.2 of the BF16 peak, past what BF16 can reach") {
        s.jobs[0].traits.precision = Precision::Fp8;
        s.jobs[0].traits.mfu = 0.6;
        const Results r = test::run(s);
        CHECK(r.jobs[test::jobIndex(r, "train")].endS == Approx(18000));  // 10 h ÷ 2
        CHECK(seriesAt(r, "mfu", 3600) == Approx(1.2));
    }
}

TEST_CASE("A bandwidth-bound job keeps its SMs busy at a low MFU", "[roofline]") {
    Scenario s = oneNode();
    s.jobs[0].traits.flopsPerByte = 16;
    const Results r = test::run(s);
    // The stated duration holds (it was measured on the fleet); MFU is 0.4 × 16 × 3.35 ÷
    // 989.4 = 0.4 × 0.0542 = 0.0217; SM activity 0.8 as before: busy, waiting on HBM.
    CHECK(r.jobs[test::jobIndex(r, "train")].endS == Approx(36000));
    CHECK(seriesAt(r, "mfu", 3600) == Approx(0.4 * 16 * 3.35 / 989.4));
    CHECK(seriesAt(r, "occupancy", 3600) == Approx(0.8));
    CHECK(r.mfuOn(r.jobs[0].spec, r.fleet.gpuModels[0]) == Approx(0.4 * 16 * 3.35 / 989.4));
    SECTION("batching 8 times as many requests per pass: 128 FLOP/B, MFU × 8") {
        s.jobs[0].traits.flopsPerByte = 128;
        const Results r8 = test::run(s);
        CHECK(seriesAt(r8, "mfu", 3600) == Approx(0.4 * 128 * 3.35 / 989.4));  // 0.173
    }
}

TEST_CASE("Precision and arithmetic intensity are read strictly and written back", "[roofline]") {
    std::string text = readTextFile(test::testDataDir() / "valid-minimal.json");
    const std::string team = "\"team\": \"t\"";
    const auto withTraits = [&](const std::string& traits) {
        std::string t = text;
        t.replace(t.find(team), team.size(), team + ", " + traits);
        return t;
    };
    const Scenario s = parseScenario(
        withTraits("\"precision\": \"fp8\", \"matmulShare\": 0.7, \"flopsPerByte\": 64"),
        "fp8.json", realCatalog());
    CHECK(s.jobClasses[0].traits.precision == Precision::Fp8);
    CHECK(s.jobClasses[0].traits.matmulShare == 0.7);
    CHECK(s.jobClasses[0].traits.flopsPerByte == 64);
    CHECK(parseScenario(scenarioToJson(s), "again.json", realCatalog()) == s);

    CHECK_THAT(test::errorOf([&] {
                   parseScenario(withTraits("\"precision\": \"fp16\""), "p.json", realCatalog());
               }),
               Catch::Contains("/jobClasses/0/precision"));
    CHECK_THAT(test::errorOf([&] {
                   parseScenario(withTraits("\"matmulShare\": 1.5"), "p.json", realCatalog());
               }),
               Catch::Contains("/jobClasses/0/matmulShare"));
    // 0 does no work, and a float would round 1e-300 to 0: at least 0.01 FLOP/B.
    for (const char* tiny : {"0", "1e-300", "0.009"}) {
        INFO(tiny);
        CHECK_THAT(
            test::errorOf([&] {
                parseScenario(withTraits(std::string("\"flopsPerByte\": ") + tiny), "p.json",
                              realCatalog());
            }),
            Catch::Contains("/jobClasses/0/flopsPerByte") && Catch::Contains("does no work"));
    }
}

TEST_CASE("FP8 is refused where it would not shorten any work", "[roofline]") {
    // A tide replica serves its window: FP8 does not end it sooner.
    std::string tide = readTextFile(test::presetsDir() / "scenarios" / "daily-tide.json");
    const std::string team = "\"team\": \"product\"";
    tide.replace(tide.find(team), team.size(), team + ", \"precision\": \"fp8\"");
    const InputError e =
        test::inputErrorOf([&] { parseScenario(tide, "tide.json", realCatalog()); });
    CHECK(e.place() == "/jobClasses/0/precision");
    CHECK_THAT(std::string(e.what()), Catch::Contains("serve their windows"));
}

TEST_CASE("FP8 is refused where a GPU the job may run on has no FP8", "[roofline]") {
    // valid-minimal's fleet is DGX H100s; a second group of DGX A100s has no FP8.
    std::string text = readTextFile(test::testDataDir() / "valid-minimal.json");
    const std::string type = "\"nodeType\": \"dgx-h100\"";
    text.replace(text.find(type), type.size(),
                 type + "}, {\"name\": \"old\", \"count\": 1, \"nodeType\": \"dgx-a100\"");
    const std::string team = "\"team\": \"t\"";
    std::string fp8 = text;
    fp8.replace(fp8.find(team), team.size(), team + ", \"precision\": \"fp8\"");
    const InputError e =
        test::inputErrorOf([&] { parseScenario(fp8, "mixed.json", realCatalog()); });
    CHECK(e.place() == "/jobClasses/0/precision");
    CHECK_THAT(std::string(e.what()), Catch::Contains("a100"));
    // Restricted to the H100s it may use FP8.
    std::string restricted = text;
    restricted.replace(restricted.find(team), team.size(),
                       team + ", \"precision\": \"fp8\", \"gpuModel\": \"h100-sxm\"");
    CHECK(test::errorOf([&] { parseScenario(restricted, "mixed.json", realCatalog()); }) ==
          "accepted");
}
