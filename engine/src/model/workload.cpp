#include "gpuplan/model/workload.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "core/large_arrays.hpp"
#include "core/sorted_runs.hpp"
#include "gpuplan/model/gpu_type_names.hpp"
#include "gpuplan/model/mig_geometry.hpp"
#include "gpuplan/model/roofline.hpp"
#include "random.hpp"

namespace gpuplan {

namespace detail {

double sample(const DistributionDef& d, Rng& rng) {
    double v = 0;
    switch (d.kind) {
        case DistKind::Fixed:
            v = d.value;
            break;
        case DistKind::Exponential:
            v = rng.exponential(d.mean);
            break;
        case DistKind::Lognormal:
            v = d.median * std::exp(d.sigma * rng.normal());
            break;
        case DistKind::Uniform:
            v = d.low + (d.high - d.low) * rng.uniform();
            break;
        case DistKind::Empirical: {
            const double total = std::accumulate(d.weights.begin(), d.weights.end(), 0.0);
            double u = rng.uniform() * total;
            std::size_t i = 0;
            for (; i + 1 < d.values.size(); ++i) {
                if (u < d.weights[i]) break;
                u -= d.weights[i];
            }
            v = d.values.empty() ? 0 : d.values[i];
            break;
        }
    }
    if (d.min) v = std::max(v, *d.min);
    if (d.max) v = std::min(v, *d.max);
    return v;
}

std::pair<double, double> rangeOf(const DistributionDef& d) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::pair<double, double> r{0, inf};  // exponential and lognormal: (0, ∞)
    if (d.kind == DistKind::Fixed) r = {d.value, d.value};
    if (d.kind == DistKind::Uniform) r = {d.low, d.high};
    if (d.kind == DistKind::Empirical && !d.values.empty())
        r = {*std::min_element(d.values.begin(), d.values.end()),
             *std::max_element(d.values.begin(), d.values.end())};
    // The same clamp as sample().
    if (d.min) r = {std::max(r.first, *d.min), std::max(r.second, *d.min)};
    if (d.max) r = {std::min(r.first, *d.max), std::min(r.second, *d.max)};
    return r;
}

double meanOf(const DistributionDef& d) {
    switch (d.kind) {
        case DistKind::Fixed:
            return d.value;
        case DistKind::Exponential:
            return d.mean;
        case DistKind::Lognormal:
            return d.median * std::exp(d.sigma * d.sigma / 2);
        case DistKind::Uniform:
            return (d.low + d.high) / 2;
        case DistKind::Empirical: {
            const double total = std::accumulate(d.weights.begin(), d.weights.end(), 0.0);
            double m = 0;
            for (std::size_t i = 0; i < d.values.size(); ++i)
                m += d.values[i] * d.weights[i];
            return total > 0 ? m / total : 0;
        }
    }
    return 0;
}

}  // namespace detail

using detail::Rng;

std::uint64_t stableHash(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

int automaticGpusPerPod(int gpus, int maxPerNode) {
    for (int d = std::min(gpus, maxPerNode); d > 1; --d)
        if (gpus % d == 0) return d;
    return 1;
}

namespace {
std::string formatted(const char* fmt, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, value);
    return buf;
}
}  // namespace

std::string migProfileName(const JobSpec& job, const Fleet& fleet) {
    std::optional<std::string_view> name;
    auto nameIn = [&](MigFamily f) -> std::optional<std::string_view> {
        const std::uint8_t id = job.migProfileId[static_cast<int>(f)];
        if (id == JobSpec::kNoMig) return std::nullopt;
        if (auto p = migProfileById(f, id)) return p->name;
        return std::nullopt;
    };
    for (const GpuModel& gpu : fleet.gpuModels)
        if (auto f = migFamilyFor(gpu); f && !name) name = nameIn(*f);
    for (MigFamily f : kMigFamilies)
        if (!name) name = nameIn(f);
    return name ? std::string(*name) : std::string("?");
}

std::string describePodRequest(const JobSpec& job, const Fleet& fleet) {
    std::string text;
    switch (job.holdKind()) {
        case HoldKind::Mig:
            text = "a MIG " + migProfileName(job, fleet) + " instance";
            break;
        case HoldKind::Share:
            text = "a " + std::to_string(job.gpuMilli) + " milli-GPU share";
            break;
        case HoldKind::Whole:
            text = std::to_string(job.gpusPerPod) + " GPU" + (job.gpusPerPod > 1 ? "s" : "");
            break;
    }
    if (job.cpuMilliPerPod > 0) text += formatted(", %.3g CPUs", job.cpuMilliPerPod / 1000.0);
    if (job.memoryMiBPerPod > 0)
        text += formatted(", %.3g GiB memory", job.memoryMiBPerPod / 1024.0);
    return text;
}

