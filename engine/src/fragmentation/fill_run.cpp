// runFill: the fill experiment's loop (gpuplan/fragmentation/fill.hpp). The fleet's state lives in
// one ClusterState; this file adds what only the fill needs: per node a change counter, its F_n,
// the GpuClustering affinities of its pods, and a cache of each node's score per pod shape.
//
// Speed: a node's score for a pod depends only on the node's state and the pod's shape
// (CPU, milli-GPU, GPU count, allowed models; memory is only filtered), and one arrival changes
// one node. So scores are kept per (shape, node) with the node's change counter and only a
// node that changed is scored again; F_n comes from FragmentMemo, keyed by the node's state.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

#include "fill_arrivals.hpp"
#include "fill_fragment_memo.hpp"
#include "fill_policies.hpp"
#include "gpuplan/fragmentation/fill.hpp"
#include "resources/cluster_state.hpp"
#include "resources/fragmentation.hpp"

namespace gpuplan {

namespace {

using detail::ClusterState;
using detail::FillNodeView;
using detail::FillScore;
using detail::FillShape;
using detail::FragmentMemo;

/// The pods' distinct shapes, and each pod's.
struct Shapes {
    std::vector<FillShape> shapes;
    std::vector<std::int32_t> of;  ///< per pod of the list
};

Shapes shapesOf(const std::vector<OpenbPod>& pods, const std::vector<std::string>& models) {
    Shapes s;
    std::map<std::tuple<std::int64_t, int, int, std::uint64_t>, std::int32_t> index;
    s.of.reserve(pods.size());
    for (const OpenbPod& p : pods) {
        FillShape shape;
        shape.cpuMilli = p.cpuMilli;
        shape.numGpu = p.numGpu;
        shape.gpuMilli = p.numGpu > 0 ? p.gpuMilli : 0;
        // A CPU-only pod carries no model annotation (data/pod_csv_to_yaml.py).
        shape.allowedModels = p.numGpu > 0 ? gpuModelMask(p.gpuSpec, models) : kAnyGpuModel;
        shape.affinity = p.numGpu == 0 ? -1 : shape.partial() ? 0 : p.numGpu;
        const auto key =
            std::make_tuple(shape.cpuMilli, shape.gpuMilli, shape.numGpu, shape.allowedModels);
        const auto [it, fresh] = index.emplace(key, static_cast<std::int32_t>(s.shapes.size()));
        if (fresh) s.shapes.push_back(shape);
        s.of.push_back(it->second);
    }
    return s;
}

/// A cached score of one node for one shape.
struct CachedScore {
    std::uint32_t version = std::numeric_limits<std::uint32_t>::max();  ///< never a node's
    std::int16_t score = -1;  ///< −1: the node cannot host the shape (memory aside)
    std::int16_t slot = -1;   ///< FGD's GPU for a share
};

/// Affinity classes: 0 a shared GPU, N whole GPUs (N ≤ 64).
constexpr int kAffinityClasses = 65;

/// Score cache bound: 16 Mi entries of 8 bytes, 128 MiB (the default trace needs 91 shapes ×
/// 1,213 nodes, 110 k).
constexpr std::size_t kMaxCachedScores = std::size_t{1} << 24;

class FillRun {
public:
    FillRun(const FillSpec& spec, const Fleet& fleet, const std::vector<std::string>& models)
        : m_spec(spec),
          m_fleet(fleet),
          m_state(fleet),
          m_memo(targetWorkload(spec.pods, models)),
          m_shapes(shapesOf(spec.pods, models)),
          m_nodes(static_cast<int>(fleet.nodes.size())),
          m_capacityMilli(std::int64_t{1000} * fleet.totalGpus),
          m_order(detail::fillNodeOrder(m_nodes, spec.seed)),
          m_policyRng(detail::fillStream(spec.seed, detail::FillStream::Policy)),
          m_version(m_nodes, 0),
          m_fragment(m_nodes, 0.0),
          m_affinityCount(static_cast<std::size_t>(m_nodes) * kAffinityClasses, 0),
          m_affinities(m_nodes, 0),
          m_posOf(m_nodes),
          m_cache(m_shapes.shapes.size()) {
        for (int pos = 0; pos < m_nodes; ++pos)
            m_posOf[m_order[pos]] = pos;
        for (int n = 0; n < m_nodes; ++n)
            m_fragment[n] = nodeFragment(n);
    }

