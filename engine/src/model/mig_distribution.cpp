// A node's MIG instances spread over its GPUs when only their counts are known
// (distributeMigInstances, gpuplan/model/mig_geometry.hpp).
#include <algorithm>
#include <stdexcept>

#include "gpuplan/model/mig_geometry.hpp"

namespace gpuplan {

namespace {

/// The GPUs' layouts and, per GPU, the profile names in the order placed.
struct Placing {
    std::vector<MigLayout> layouts;
    std::vector<std::string> texts;
    int lastGpu = 0;  ///< where the last instance went

    void place(int gpu, const MigProfile& profile) {
        lastGpu = gpu;
        layouts[gpu].place(profile);
        texts[gpu] += (texts[gpu].empty() ? "" : ", ") + std::string(profile.name);
    }
    /// GPUs that take `profile` now, the most free memory slices first, then by index.
    std::vector<int> candidates(const MigProfile& profile) const {
        std::vector<int> out;
        for (int g = 0; g < static_cast<int>(layouts.size()); ++g)
            if (layouts[g].autoStart(profile) >= 0) out.push_back(g);
        std::stable_sort(out.begin(), out.end(), [&](int a, int b) {
            return layouts[a].memorySlicesUsed() < layouts[b].memorySlicesUsed();
        });
        return out;
    }
};

/// Every instance (largest first) on the first candidate: the balanced spread. Returns what
/// is left out.
std::vector<MigProfileCount> spread(Placing& p, const std::vector<MigProfileCount>& largestFirst) {
    std::vector<MigProfileCount> leftOut;
    for (const MigProfileCount& c : largestFirst)
        for (int i = 0; i < c.count; ++i) {
            const std::vector<int> gpus = p.candidates(c.profile);
            if (gpus.empty()) {  // nor will any later one of this profile: nothing changed
                leftOut.push_back({c.profile, c.count - i});
                break;
            }
            p.place(gpus.front(), c.profile);
        }
    return leftOut;
}

/// What the instances from each index on need, summed: compute slices, memory slices and
/// instances.
struct Need {
    int compute = 0, memory = 0, instances = 0;
};

/// Depth-first over the GPUs for each instance in turn, the balanced choice first; GPUs with
/// equal layouts are tried once, and a branch whose GPUs have fewer free compute or memory
/// slices or instance places than the instances left need is cut. True when every instance
/// found a GPU within the steps.
bool search(Placing& p, const std::vector<MigProfile>& items, const std::vector<Need>& need,
            std::size_t next, long& steps) {
    if (next == items.size()) return true;
    Need free;
    for (const MigLayout& l : p.layouts) {
        free.compute += MigLayout::kComputeSlices - l.computeSlicesUsed();
        free.memory += MigLayout::kMemorySlices - l.memorySlicesUsed();
        free.instances += l.maxInstances() - l.size();
    }
    if (free.compute < need[next].compute || free.memory < need[next].memory ||
        free.instances < need[next].instances)
        return false;
    // Instances of one profile go to GPUs in index order: other orders give the same layouts.
    const int firstGpu = next > 0 && items[next - 1].id == items[next].id ? p.lastGpu : 0;
    std::vector<MigLayout> tried;
    for (int g : p.candidates(items[next])) {
        if (g < firstGpu || std::find(tried.begin(), tried.end(), p.layouts[g]) != tried.end())
            continue;
        if (--steps < 0) return false;
        tried.push_back(p.layouts[g]);
        const MigLayout layout = p.layouts[g];
        const std::string text = p.texts[g];
        const int lastGpu = p.lastGpu;
        p.place(g, items[next]);
        if (search(p, items, need, next + 1, steps)) return true;
        p.layouts[g] = layout;
        p.texts[g] = text;
        p.lastGpu = lastGpu;
    }
    return false;
}

}  // namespace

MigDistribution distributeMigInstances(MigFamily family, int maxInstances, int gpus,
                                       std::span<const MigProfileCount> counts,
                                       long maxSearchSteps) {
    if (gpus < 1 || gpus > 64)
        throw std::invalid_argument("a node has 1 to 64 GPUs, not " + std::to_string(gpus));
    // One entry per profile, largest first; equal ones keep the order given.
    std::vector<MigProfileCount> largestFirst;
    for (const MigProfileCount& c : counts) {
        if (c.count < 0) throw std::invalid_argument("a negative count of MIG instances");
        const std::optional<MigProfile> own = migProfileById(family, c.profile.id);
        if (!own || own->name != c.profile.name)
            throw std::invalid_argument(std::string(c.profile.name) + " is not a " +
                                        std::string(migFamilyName(family)) + " profile");
        auto same = std::find_if(largestFirst.begin(), largestFirst.end(),
                                 [&](const auto& e) { return e.profile.id == c.profile.id; });
        if (same == largestFirst.end())
            largestFirst.push_back(c);
        else
            same->count += c.count;
    }
    std::stable_sort(largestFirst.begin(), largestFirst.end(),
                     [](const MigProfileCount& a, const MigProfileCount& b) {
                         const MigProfile &p = a.profile, &q = b.profile;
                         if (p.memorySlices != q.memorySlices)
                             return p.memorySlices > q.memorySlices;
                         if (p.computeSlices != q.computeSlices)
                             return p.computeSlices > q.computeSlices;
                         return p.maxCount < q.maxCount;  // one +me a GPU: before plain 1g
                     });
    const Placing empty{
        std::vector<MigLayout>(static_cast<std::size_t>(gpus), MigLayout(family, maxInstances)),
        std::vector<std::string>(static_cast<std::size_t>(gpus))};
    Placing balanced = empty;
    MigDistribution out;
    out.leftOut = spread(balanced, largestFirst);
    if (!out.leftOut.empty()) {
        // Some need another arrangement: search for one that holds them all (no more than
        // the GPUs' 7 instances each, or it cannot exist).
        long total = 0;
        for (const MigProfileCount& c : largestFirst)
            total += c.count;
        if (total <= static_cast<long>(gpus) * maxInstances) {
            std::vector<MigProfile> items;
            for (const MigProfileCount& c : largestFirst)
                items.insert(items.end(), static_cast<std::size_t>(c.count), c.profile);
            std::vector<Need> need(items.size() + 1);
            for (std::size_t i = items.size(); i-- > 0;)
                need[i] = {need[i + 1].compute + items[i].computeSlices,
                           need[i + 1].memory + items[i].memorySlices, need[i + 1].instances + 1};
            Placing found = empty;
            long steps = maxSearchSteps;
            const bool all = search(found, items, need, 0, steps);
            out.searchSteps = maxSearchSteps - std::max(0L, steps);
            if (all) {
                out.layoutTexts = std::move(found.texts);
                out.leftOut.clear();
                return out;
            }
        }
    }
    out.layoutTexts = std::move(balanced.texts);
    return out;
}

}  // namespace gpuplan
