#include "job_queue.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <queue>

namespace gpuplan::detail {

const JobSpec& JobQueue::spec(std::uint32_t job) const {
    return (*m_jobs)[job].spec;
}

JobQueue::OrderKey JobQueue::orderKey(std::uint32_t job) const {
    const JobSpec& s = spec(job);
    return {-static_cast<std::int64_t>(s.priority),
            m_order == QueueOrder::PrioritySmallestFirst ? s.gpus : 0, job};  // job = submit order
}

ShapeKey JobQueue::shapeOf(const JobSpec& job) {
    const std::uint64_t kind =
        job.gpuMilli | std::uint64_t{std::bit_cast<std::uint32_t>(job.migProfileId)} << 16;
    return ShapeKey(job.gpuModel, job.gpusPerPod, job.pods(), job.pinLevel,
                    job.pinLevel == PinLevel::None ? -1 : job.pinIndex, kind, job.cpuMilliPerPod,
                    job.memoryMiBPerPod);
}

std::size_t JobQueue::KeyHash::operator()(const ShapeKey& k) const {
    return std::hash<std::uint64_t>()(
        k.targetCode() * 0x9E3779B97F4A7C15ull ^ (static_cast<std::uint64_t>(k.gpusPerPod) << 32) ^
        static_cast<std::uint64_t>(k.pods) ^
        (static_cast<std::uint64_t>(k.cpuMilliPerPod) << 20 ^ k.memoryMiBPerPod ^
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.team)) << 40) *
            0xC2B2AE3D27D4EB4Full);
}

void FailedShapes::add(const ShapeKey& key) {
    m_all.push_back(key);
    if (m_all.size() == kFlat + 1) {
        for (const ShapeKey& k : m_all)
            index(k);
    } else if (m_all.size() > kFlat) {
        index(key);
    }
}

void FailedShapes::index(const ShapeKey& key) {
    std::vector<ShapeKey>& list = m_byTarget[key.targetCode()];
    if (list.empty()) m_used.push_back(key.targetCode());
    list.push_back(key);
}

bool FailedShapes::covers(const ShapeKey& key) const {
    auto coversKey = [&](const ShapeKey& f) { return key.coveredBy(f); };
    if (m_all.size() <= kFlat) return std::any_of(m_all.begin(), m_all.end(), coversKey);
    const auto it = m_byTarget.find(key.targetCode());
    return it != m_byTarget.end() && std::any_of(it->second.begin(), it->second.end(), coversKey);
}

void FailedShapes::clear() {
    m_all.clear();
    for (std::uint64_t code : m_used)
        m_byTarget[code].clear();
    m_used.clear();
}

void JobQueue::insert(std::uint32_t job) {
    const JobSpec& s = spec(job);
    ShapeKey key = shapeOf(s);
    if (s.team < static_cast<int>(m_groupByTeam.size()) && m_groupByTeam[s.team]) key.team = s.team;
    if (m_lastGroup < 0 || !(m_groups[m_lastGroup].key == key)) {
        // try_emplace: no node is allocated when the shape has its group already (emplace
        // builds one first, then frees it: two allocator calls per arrival).
        auto [it, added] = m_groupByKey.try_emplace(key, static_cast<int>(m_groups.size()));
        if (added) {
            Group g;
            g.key = key;
            g.priority = s.priority;
            g.source = s.source;
            g.sourceIndex = s.sourceIndex;
            m_groups.push_back(std::move(g));
        }
        m_lastGroup = it->second;
    }
    const int group = m_lastGroup;
    {
        Group& g = m_groups[group];
        g.oneOrigin = g.oneOrigin && g.priority == s.priority && g.source == s.source &&
                      g.sourceIndex == s.sourceIndex;
    }
    // A requeued job still listed from before (not yet compacted) must not appear twice.
    if (m_staleIn[job] >= 0) compactGroup(m_staleIn[job]);
    Group& g = m_groups[group];
    // Arrivals almost always go to the end; requeued jobs find their place again.
    auto pos =
        g.jobs.empty() || !before(job, g.jobs.back())
            ? g.jobs.end()
            : std::upper_bound(g.jobs.begin(), g.jobs.end(), job,
                               [this](std::uint32_t a, std::uint32_t b) { return before(a, b); });
    if (static_cast<std::size_t>(pos - g.jobs.begin()) < g.front)
        g.front = static_cast<std::size_t>(pos - g.jobs.begin());
    const bool atEnd = pos == g.jobs.end();
    g.jobs.insert(pos, job);
    m_groupOf[job] = group;  // live from here on (the tree below reads it)
    if (atEnd) {
        // Appending position i (1-based): its entry sums (i − lowbit(i), i] — itself and the
        // entries before it back to i − lowbit(i).
        const std::size_t i = g.jobs.size();
        const std::size_t low = i & (~i + 1);
        std::uint32_t sum = 1;
        for (std::size_t k = i - 1; k > i - low; k -= k & (~k + 1))
            sum += g.liveTree[k - 1];
        g.liveTree.push_back(sum);
    } else {
        rebuildLiveTree(g);  // a requeued job finds its place again: rare
    }
    g.minRunS.insert(minRunS(job));
    ++g.live;
    g.liveGpuUnits += s.gpuUnits();
    ++m_size;
}