    FillResult run() {
        FillResult r;
        const std::vector<std::int32_t> arrivals = detail::fillArrivalOrder(
            m_spec.pods, m_capacityMilli, m_spec.tune, m_spec.seed, m_spec.shuffle);
        r.curve.reserve(arrivals.size());
        std::int64_t arrivedMilli = 0;
        for (std::size_t a = 0; a < arrivals.size(); ++a) {
            if (a % 256 == 0) {
                if (m_spec.stop.stop_requested()) {
                    r.stopped = true;
                    break;
                }
                if (m_spec.progress && a % 4096 == 0)
                    m_spec.progress(static_cast<double>(a) / static_cast<double>(arrivals.size()));
            }
            const OpenbPod& pod = m_spec.pods[arrivals[a]];
            const std::int32_t shapeIndex = m_shapes.of[arrivals[a]];
            arrivedMilli += std::int64_t{pod.numGpu} * pod.gpuMilli;
            FillRow row;
            row.pod = arrivals[a];
            const int node = m_spec.policy == FillPolicy::Random ? drawNode(pod, shapeIndex)
                                                                 : bestNode(pod, shapeIndex);
            if (node >= 0) place(pod, shapeIndex, node, row);
            record(row, arrivedMilli);
            r.curve.push_back(row);
            (row.placed() ? r.placed : r.failed) += 1;
        }
        r.allocPctAt100 = fillReading(r.curve, 100, &FillRow::allocPct);
        r.fragRatioPctAt90 = fillReading(r.curve, 90, &FillRow::fragRatioPct);
        r.allocPctFinal = r.curve.empty() ? 0 : r.curve.back().allocPct;
        r.listedPods = static_cast<int>(m_spec.pods.size());
        r.nodes = m_nodes;
        r.totalGpus = m_fleet.totalGpus;
        r.workloadShapes = static_cast<int>(m_memo.workload().size());
        r.scoresComputed = m_scoresComputed;
        r.fragmentStates = m_memo.states();
        if (m_spec.progress) m_spec.progress(1.0);
        return r;
    }

private:
    /// The node as policies see it; `buf` holds its free milli per GPU.
    FillNodeView view(int node, const FillShape& pod, int* buf) const {
        const int gpus = m_fleet.nodes[node].gpus;
        for (int g = 0; g < gpus; ++g)
            buf[g] = 1000 - m_state.usedMilli(node, g);
        FillNodeView v;
        v.gpuModel = m_fleet.nodes[node].gpuModel;
        v.freeCpuMilli = m_state.freeCpuMilli(node);
        v.freeMilliPerGpu = std::span<const int>(buf, static_cast<std::size_t>(gpus));
        v.affinities = m_affinities[node];
        v.holdsPodAffinity =
            pod.affinity >= 0 && m_affinityCount[node * kAffinityClasses + pod.affinity] > 0;
        return v;
    }

    double nodeFragment(int node) {
        int buf[64];
        const FillNodeView v = view(node, FillShape{}, buf);
        return m_memo.fragment(v.gpuModel, v.freeCpuMilli, v.freeMilliPerGpu);
    }

    /// The score cache of a shape. Past the bound, a scratch array whose entries are all
    /// stale, so every node is scored; it stays valid until the next call (place reads FGD's
    /// GPU from it).
    CachedScore* cacheOf(std::int32_t shapeIndex) {
        std::vector<CachedScore>& c = m_cache[shapeIndex];
        if (c.empty() && m_cachedScores + m_nodes <= kMaxCachedScores) {
            c.resize(m_nodes);
            m_cachedScores += m_nodes;
        }
        if (!c.empty()) return c.data();
        if (m_lastUncached != shapeIndex) {
            m_uncached.assign(m_nodes, CachedScore{});
            m_lastUncached = shapeIndex;
        }
        return m_uncached.data();
    }

