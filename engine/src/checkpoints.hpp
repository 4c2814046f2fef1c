// Checkpoints: how much of its work an evicted job keeps, and the book of what each job has
// kept. Work is counted in ideal seconds: a job's durationS is its work at ideal placement,
// and a binding with slowdown s does 1/s of a second of it per second once started.
// Taking a checkpoint costs no time here (its overhead is issue 10's, with failures and spot).
#pragma once

#include <cstdint>
#include <vector>

#include "gpuplan/workload.hpp"

namespace gpuplan::detail {

/// The work a job keeps when it is evicted after `doneS` of work in total (all its bindings
/// so far): what its last checkpoint saved, floor(doneS / intervalS) · intervalS, at most its
/// durationS and doneS. Nothing without checkpoints (intervalS 0).
double checkpointedWorkS(double doneS, double intervalS, double durationS);

/// Work each job has kept at checkpoints, ideal seconds: where its next binding resumes.
class SavedWork {
public:
    double of(std::uint32_t job) const { return m_savedS.empty() ? 0.0 : m_savedS[job]; }
    /// The work the job's next binding must do: all of it, less what it kept.
    double leftS(std::uint32_t job, const JobSpec& s) const { return s.durationS - of(job); }
    void set(std::uint32_t job, double savedS, std::size_t jobCount) {
        if (savedS == of(job)) return;
        // Sized on the first saving: runs without checkpoints hold no memory for it.
        if (m_savedS.empty()) m_savedS.resize(jobCount, 0.0);
        m_savedS[job] = savedS;
    }

private:
    std::vector<double> m_savedS;  ///< per job; empty until a job keeps some work
};

}  // namespace gpuplan::detail
