#include "gpuplan/model/job_source_traits.hpp"

#include "gpuplan/model/roofline.hpp"

namespace gpuplan {

void JobSourceTraits::add(JobSource source, const JobTraitsDef& t) {
    const auto k = static_cast<std::size_t>(source);
    checkpoints[k].push_back({t.checkpointIntervalS, t.checkpointCostS});
    elasticMaxGpus[k].push_back(t.elasticMaxGpus);
    engineActive[k].push_back(static_cast<float>(t.engineActive.value_or(0)));
    arithmetic[k].push_back({.flopsPerByte = static_cast<float>(t.flopsPerByte.value_or(0)),
                             .matmulShare = static_cast<float>(t.matmulShare),
                             .precision = t.precision});
    anyFlopsPerByte = anyFlopsPerByte || t.flopsPerByte.has_value();
}

double JobSourceTraits::mfuOn(const JobSpec& spec, const GpuModel& gpu) const {
    const double mfu = spec.mfu;
    return anyFlopsPerByte ? mfu * mfuCeiling(arithmeticOf(spec).flopsPerByte, gpu) : mfu;
}

}  // namespace gpuplan