    bool memoryFits(int node, const OpenbPod& pod) const {
        return m_state.freeMemoryMiB(node) >= pod.memoryMiB;
    }

    /// The scored policies: the highest score, the first node in tie order among equals.
    int bestNode(const OpenbPod& pod, std::int32_t shapeIndex) {
        const FillShape& shape = m_shapes.shapes[shapeIndex];
        CachedScore* cache = cacheOf(shapeIndex);
        int best = -1, bestScore = -1;
        for (int pos = 0; pos < m_nodes; ++pos) {
            const int node = m_order[pos];
            if (!memoryFits(node, pod)) continue;
            CachedScore& c = cache[pos];
            if (c.version != m_version[node]) {
                ++m_scoresComputed;
                int buf[64];
                const FillNodeView v = view(node, shape, buf);
                FillScore s{-1, -1};
                if (detail::fillFits(v, shape))
                    s = detail::fillScore(m_spec.policy, v, shape, m_fragment[node], m_memo);
                c = {m_version[node], static_cast<std::int16_t>(s.score),
                     static_cast<std::int16_t>(s.slot)};
            }
            if (c.score > bestScore) {
                bestScore = c.score;
                best = pos;
            }
        }
        return best < 0 ? -1 : m_order[best];
    }

    /// Random (random_score.go PreScore): a node drawn uniformly among those that pass the
    /// filter, in tie order (the simulator's node list order).
    int drawNode(const OpenbPod& pod, std::int32_t shapeIndex) {
        const FillShape& shape = m_shapes.shapes[shapeIndex];
        m_feasible.clear();
        for (int pos = 0; pos < m_nodes; ++pos) {
            const int node = m_order[pos];
            if (!memoryFits(node, pod)) continue;
            CachedScore& c = cacheOf(shapeIndex)[pos];
            if (c.version != m_version[node]) {
                int buf[64];
                c = {m_version[node],
                     static_cast<std::int16_t>(
                         detail::fillFits(view(node, shape, buf), shape) ? 0 : -1),
                     -1};
            }
            if (c.score >= 0) m_feasible.push_back(node);
        }
        if (m_feasible.empty()) return -1;
        return m_feasible[m_policyRng.below(m_feasible.size())];
    }

    /// Binds the pod on `node` with the GPUs its policy picks there.
    void place(const OpenbPod& pod, std::int32_t shapeIndex, int node, FillRow& row) {
        const FillShape& shape = m_shapes.shapes[shapeIndex];
        int buf[64];
        const FillNodeView v = view(node, shape, buf);
        std::uint64_t mask = 0;
        if (shape.partial()) {
            int slot = -1;
            if (m_spec.policy == FillPolicy::Fgd) {
                // allocateGpuIdBasedOnFGDScore: the GPU that scored best (cached with the score).
                slot = cacheOf(shapeIndex)[m_posOf[node]].slot;
            } else if (m_spec.policy == FillPolicy::Random) {
                slot = randomSlot(v, shape);
            } else {
                slot = detail::bestFitSlot(v, shape);
            }
            mask = std::uint64_t{1} << slot;
        } else if (shape.numGpu > 0) {
            mask = detail::exclusiveGpus(v, shape.numGpu);
        }
        const PodPlacement placement{
            .node = static_cast<std::uint32_t>(node),
            .milliGpu = static_cast<std::uint16_t>(shape.partial() ? shape.gpuMilli : 1000),
            .gpuMask = mask};
        m_state.occupy(placement, detail::HostDemand{pod.cpuMilli, pod.memoryMiB});
        ++m_version[node];
        if (shape.affinity >= 0 && m_affinityCount[node * kAffinityClasses + shape.affinity]++ == 0)
            ++m_affinities[node];
        m_fragment[node] = nodeFragment(node);
        row.node = node;
        row.gpuMask = mask;
    }

