// Checkpoints: how much of its work an evicted job keeps, and the book of what each job has
// kept. Work is counted in ideal seconds: a job's durationS is its work at ideal placement,
// and a binding with slowdown s does 1/s of a second of progress per second once started.
// Progress is the work and the checkpoints written on the way (CheckpointPolicy::costS each,
// checkpoint_policy.hpp): without a checkpoint cost the two are the same.
#pragma once

#include <cstdint>
#include <vector>

#include "gpuplan/model/checkpoint_policy.hpp"
#include "gpuplan/results/run_record.hpp"

namespace gpuplan::detail {

/// The work a job keeps when it is evicted after `doneS` of work in total (all its bindings
/// so far): what its last checkpoint saved, floor(doneS / intervalS) · intervalS, at most its
/// durationS and doneS. Nothing without checkpoints (intervalS 0).
double checkpointedWorkS(double doneS, double intervalS, double durationS);

/// What a binding that made `progressS` of progress from the checkpoint `savedBeforeS` leaves
/// when it is taken off its GPUs.
struct CheckpointOutcome {
    double savedS = 0;     ///< the work the last checkpoint written saved
    double lostS = 0;      ///< progress since that checkpoint, done again by the next binding
    double overheadS = 0;  ///< progress spent writing this binding's checkpoints
    double workS = 0;      ///< work done in all, saved or not (a checkpoint now would keep it)
};
CheckpointOutcome checkpointOutcome(const CheckpointPolicy& policy, double savedBeforeS,
                                    double progressS, double durationS);

/// Work each job has kept at checkpoints, ideal seconds: where its next binding resumes.
class SavedWork {
public:
    explicit SavedWork(const RunRecord& record) : m_record(record) {
        for (const auto& source : record.sourceTraits.checkpoints)
            for (const CheckpointPolicy& p : source)
                m_anyCost = m_anyCost || p.costS > 0;
    }

    bool anyCost() const { return m_anyCost; }
    double of(std::uint32_t job) const { return m_savedS.empty() ? 0.0 : m_savedS[job]; }
    /// The progress the job's next binding must make: all its work and checkpoints, less
    /// what it kept and the checkpoints that kept it.
    double leftS(std::uint32_t job, const JobSpec& s) const {
        if (!m_anyCost) return s.durationS - of(job);
        const CheckpointPolicy p = m_record.checkpointOf(job);
        return p.wallWorkS(s.durationS) - p.wallToSavedS(of(job));
    }
    void set(std::uint32_t job, double savedS, std::size_t jobCount) {
        if (savedS == of(job)) return;
        // Sized on the first saving: runs without checkpoints hold no memory for it.
        if (m_savedS.empty()) m_savedS.resize(jobCount, 0.0);
        m_savedS[job] = savedS;
    }

private:
    const RunRecord& m_record;
    bool m_anyCost = false;        ///< some job pays for its checkpoints
    std::vector<double> m_savedS;  ///< per job; empty until a job keeps some work
};

}  // namespace gpuplan::detail