namespace {

struct Resolver {
    const Fleet& fleet;
    const Workload& workload;

    int team(const std::string& name) const {
        for (std::size_t i = 0; i < workload.teams.size(); ++i)
            if (workload.teams[i] == name) return static_cast<int>(i);
        throw std::invalid_argument("unknown team " + name);
    }

    void traits(const JobTraitsDef& t, JobSpec& job) const {
        job.priority = t.priority;
        job.memoryGbPerGpu = static_cast<float>(t.memoryGbPerGpu);
        job.smActivity = static_cast<float>(t.smActivity);
        // Against the BF16 peak: FP8 does the same model FLOPs in less time (roofline.hpp).
        job.mfu = static_cast<float>(t.mfu * precisionSpeedup(t));
        job.topologySensitivity = static_cast<float>(t.topologySensitivity);
        job.startupS = static_cast<float>(t.startupS);
        resources(t, job);
        job.gpuModel = -1;
        if (t.gpuModel) {
            auto m = fleet.findGpuModel(*t.gpuModel);
            if (!m) throw std::invalid_argument("no node of GPU model " + *t.gpuModel);
            job.gpuModel = *m;
        }
        job.pinLevel = t.pin.level;
        job.pinIndex = -1;
        std::optional<int> target;
        switch (t.pin.level) {
            case PinLevel::None:
                break;
            case PinLevel::Node:
                target = fleet.findNode(t.pin.target);
                break;
            case PinLevel::Rack:
                target = fleet.findRack(t.pin.target);
                break;
            case PinLevel::Pod:
                target = fleet.findPod(t.pin.target);
                break;
        }
        if (t.pin.level != PinLevel::None) {
            if (!target) throw std::invalid_argument("unknown pin target " + t.pin.target);
            job.pinIndex = *target;
        }
    }

    /// GPU share, MIG profile per family, CPU and memory per pod.
    static void resources(const JobTraitsDef& t, JobSpec& job) {
        job.gpuMilli = static_cast<std::uint16_t>(std::clamp(t.gpuMilli, 1, 1000));
        job.cpuMilliPerPod = static_cast<std::uint32_t>(std::max(0, t.cpuMilliPerPod));
        job.memoryMiBPerPod = static_cast<std::uint32_t>(std::max(0, t.memoryMiBPerPod));
        job.migProfileId.fill(JobSpec::kNoMig);
        if (t.migProfile.empty() && t.migMemoryGb <= 0) return;
        int fewestSlices = MigLayout::kComputeSlices;
        for (MigFamily f : kMigFamilies) {
            const std::optional<MigProfile> p = t.migProfile.empty()
                                                    ? smallestProfileWithMemory(f, t.migMemoryGb)
                                                    : migProfileByName(f, t.migProfile);
            if (!p) continue;
            job.migProfileId[static_cast<int>(f)] = p->id;
            fewestSlices = std::min<int>(fewestSlices, p->computeSlices);
        }
        if (!job.asksMig()) throw std::invalid_argument("no GPU has MIG profile " + t.migProfile);
        // Demand before placement: the smallest instance any family would give it.
        job.gpuMilli = static_cast<std::uint16_t>(milliGpuOfMigSlices(fewestSlices));
    }

    /// Sets gpus and gpusPerPod; an explicit pod size rounds the GPU count up to a multiple.
    /// A pod with a share or a MIG instance has one GPU: the job's GPUs are its pods.
    void size(int gpus, int gpusPerPodDef, JobSpec& job) const {
        if (!job.holdsWholeGpus()) {
            job.gpus = std::max(1, gpus);
            job.gpusPerPod = 1;
            return;
        }
        int maxPerNode = fleet.maxGpusPerNode;
        if (job.gpuModel >= 0) maxPerNode = fleet.extents[job.gpuModel].maxGpusPerNode;
        if (job.pinLevel == PinLevel::Node) maxPerNode = fleet.nodes[job.pinIndex].gpus;
        gpus = std::max(1, gpus);
        if (gpusPerPodDef > 0) {
            job.gpusPerPod = gpusPerPodDef;
            job.gpus = (gpus + gpusPerPodDef - 1) / gpusPerPodDef * gpusPerPodDef;
        } else {
            job.gpus = gpus;
            job.gpusPerPod = automaticGpusPerPod(gpus, std::max(1, maxPerNode));
        }
    }
};

/// The fleet GPU model a trace row may run on. A row allowing several (an openb gpu_spec
/// such as "V100M16|V100M32", a sacct job asking two GPU types) is kept to the one of them
/// with the most GPUs in the fleet: a job holds one model (JobSpec::gpuModel), and narrowing
/// never places a pod where the trace forbids it, while widening to any model would
/// (TraceRowCounts::severalModels counts them).
struct TraceModels {
    const Fleet& fleet;
    /// Per bit of TraceJob::allowedGpuModels, its model id: an openb row names models, a sacct
    /// job Slurm GPU types (sacctTypeModels).
    std::vector<std::string> ids;

