// What pods sharing one GPU (MPS or time-slicing) do to each other (engine/README.md,
// "Resource model", "Interference, memory and faults on a shared GPU"):
// - Demand and interference: what a pod at full speed needs of its GPU depends on how the GPU
//   is shared. MPS runs the clients' kernels at once, so it divides SMs × time: a pod keeps
//   d = smActivity × its asked share of the SMs busy, served at most the per-client compute
//   cap. Time-slicing gives the whole GPU to one context at a time, so it divides time: a pod
//   needs the share of time its kernels run (engineActive), however few SMs they fill. A GPU
//   whose running pods' served demands sum to D > 1 serves them like a processor-sharing
//   server: each runs at 1/D of its speed. No other overhead constant: we found no published,
//   authoritative "time-slicing costs x %" figure.
// - Memory: no isolation under time-slicing (the pods' memory must fit the HBM together);
//   under MPS each client also has a pinned-memory limit.
// Whole-GPU and MIG pods never appear here: MIG isolates SMs and memory (PCIe and power,
// which instances still share, are not modelled), a whole GPU has one pod.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/model/job_source_traits.hpp"
#include "gpuplan/model/topology.hpp"
#include "gpuplan/model/workload.hpp"

namespace gpuplan::detail {

/// A share pod's SM demand at full speed (fraction of the GPU's SMs): smActivity is the
/// activity within what the pod asked, so a 0.3-GPU pod 80 % active keeps 24 % busy. The
/// asked share, not the held one: a time-slice replica gives the whole GPU's SMs in turn.
inline double smDemand(const JobSpec& job) {
    return job.smActivity * (job.gpuMilli / 1000.0);
}

/// What a share pod demands of a GPU shared by `mode` at full speed, in what that mode divides:
/// under time-slicing the share of time its kernels run, engineActive (its source's trait, 0 =
/// unset), never below its SM demand (kernels keep SMs busy only while they run: unset means
/// they fill its SMs, a trace row asking more SMs than its traits floors it too); under MPS its
/// SM demand.
inline double podDemand(const JobSpec& job, float engineActive, SharingMode mode) {
    const double sm = smDemand(job);
    return mode == SharingMode::TimeSlicing && engineActive > sm ? engineActive : sm;
}

/// What a pod can be served on a GPU shared by `sharing`: its demand, capped under MPS by
/// the client's active-thread percentage (a limit, not a reservation: clients share SMs).
double servedDemand(double demand, const GpuSharingDef& sharing);

/// How much slower than full speed a pod runs: its cap's share (demand ÷ served, 1 when it
/// asks nothing) times the GPU's processor sharing, max(1, D) for D the sum of the served
/// demands of the pods running on it.
/// Demands are products of float traits (smActivity): sums within 1e-6 of the GPU count as
/// filling it exactly, not as a slowdown of 1.0000001.
inline double podSlowdown(double demand, double served, double servedSumOnGpu) {
    const double capped = served > 0 ? demand / served : 1;
    return capped * (servedSumOnGpu > 1 + 1e-6 ? servedSumOnGpu : 1);
}

/// A pod's memory limit on its GPU, GB: the HBM under time-slicing (no isolation); under MPS
/// the client limit, mpsMemoryLimitGb or else HBM × its share (what a per-client
/// set_device_pinned_mem_limit gives a client of that share; the device plugin's HBM ÷
/// replicas is the case share = 1 / replicas).
double clientMemoryLimitGb(const GpuSharingDef& sharing, double hbmGb, int heldMilli);

/// How a share progresses: its speed changes whenever a pod joins or leaves one of its
/// GPUs; the work done so far is kept at each change.
struct ShareProgress {
    double workDoneS = 0;  ///< work (seconds at full speed) done by sinceS
    double sinceS = 0;     ///< since when it runs at `slowdown`
    double slowdown = 1;   ///< now: topology × interference
    double topology = 1;   ///< of its binding, fixed
};

/// Why a share pod was OOM-killed when it bound (it crash-loops; the diagnosis says this).
struct MemoryFault {
    enum Kind : std::uint8_t {
        None,
        ClientLimit,  ///< past its MPS client's memory limit
        GpuMemory,    ///< the pods on the GPU together need more than its HBM
    };
    Kind kind = None;
    std::uint32_t node = 0;
    int slot = 0;
    int pods = 1;       ///< on the GPU, with it (GpuMemory)
    double needGb = 0;  ///< its need (ClientLimit) or the pods' together (GpuMemory)
    double haveGb = 0;  ///< the limit or the HBM
};

/// Per GPU, the share pods bound on it that do not crash-loop, with what they demand and
/// hold; and what a share's speed and memory come to from them. Allocated at the first share.
class SharedGpus {
public:
    struct Occupant {
        std::uint32_t job;
        float memoryGb;
        double served;  ///< what it is served at full speed (servedDemand of its podDemand)
        bool running;   ///< demands SMs only while running (not starting up)
    };

    /// Of a run's fleet (`firstGpuOfNode` numbers its GPUs: prefix sums of their counts), its
    /// jobs' sources giving their engineActive. Both outlive it.
    SharedGpus(const Fleet& fleet, const JobSourceTraits& sources, std::vector<int> firstGpuOfNode)
        : m_fleet(&fleet), m_sources(&sources), m_firstGpu(std::move(firstGpuOfNode)) {}

    /// A share's pods join their GPUs (not running yet) / leave them.
    void add(std::uint32_t job, const JobSpec& spec, std::span<const PodPlacement> pods);
    void remove(std::uint32_t job, std::span<const PodPlacement> pods);
    /// A share's pods start demanding SMs (running), or stop (its grace period: memory kept).
    void setRunning(std::uint32_t job, std::span<const PodPlacement> pods, bool running);

    /// The slowest of a share's pods' podSlowdown on its GPUs (gang pace). `joining`: as if it
    /// ran there beside the pods now on them (its plan), else it is one of them.
    double interference(const JobSpec& spec, std::span<const PodPlacement> pods,
                        bool joining) const;
    /// Why a joining share would be OOM-killed (kind None: it fits).
    MemoryFault memoryFault(const JobSpec& spec, std::span<const PodPlacement> pods) const;
    /// Jobs with a pod running on any of these pods' GPUs, sorted, once each.
    std::vector<std::uint32_t> runningOn(std::span<const PodPlacement> pods) const;
    /// Every job with a pod on this pod's GPU, sorted, once each.
    std::vector<std::uint32_t> clientsOn(const PodPlacement& pod) const;

private:
    std::size_t gpuOf(const PodPlacement& pod) const;
    std::span<const Occupant> on(std::size_t gpu) const {
        return m_byGpu.empty() ? std::span<const Occupant>() : m_byGpu[gpu];
    }
    /// D: the served demands of the pods running on the GPU (summed afresh: at most 48 or
    /// 64 pods, and no drift across joins and leaves).
    double servedSum(std::size_t gpu) const;

    /// podDemand of the job on the pod's GPU.
    double demandOn(const JobSpec& spec, const PodPlacement& pod) const;

    const Fleet* m_fleet;
    const JobSourceTraits* m_sources;
    std::vector<int> m_firstGpu;  ///< per node, prefix sums of GPUs; back() = all GPUs
    std::vector<std::vector<Occupant>> m_byGpu;
};

/// "rack0-node3 GPU 2": how reasons name one GPU.
std::string gpuName(const Fleet& fleet, std::uint32_t node, int slot);

}  // namespace gpuplan::detail
