// Erlang's loss formula and the cost of reserved capacity with on-demand overflow
// (gpuplan/economics/reserved_overflow.hpp).
#include "gpuplan/economics/reserved_overflow.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpuplan {

double erlangB(int servers, double offeredErlangs) {
    double b = 1;
    for (int k = 1; k <= servers; ++k)
        b = offeredErlangs * b / (k + offeredErlangs * b);
    return b;
}

namespace {

/// Walks the levels n = 0, 1, 2, … keeping each hour's B(n, a_h/z) (one recursion step per
/// level and hour, not a recursion from 0 each time).
class LevelWalk {
public:
    explicit LevelWalk(const OverflowModel& model)
        : m_model(model), m_blocked(model.offeredGpus.size(), 1.0) {}

    OverflowLevel level() const {
        OverflowLevel l;
        l.servers = m_servers;
        l.reservedGpus = m_servers * m_model.serverGpus;
        const std::size_t hours = m_model.offeredGpus.size();
        for (std::size_t h = 0; h < hours; ++h)
            l.onDemandGpus += load(h) * m_model.serverGpus * m_blocked[h];
        if (hours > 0) l.onDemandGpus /= static_cast<double>(hours);
        l.usdPerHour = m_model.usdPerGpuHourReserved * l.reservedGpus +
                       m_model.usdPerGpuHourOnDemand * l.onDemandGpus;
        return l;
    }

    void next() {
        ++m_servers;
        for (std::size_t h = 0; h < m_blocked.size(); ++h) {
            const double a = load(h);
            m_blocked[h] = a * m_blocked[h] / (m_servers + a * m_blocked[h]);
        }
    }

private:
    /// Erlangs offered to servers of z GPUs; a forecast below zero offers nothing.
    double load(std::size_t h) const {
        return std::max(0.0, m_model.offeredGpus[h]) / m_model.serverGpus;
    }

    const OverflowModel& m_model;
    std::vector<double> m_blocked;  ///< per hour, B(m_servers, a_h/z)
    int m_servers = 0;
};

}  // namespace

OverflowLevel overflowLevel(const OverflowModel& model, int servers) {
    LevelWalk walk(model);
    for (int n = 0; n < servers; ++n)
        walk.next();
    return walk.level();
}

OverflowLevel cheapestOverflowLevel(const OverflowModel& model) {
    LevelWalk walk(model);
    OverflowLevel best = walk.level();
    // Convex: stop at the first level that does not undercut the one before. Servers past the
    // peak load carry almost nothing and cost c_r·z each, so the walk ends soon after it.
    while (true) {
        walk.next();
        const OverflowLevel next = walk.level();
        if (!(next.usdPerHour < best.usdPerHour)) return best;
        best = next;
    }
}

}  // namespace gpuplan