    TraceModels(const Fleet& f, const TraceDef& trace)
        : fleet(f),
          ids(trace.format == TraceFormat::Sacct ? sacctTypeModels(trace, f.gpuModels)
                                                 : trace.data->gpuModels) {}

    std::int16_t of(std::uint64_t allowed) const {
        if (allowed == 0) return -1;
        int best = -1;
        for (std::size_t bit = 0; bit < ids.size(); ++bit) {
            if (((allowed >> bit) & 1u) == 0) continue;
            const std::optional<int> m = fleet.findGpuModel(ids[bit]);
            if (m && (best < 0 || fleet.extents[*m].totalGpus > fleet.extents[best].totalGpus))
                best = *m;
        }
        if (best < 0) throw std::invalid_argument("no node of the GPU models a trace row allows");
        return static_cast<std::int16_t>(best);
    }
};

/// Arrival times of a class before the horizon. `demand` multiplies the Poisson and diurnal
/// rates; a list gives fixed times, which no multiplier changes.
std::vector<double> arrivals(const ArrivalDef& a, double demand, double horizonS,
                             std::size_t maxJobs, Rng& rng) {
    std::vector<double> times;
    const double ratePerHour = a.ratePerHour * demand;
    switch (a.process) {
        case ArrivalProcess::Tide:
            break;  // generateWorkload places a tide's replicas by their windows
        case ArrivalProcess::List:
            for (double t : a.timesS)
                if (t < horizonS && times.size() < maxJobs) times.push_back(t);
            std::sort(times.begin(), times.end());
            break;
        case ArrivalProcess::Poisson: {
            if (ratePerHour <= 0) break;
            const double meanGapS = 3600.0 / ratePerHour;
            for (double t = rng.exponential(meanGapS); t < horizonS && times.size() < maxJobs;
                 t += rng.exponential(meanGapS))
                times.push_back(t);
            break;
        }
        case ArrivalProcess::Diurnal: {
            // Thinning (Lewis & Shedler): candidates at the peak rate, each kept with
            // probability rate(t) / peak rate.
            if (ratePerHour <= 0) break;
            const double peakPerS = ratePerHour * (1 + a.amplitude) / 3600.0;
            const double meanGapS = 1.0 / peakPerS;
            for (double t = rng.exponential(meanGapS); t < horizonS && times.size() < maxJobs;
                 t += rng.exponential(meanGapS)) {
                const double hours = std::fmod(t / 3600.0, 24.0);
                const double rateS = ratePerHour / 3600.0 *
                                     (1 + a.amplitude * std::cos(2 * std::numbers::pi *
                                                                 (hours - a.peakHourOfDay) / 24));
                if (rng.uniform() * peakPerS < rateS) times.push_back(t);
            }
            break;
        }
    }
    return times;
}

}  // namespace

std::vector<std::pair<double, double>> tideWindows(const ArrivalDef& a, double horizonS) {
    std::vector<std::pair<double, double>> windows;
    const int spread = a.maxReplicas - a.minReplicas;
    for (int k = 0; k < a.maxReplicas; ++k) {
        if (k < a.minReplicas) {
            windows.emplace_back(0.0, horizonS);
            continue;
        }
        // Above k + ½ replicas: (1 + cos θ)/2 > x, |θ| < acos(2x − 1), θ = 2π(h − peak)/24.
        const double x = (k - a.minReplicas + 0.5) / spread;
        const double halfS = 3600 * 24 / (2 * std::numbers::pi) * std::acos(2 * x - 1);
        for (double dayS = -86400; dayS < horizonS + 86400; dayS += 86400) {
            const double centreS = dayS + a.peakHourOfDay * 3600;
            const double startS = std::max(0.0, centreS - halfS);
            const double endS = std::min(horizonS, centreS + halfS);
            if (endS > startS && startS < horizonS) windows.emplace_back(startS, endS);
        }
    }
    return windows;
}