void JobQueue::remove(std::uint32_t job) {
    if (m_groupOf[job] < 0) return;
    Group& g = m_groups[m_groupOf[job]];
    const JobSpec& s = spec(job);
    const std::size_t pos = static_cast<std::size_t>(
        std::lower_bound(g.jobs.begin(), g.jobs.end(), job,
                         [this](std::uint32_t a, std::uint32_t b) { return before(a, b); }) -
        g.jobs.begin());
    for (std::size_t i = pos + 1; i <= g.liveTree.size(); i += i & (~i + 1))
        --g.liveTree[i - 1];
    g.minRunS.erase(minRunS(job));
    --g.live;
    ++g.dead;
    g.liveGpuUnits -= s.gpuUnits();
    --m_size;
    m_staleIn[job] = m_groupOf[job];
    if (g.dead > g.live && !g.compactionDue) {
        g.compactionDue = true;
        m_toCompact.push_back(m_groupOf[job]);
    }
    m_groupOf[job] = -1;
}

void JobQueue::compactGroup(int group) {
    Group& g = m_groups[group];
    if (g.dead == 0) return;
    std::erase_if(g.jobs, [this](std::uint32_t j) {
        if (contains(j)) return false;
        m_staleIn[j] = -1;
        return true;
    });
    g.dead = 0;
    g.front = 0;
    rebuildLiveTree(g);
}

void JobQueue::rebuildLiveTree(Group& g) const {
    // Linear: each entry adds itself to its parent's.
    const std::size_t n = g.jobs.size();
    g.liveTree.assign(n, 0);
    for (std::size_t i = 1; i <= n; ++i) {
        g.liveTree[i - 1] += contains(g.jobs[i - 1]) ? 1 : 0;
        const std::size_t parent = i + (i & (~i + 1));
        if (parent <= n) g.liveTree[parent - 1] += g.liveTree[i - 1];
    }
}

std::size_t JobQueue::liveBefore(const Group& group, std::size_t pos) const {
    std::size_t live = 0;
    for (std::size_t i = pos; i > 0; i -= i & (~i + 1))
        live += group.liveTree[i - 1];
    return live;
}

std::size_t JobQueue::positionOfLive(const Group& group, std::size_t m) const {
    // Down the tree: the largest prefix holding at most m live jobs ends just before it.
    const std::size_t n = group.liveTree.size();
    std::size_t pos = 0, left = m + 1;
    for (std::size_t step = std::bit_floor(std::max<std::size_t>(n, 1)); step > 0; step >>= 1)
        if (pos + step <= n && group.liveTree[pos + step - 1] < left) {
            pos += step;
            left -= group.liveTree[pos - 1];
        }
    return pos;  // 0-based: the (m+1)-th live job sits at pos
}

void JobQueue::compact() {
    for (int group : m_toCompact) {
        m_groups[group].compactionDue = false;
        if (m_groups[group].dead > m_groups[group].live) compactGroup(group);
    }
    m_toCompact.clear();
}

std::vector<std::uint32_t> JobQueue::ordered() const {
    std::vector<std::uint32_t> all;
    all.reserve(m_size);
    for (const Group& g : m_groups)
        for (std::uint32_t j : g.jobs)
            if (contains(j)) all.push_back(j);
    std::sort(all.begin(), all.end(),
              [this](std::uint32_t a, std::uint32_t b) { return before(a, b); });
    return all;
}

std::vector<std::uint32_t> JobQueue::firstInOrder(std::size_t n) const {
    struct Cursor {
        OrderKey key;
        std::size_t group, pos;
    };
    auto later = [](const Cursor& a, const Cursor& b) { return b.key < a.key; };
    std::priority_queue<Cursor, std::vector<Cursor>, decltype(later)> heap(later);
    auto push = [&](std::size_t g, std::size_t pos) {
        const auto& jobs = m_groups[g].jobs;
        while (pos < jobs.size() && !contains(jobs[pos]))
            ++pos;
        if (pos < jobs.size()) heap.push(Cursor{orderKey(jobs[pos]), g, pos});
    };
    for (std::size_t g = 0; g < m_groups.size(); ++g)
        if (m_groups[g].live > 0) push(g, firstLive(m_groups[g]));
    std::vector<std::uint32_t> out;
    out.reserve(std::min(n, m_size));
    while (!heap.empty() && out.size() < n) {
        const Cursor c = heap.top();
        heap.pop();
        out.push_back(c.key.job);
        push(c.group, c.pos + 1);
    }
    return out;
}

JobQueue::SmallestPod JobQueue::smallestPod() const {
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    int gpus = std::numeric_limits<int>::max();
    HostDemand host{kNone, kNone};
    for (const Group& g : m_groups) {
        if (g.live == 0) continue;
        gpus = std::min(gpus, g.key.gpusPerPod);
        host.cpuMilli = std::min<std::int64_t>(host.cpuMilli, g.key.cpuMilliPerPod);
        host.memoryMiB = std::min<std::int64_t>(host.memoryMiB, g.key.memoryMiBPerPod);
    }
    if (gpus == std::numeric_limits<int>::max()) return {};
    return {gpus, host};
}

}  // namespace gpuplan::detail
