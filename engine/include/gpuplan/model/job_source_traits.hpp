// What a run reads of each job source's traits (JobTraitsDef) while it runs and what the views
// read after: checkpoint policy, elastic maximum, engine activity and arithmetic. Indexed by
// JobSource, then by source index (a job's JobSpec::source and sourceIndex), so a job's traits
// are found from its spec without keeping a JobTraitsDef per job.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "gpuplan/model/catalog.hpp"
#include "gpuplan/model/checkpoint_policy.hpp"
#include "gpuplan/model/scenario.hpp"
#include "gpuplan/model/workload.hpp"

namespace gpuplan {

struct JobSourceTraits {
    /// A job source's arithmetic (roofline.hpp), for the MFU on its GPU and the inspector.
    struct Arithmetic {
        float flopsPerByte = 0;  ///< 0 = compute-bound
        float matmulShare = 1;
        Precision precision = Precision::Bf16;
    };
    template <class T>
    using BySource = std::array<std::vector<T>, 3>;

    BySource<CheckpointPolicy> checkpoints;
    BySource<int> elasticMaxGpus;  ///< JobTraitsDef::elasticMaxGpus
    /// JobTraitsDef::engineActive; 0 where unset (a time demand never below the SM demand
    /// reads 0 as "as the SM demand").
    BySource<float> engineActive;
    BySource<Arithmetic> arithmetic;
    /// One source sets flopsPerByte: a run without any never looks up the roofline.
    bool anyFlopsPerByte = false;

    /// Appends the next source of `source`'s kind (classes, explicit jobs, traces in order).
    void add(JobSource source, const JobTraitsDef& traits);

    /// The job's source's (defaults for a job of no known source).
    CheckpointPolicy checkpointOf(const JobSpec& spec) const {
        return of(checkpoints, spec, CheckpointPolicy{});
    }
    int elasticMaxGpusOf(const JobSpec& spec) const { return of(elasticMaxGpus, spec, 0); }
    float engineActiveOf(const JobSpec& spec) const { return of(engineActive, spec, 0.0f); }
    Arithmetic arithmeticOf(const JobSpec& spec) const {
        return of(arithmetic, spec, Arithmetic{});
    }
    /// The job's MFU at full speed on `gpu`, against its BF16 peak: its spec's (its
    /// precision's speed-up in it) under the roofline's ceiling for its source's flopsPerByte.
    double mfuOn(const JobSpec& spec, const GpuModel& gpu) const;

private:
    template <class T>
    static T of(const BySource<T>& table, const JobSpec& spec, T fallback) {
        const auto& values = table[static_cast<std::size_t>(spec.source)];
        return spec.sourceIndex < values.size() ? values[spec.sourceIndex] : fallback;
    }
};

}  // namespace gpuplan