double expectedClassJobs(const JobClassDef& c, double demandMultiplier, double horizonS) {
    double n = 0;
    switch (c.arrival.process) {
        case ArrivalProcess::List:
            n = static_cast<double>(c.arrival.timesS.size());
            break;
        case ArrivalProcess::Tide:
            // One job per always-on replica; one a day (and a partial one) per other.
            n = c.arrival.minReplicas +
                (c.arrival.maxReplicas - c.arrival.minReplicas) * (std::ceil(horizonS / 86400) + 1);
            break;
        case ArrivalProcess::Poisson:
        case ArrivalProcess::Diurnal:
            n = c.arrival.ratePerHour * demandMultiplier * horizonS / 3600;
            break;
    }
    return c.maxJobs ? std::min(n, static_cast<double>(*c.maxJobs)) : n;
}

JobSpec resolveJobShape(const Fleet& fleet, const JobTraitsDef& traits, int gpus) {
    const Workload noTeams;
    const Resolver resolve{fleet, noTeams};
    JobSpec job;
    resolve.traits(traits, job);
    resolve.size(gpus, traits.gpusPerPod, job);
    return job;
}

const JobTraitsDef& sourceTraits(const Scenario& scenario, const JobSpec& job) {
    switch (job.source) {
        case JobSource::Class:
            return scenario.jobClasses.at(job.sourceIndex).traits;
        case JobSource::Explicit:
            return scenario.jobs.at(job.sourceIndex).traits;
        case JobSource::Trace:
            return scenario.traces.at(job.sourceIndex).traits;
    }
    throw std::logic_error("a job of no known source");
}

