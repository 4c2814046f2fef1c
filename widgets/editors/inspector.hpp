// The inspector: what is selected — a node, a GPU, a job or a team — at time t.
#pragma once

#include <QTextBrowser>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "gpuplan/results/results.hpp"

namespace gpuplan::ui {

class Inspector : public QTextBrowser {
    Q_OBJECT
public:
    explicit Inspector(QWidget* parent = nullptr);
    /// `snapshot`: the cluster at the inspector's time, when the caller has it already.
    void setResults(std::shared_ptr<const Results> results,
                    std::shared_ptr<const ClusterSnapshot> snapshot = {});
    void setTime(double timeS);
    /// As setTime(snapshot->timeS), with the cluster the caller computed (shared).
    void setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot);

    void showNothing();
    void showNode(int node);
    void showGpu(int node, int slot);
    void showRack(int rack);
    void showPod(int pod);
    /// Jobs are kept by name, so the selection survives a re-run that renumbers jobs.
    void showJob(const QString& jobName);
    void showTeam(int team);

private:
    enum class Kind { Nothing, Node, Gpu, Rack, Pod, Job, Team };
    void refresh();
    QString nodeHtml(int node, int slot) const;
    QString jobHtml(std::uint32_t job) const;
    /// Checkpoint interval, and the restarts and lost work of the job's evictions.
    /// SM activity and MFU on its GPU, its precision's pace and its roofline ceiling.
    QString arithmeticRows(std::uint32_t job) const;
    QString interruptionRows(std::uint32_t job) const;
    QString teamHtml(int team) const;
    QString unitHtml(const QString& title, int firstNode, int nodeCount) const;
    const PendingJob* pendingEntry(std::uint32_t job) const;

    std::shared_ptr<const Results> m_results;
    std::shared_ptr<const ClusterSnapshot> m_snapshot = std::make_shared<ClusterSnapshot>();
    double m_timeS = 0;
    Kind m_kind = Kind::Nothing;
    int m_a = -1, m_b = -1;
    QString m_jobName;
    /// The shown job's restarts, lost work and preemption health, for m_results; for an
    /// elastic job, its bindings (to read the one in force at t) and how many were resized.
    struct JobHistory {
        JobInterruptions interruptions;
        JobHealth health;
        std::vector<std::uint32_t> segments;  ///< elastic jobs only, in start order
        int resizes = 0;                      ///< bindings that ended SegmentEnd::Resized
    };
    /// The shown job's history, scanned once per job and run.
    const JobHistory& historyOf(std::uint32_t job) const;
    /// An elastic job's binding in force at t, or nullptr (none, or not elastic).
    const RunSegment* boundAt(std::uint32_t job) const;
    /// "4–8 GPUs (elastic); holds 8 at t".
    QString elasticSize(std::uint32_t job) const;
    mutable std::optional<std::pair<std::uint32_t, JobHistory>> m_interruptionsOf;
};

}  // namespace gpuplan::ui
