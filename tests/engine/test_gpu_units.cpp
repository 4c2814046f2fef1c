// GPU-equivalents (gpuplan/core/gpu_units.hpp): the one counting rule for wholes, shares and MIG
// instances, checked against hand arithmetic in units of 1/7000 GPU.
#include <catch2/catch.hpp>

#include "gpuplan/core/gpu_units.hpp"
#include "gpuplan/model/workload.hpp"
#include "gpuplan/results/results.hpp"

using namespace gpuplan;

TEST_CASE("GPU units: wholes, shares and MIG instances count exactly") {
    // 7000 = lcm(7, 1000): a compute slice is 1000 units, a milli-GPU 7.
    CHECK(unitsOfWholeGpus(2) == 14000);
    CHECK(unitsOfMilliGpu(250) == 1750);  // a quarter GPU
    CHECK(unitsOfMigSlices(3) == 3000);   // a 3g instance, 3/7 GPU
    // Seven 1g instances are one GPU exactly; seven 143-milli shares (1g shown as milli) are
    // 1001 milli = 7007 units: why instances are counted by slices, not by their milli.
    CHECK(7 * unitsOfMigSlices(1) == unitsOfWholeGpus(1));
    CHECK(7 * unitsOfMilliGpu(milliGpuOfMigSlices(1)) == 7007);
    // One division of an exact sum: 2/7 GPU is the double nearest 2/7.
    CHECK(gpusOfUnits(unitsOfMigSlices(2)) == 2.0 / 7.0);
    CHECK(gpusOfUnits(unitsOfMilliGpu(300) * 3) == 0.9);  // 3 × 0.3, not 0.8999999999999999
}

TEST_CASE("GPU units: a MIG instance's milli-GPU is its slices ÷ 7 to the nearest, and back") {
    // s × 1000 / 7: 142.86, 285.71, 428.57, 571.43, 714.29, 857.14, 1000.
    const int expected[] = {143, 286, 429, 571, 714, 857, 1000};
    for (int s = 1; s <= 7; ++s) {
        CHECK(milliGpuOfMigSlices(s) == expected[s - 1]);
        CHECK(migSlicesOfMilliGpu(milliGpuOfMigSlices(s)) == s);
    }
}

TEST_CASE("GPU units: what a job asks equals what its pods hold") {
    // Two pods of one 2g instance each: 2 × 2000 = 4000 units asked; each placement holds 2000.
    JobSpec mig;
    mig.gpus = 2;
    mig.gpusPerPod = 1;
    mig.gpuMilli = static_cast<std::uint16_t>(milliGpuOfMigSlices(2));
    mig.migProfileId = {0, JobSpec::kNoMig, JobSpec::kNoMig, JobSpec::kNoMig};
    CHECK(mig.gpuUnits() == 4000);
    PodPlacement instance{};
    instance.migInstance = 0;
    instance.migComputeSlices = 2;
    instance.gpuMask = 1;
    CHECK(2 * instance.gpuUnits() == mig.gpuUnits());
    // A 4-GPU pod of whole GPUs: 28000 units, the placement's mask has 4 slots.
    JobSpec whole;
    whole.gpus = 4;
    whole.gpusPerPod = 4;
    PodPlacement four{};
    four.gpuMask = 0b1111;
    CHECK(whole.gpuUnits() == 28000);
    CHECK(four.gpuUnits() == whole.gpuUnits());
    CHECK(four.gpuEquivalents() == 4.0);
    // A 250-milli share: 1750 units, a quarter GPU.
    JobSpec share;
    share.gpuMilli = 250;
    PodPlacement slot{};
    slot.milliGpu = 250;
    slot.gpuMask = 0b100;
    CHECK(share.gpuUnits() == 1750);
    CHECK(slot.gpuUnits() == 1750);
    CHECK(slot.gpuEquivalents() == 0.25);
}