Workload generateWorkload(const Scenario& scenario, const Fleet& fleet) {
    Workload w;
    for (const TeamDef& t : scenario.teams)
        w.teams.push_back(t.name);
    std::size_t expected = scenario.jobs.size();
    for (const TraceDef& t : scenario.traces)
        if (t.data) expected += t.data->jobs.size();
    for (const JobClassDef& c : scenario.jobClasses)
        expected += static_cast<std::size_t>(
            1.01 * expectedClassJobs(c, scenario.demandMultiplier, scenario.horizonS));
    detail::reserveLarge(w.jobs, expected);
    const Resolver resolve{fleet, w};

    for (std::size_t ci = 0; ci < scenario.jobClasses.size(); ++ci) {
        const JobClassDef& cls = scenario.jobClasses[ci];
        w.classNames.push_back(cls.name);
        const std::uint64_t base = scenario.seed ^ stableHash(cls.name);
        Rng arrivalRng(base);
        Rng sizeRng(base ^ 0x5157A11C0FFEEull);
        JobSpec proto;
        proto.source = JobSource::Class;
        proto.sourceIndex = static_cast<std::uint32_t>(ci);
        proto.team = resolve.team(cls.traits.team);
        resolve.traits(cls.traits, proto);
        const std::size_t maxJobs = cls.maxJobs ? static_cast<std::size_t>(*cls.maxJobs)
                                                : std::numeric_limits<std::size_t>::max();
        std::uint32_t seq = 0;
        if (cls.arrival.process == ArrivalProcess::Tide) {
            // Replicas in their windows: fixed times, each as long as its window.
            for (const auto& [startS, endS] : tideWindows(cls.arrival, scenario.horizonS)) {
                if (seq >= maxJobs) break;
                JobSpec job = proto;
                job.submitS = startS;
                job.sequence = seq++;
                const double gpus = std::clamp(detail::sample(cls.gpus, sizeRng), 1.0, 100000.0);
                resolve.size(static_cast<int>(std::lround(gpus)), cls.traits.gpusPerPod, job);
                // A replica serves its window (the reader refuses FP8 for a tide class).
                job.durationS = std::max(1.0, endS - startS);
                w.jobs.push_back(job);
            }
            continue;
        }
        for (double t : arrivals(cls.arrival, scenario.demandMultiplier, scenario.horizonS, maxJobs,
                                 arrivalRng)) {
            JobSpec job = proto;
            job.submitS = t;
            job.sequence = seq++;
            // Samples stay inside the bounds the validator puts on the parameters: a wide
            // lognormal must not produce a job of a billion GPUs or overflow an int.
            const double gpus = std::clamp(detail::sample(cls.gpus, sizeRng), 1.0, 100000.0);
            resolve.size(static_cast<int>(std::lround(gpus)), cls.traits.gpusPerPod, job);
            job.durationS = std::clamp(detail::sample(cls.durationS, sizeRng), 1.0, 1e10) /
                            precisionSpeedup(cls.traits);
            w.jobs.push_back(job);
        }
    }

    for (std::size_t ji = 0; ji < scenario.jobs.size(); ++ji) {
        const JobDef& def = scenario.jobs[ji];
        w.explicitNames.push_back(def.name);
        if (def.submitS >= scenario.horizonS) continue;
        JobSpec job;
        job.source = JobSource::Explicit;
        job.sourceIndex = static_cast<std::uint32_t>(ji);
        job.team = resolve.team(def.traits.team);
        resolve.traits(def.traits, job);
        resolve.size(def.gpus, def.traits.gpusPerPod, job);
        job.submitS = def.submitS;
        job.durationS = def.durationS / precisionSpeedup(def.traits);
        w.jobs.push_back(job);
    }

    // Team index by name, hashed: a trace may bring 100,000 cluster ids, and comparing each
    // with every team seen so far took 30 s.
    std::unordered_map<std::string, int> teamByName;
    if (!scenario.traces.empty()) {
        teamByName.reserve(w.teams.size());
        for (std::size_t i = 0; i < w.teams.size(); ++i)
            teamByName.emplace(w.teams[i], static_cast<int>(i));
    }
    for (std::size_t ti = 0; ti < scenario.traces.size(); ++ti) {
        const TraceDef& trace = scenario.traces[ti];
        if (!trace.data) throw std::invalid_argument("trace " + trace.file + " was not loaded");
        w.traceNames.push_back(toString(trace.format));
        std::vector<int> teamIndex;
        teamIndex.reserve(trace.data->teams.size());
        for (const std::string& t : trace.data->teams) {
            const auto [it, added] =
                teamByName.emplace(trace.teamPrefix + t, static_cast<int>(w.teams.size()));
            if (added) w.teams.push_back(it->first);
            teamIndex.push_back(it->second);
        }
        JobSpec proto;
        proto.source = JobSource::Trace;
        proto.sourceIndex = static_cast<std::uint32_t>(ti);
        resolve.traits(trace.traits, proto);
        const TraceModels models(fleet, trace);
        std::uint32_t seq = 0;
        for (const TraceJob& row : trace.data->jobs) {
            if (trace.maxJobs > 0 && seq >= static_cast<std::uint32_t>(trace.maxJobs)) break;
            // More demand from a trace means the same jobs arriving closer together.
            const double submitS =
                trace.offsetS + row.submitS * trace.timeScale / scenario.demandMultiplier;
            if (submitS >= scenario.horizonS) break;  // rows are sorted by submit time
            JobSpec job = proto;
            job.sequence = seq++;
            job.team = teamIndex[row.team];
            job.submitS = submitS;
            job.durationS =
                std::max(1.0, row.durationS * trace.durationScale) / precisionSpeedup(trace.traits);
            if (trace.data->rowsArePods) {
                // One pod with the row's own resources (TraceJob).
                job.gpuMilli = static_cast<std::uint16_t>(row.gpuMilli);
                job.cpuMilliPerPod = static_cast<std::uint32_t>(row.cpuMilliPerPod);
                job.memoryMiBPerPod = static_cast<std::uint32_t>(row.memoryMiBPerPod);
                job.gpuModel = models.of(row.allowedGpuModels);
                resolve.size(row.gpus, row.gpus, job);
            } else {
                if (row.allowedGpuModels != 0)  // a sacct job's GPU type
                    job.gpuModel = models.of(row.allowedGpuModels);
                resolve.size(row.gpus, trace.traits.gpusPerPod, job);
            }
            w.jobs.push_back(job);
        }
    }

    // By submit time, keeping source order (classes, explicit, traces) and sequence among
    // equal times: sort (time, position) keys, then move each spec once (a stable sort of
    // the 72-byte specs moved each one log n times). A single trace is in order already.
    if (std::is_sorted(w.jobs.begin(), w.jobs.end(),
                       [](const JobSpec& a, const JobSpec& b) { return a.submitS < b.submitS; }))
        return w;
    std::vector<std::pair<double, std::uint32_t>> order(w.jobs.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order[i] = {w.jobs[i].submitS, i};
    detail::sortByRuns(order, std::less<>());  // each class and trace is one run already
    std::vector<JobSpec> sorted;
    detail::reserveLarge(sorted, w.jobs.size());
    for (const auto& [submitS, i] : order)
        sorted.push_back(w.jobs[i]);
    w.jobs = std::move(sorted);
    return w;
}

}  // namespace gpuplan