    /// allocateGpuIdBasedOnRandomFit: each GPU with room equally likely.
    int randomSlot(const FillNodeView& v, const FillShape& shape) {
        int fitting = 0;
        for (int r : v.freeMilliPerGpu)
            fitting += r >= shape.gpuMilli;
        auto k = static_cast<int>(m_policyRng.below(static_cast<std::uint64_t>(fitting)));
        for (int g = 0; g < static_cast<int>(v.freeMilliPerGpu.size()); ++g)
            if (v.freeMilliPerGpu[g] >= shape.gpuMilli && k-- == 0) return g;
        return -1;
    }

    void record(FillRow& row, std::int64_t arrivedMilli) const {
        // As the simulator's log is read (merge_alloc_discrete.py): milli ÷ GPUs ÷ 10.
        const double gpus = m_fleet.totalGpus;
        row.arrivedPct = static_cast<double>(arrivedMilli) / gpus / 10;
        row.allocPct = static_cast<double>(m_state.allocatedMilliGpu()) / gpus / 10;
        ClusterFragmentation c;
        for (double f : m_fragment)
            c.fragmentMilli += f;
        c.freeMilli = m_capacityMilli - m_state.allocatedMilliGpu();
        c.totalGpus = m_fleet.totalGpus;
        row.fragRatioPct = c.ratioPercent();
        row.fragAmountPct = c.amountPercent();
    }

    const FillSpec& m_spec;
    const Fleet& m_fleet;
    ClusterState m_state;
    FragmentMemo m_memo;
    Shapes m_shapes;
    int m_nodes;
    std::int64_t m_capacityMilli;
    std::vector<std::int32_t> m_order;  ///< tie order: position → node
    detail::Rng m_policyRng;
    std::vector<std::uint32_t> m_version;        ///< per node: placements on it so far
    std::vector<double> m_fragment;              ///< per node: F_n now
    std::vector<std::uint16_t> m_affinityCount;  ///< per node × affinity class: pods
    std::vector<int> m_affinities;               ///< per node: classes with pods
    std::vector<std::int32_t> m_posOf;           ///< node → tie position
    /// Per shape, by tie position; allocated when the shape first arrives, while fewer than
    /// kMaxCachedScores are kept (a list of very many shapes is then scored uncached).
    std::vector<std::vector<CachedScore>> m_cache;
    std::vector<CachedScore> m_uncached;  ///< scratch for the shapes beyond that
    std::size_t m_cachedScores = 0;
    std::int32_t m_lastUncached = -1;
    std::vector<int> m_feasible;  ///< Random's candidates, reused
    std::uint64_t m_scoresComputed = 0;
};

}  // namespace

FillResult runFill(const FillSpec& spec) {
    const auto start = std::chrono::steady_clock::now();
    if (!std::isfinite(spec.tune) || spec.tune < 0)
        throw std::invalid_argument("tune must be a finite number ≥ 0");
    if (spec.pods.empty()) throw std::invalid_argument("the pod list is empty");
    const Fleet fleet = openbFleet(spec.nodes);
    const std::vector<std::string> models = gpuModelNames(spec.nodes);
    FillRun run(spec, fleet, models);
    FillResult r = run.run();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

double fillReading(std::span<const FillRow> curve, int arrivedPct, double FillRow::*field) {
    auto mean = [&](int lo, int hi) {
        double sum = 0;
        std::size_t n = 0;
        for (const FillRow& row : curve) {
            // Python's round(x, 0): to nearest, halves to even (std::nearbyint by default).
            const double r = std::nearbyint(row.arrivedPct);
            if (r >= lo && r <= hi) {
                sum += row.*field;
                ++n;
            }
        }
        return n > 0 ? sum / static_cast<double>(n) : std::numeric_limits<double>::quiet_NaN();
    };
    const double exact = mean(arrivedPct, arrivedPct);
    return std::isnan(exact) ? mean(arrivedPct - 1, arrivedPct + 1) : exact;
}

}  // namespace gpuplan
