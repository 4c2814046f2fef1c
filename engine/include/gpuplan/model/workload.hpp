// Workload generation: job classes, explicit jobs and traces become one list of concrete
// jobs, sorted by submit time. Each class draws from its own random streams, seeded by the
// scenario seed and the class name, so adding a class leaves the others' jobs unchanged.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuplan/core/gpu_units.hpp"
#include "gpuplan/model/pod_placement.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/model/topology.hpp"

namespace gpuplan {

enum class JobSource : std::uint8_t { Class, Explicit, Trace };

/// One concrete job, with every name resolved to an index.
struct JobSpec {
    // What placement reads on every try comes first and together (submit and size, target,
    // the kind of hold): one cache line of the record, not two.
    double submitS = 0;
    double durationS = 0;  ///< run time at ideal placement, after startup
    std::int32_t gpus = 1;
    std::int32_t pinIndex = -1;  ///< node, rack or pod index by pinLevel
    // Both small by the input rules (GPUs per pod ≤ 64, a catalog ≤ 1,000 GPU models): two
    // bytes each keep the record at 80 bytes.
    std::int16_t gpusPerPod = 1;
    std::int16_t gpuModel = -1;  ///< index into Fleet::gpuModels, −1 = any
    std::uint32_t cpuMilliPerPod = 0;
    std::uint32_t memoryMiBPerPod = 0;
    /// Of each GPU of a pod; < 1000 = a share of one GPU. For a MIG pod, its instance's
    /// compute slices ÷ 7 in milli-GPU (rounded), for demand shown before it is placed.
    std::uint16_t gpuMilli = 1000;
    PinLevel pinLevel = PinLevel::None;
    JobSource source = JobSource::Class;
    static constexpr std::uint8_t kNoMig = 0xFF;
    /// A MIG pod: its profile id per MIG family (MigFamily order); kNoMig where the
    /// family has no such profile. All kNoMig: not a MIG pod.
    std::array<std::uint8_t, 4> migProfileId{kNoMig, kNoMig, kNoMig, kNoMig};
    std::int32_t priority = 0;
    std::int32_t team = 0;
    std::uint32_t sourceIndex = 0;  ///< class, explicit job or trace index
    std::uint32_t sequence = 0;     ///< n-th job of its source
    float memoryGbPerGpu = 0;
    float smActivity = 0;
    float mfu = 0;
    float topologySensitivity = 0;
    float startupS = 0;

    int pods() const { return gpus / gpusPerPod; }
    /// One word compare, not a loop or a memcmp call: it is asked on every placement try.
    bool asksMig() const { return std::bit_cast<std::uint32_t>(migProfileId) != 0xFFFFFFFFu; }
    bool sharesGpu() const { return gpuMilli < 1000 && !asksMig(); }
    HoldKind holdKind() const {
        return asksMig() ? HoldKind::Mig : sharesGpu() ? HoldKind::Share : HoldKind::Whole;
    }
    /// Whole GPUs (not a share, not a MIG instance): the pods' GPUs are the job's GPUs.
    bool holdsWholeGpus() const { return holdKind() == HoldKind::Whole; }
    /// Whether the job may run on GPU model `model` (no model asked: any).
    bool allowsModel(int model) const { return gpuModel < 0 || gpuModel == model; }
    /// GPU-equivalents the job asks, exactly, in units of 1/kGpuUnitsPerGpu GPU: a whole GPU
    /// or a milli-GPU share gpuMilli × 7 units a GPU, a MIG pod its instance's compute slices ×
    /// 1000 (gpuMilli holds slices ÷ 7 rounded to the milli; × 7 ÷ 1000 rounds back to them).
    std::int64_t gpuUnits() const {
        switch (holdKind()) {
            case HoldKind::Mig:
                return std::int64_t{pods()} * unitsOfMigSlices(migSlicesOfMilliGpu(gpuMilli));
            case HoldKind::Share:
            case HoldKind::Whole:
                return std::int64_t{gpus} * unitsOfMilliGpu(gpuMilli);
        }
        return 0;
    }
    /// GPUs this job asks in GPU-equivalents (a 300 milli-GPU share = 0.3, a 2g MIG instance
    /// 2/7): what allocation, quotas, costs and pending demand count.
    double gpuEquivalents() const { return gpusOfUnits(gpuUnits()); }
};

struct Workload {
    std::vector<JobSpec> jobs;            ///< sorted by submitS, then source order
    std::vector<std::string> teams;       ///< scenario teams, then trace teams
    std::vector<std::string> classNames;  ///< per JobSource::Class source index
    std::vector<std::string> explicitNames;
    std::vector<std::string> traceNames;  ///< "philly", per trace
};

/// Generates every job submitted before the horizon. Scenario::demandMultiplier scales the
/// Poisson and diurnal rates and divides trace inter-arrival times (after timeScale, before
/// offsetS); list arrivals and explicit jobs keep their times. Throws std::invalid_argument
/// when a reference does not resolve (the scenario validator normally catches these first).
Workload generateWorkload(const Scenario& scenario, const Fleet& fleet);

/// Jobs a class submits before the horizon, about (its expected count, at most maxJobs): the
/// one estimate the reader's limits, the run budget and the workload's reservation use.
double expectedClassJobs(const JobClassDef& c, double demandMultiplier, double horizonS);

/// A tide class's replica windows before the horizon: {start, end} seconds, by replica then
/// time (ArrivalDef::Tide).
std::vector<std::pair<double, double>> tideWindows(const ArrivalDef& a, double horizonS);

/// A job's GPU model, pin and pod shape (gpus, gpusPerPod) as generateWorkload resolves them
/// for a job of `gpus` GPUs with `traits`; team, times and duration are left unset. Throws
/// std::invalid_argument when the model or pin target does not resolve.
JobSpec resolveJobShape(const Fleet& fleet, const JobTraitsDef& traits, int gpus);

/// The traits `job` was made from: its class's, its own (an explicit job) or its trace's. What
/// is read rarely (preemption policy, checkpoint interval) is read here rather than copied
/// into every JobSpec.
const JobTraitsDef& sourceTraits(const Scenario& scenario, const JobSpec& job);

/// Pod size for a job of `gpus` GPUs: the largest divisor of gpus that is ≤ maxPerNode.
int automaticGpusPerPod(int gpus, int maxPerNode);

/// The name of a MIG pod's profile as the fleet's GPUs call it (names differ by family: 15 GB
/// is 1g.20gb on an H100, 3g.20gb on an A100 40GB), else as the first family that has it.
std::string migProfileName(const JobSpec& job, const Fleet& fleet);
/// What one pod of `job` asks, in words: "8 GPUs", "a 300 milli-GPU share", "a MIG 1g.10gb
/// instance", with its CPU and memory when it asks them.
std::string describePodRequest(const JobSpec& job, const Fleet& fleet);

/// Stable 64-bit hash (FNV-1a) used to derive per-class random streams.
std::uint64_t stableHash(std::string_view text);

}  // namespace gpuplan
