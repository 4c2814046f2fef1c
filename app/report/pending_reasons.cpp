#include "pending_reasons.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>

namespace gpuplan::report {

std::vector<PendingReason> topPendingReasons(const Results& results, int perLayer) {
    struct Tally {
        std::size_t samples = 0;
        std::unordered_set<std::uint32_t> jobs;
    };
    // Key: layer, reason, token.
    std::map<std::tuple<int, std::uint32_t, int>, Tally> tallies;
    const MeasurementWindow window = results.measurementWindow();
    const std::size_t samples = results.sampleTimesS.size();
    for (std::size_t s = window.firstSample(results.sampleTimesS); s < samples; ++s)
        for (const PendingEntry& e : results.pendingAtSample(s)) {
            Tally& t = tallies[{static_cast<int>(e.layer), e.reason, static_cast<int>(e.token)}];
            ++t.samples;
            t.jobs.insert(e.job);
        }
    std::vector<PendingReason> all;
    for (const auto& [key, tally] : tallies) {
        const auto [layer, reason, token] = key;
        const auto tokenValue = static_cast<ReasonToken>(token);
        all.push_back({static_cast<Layer>(layer),
                       QString::fromStdString(results.reasonText(reason)),
                       tokenValue == ReasonToken::None ? QString()
                                                       : QString::fromLatin1(toString(tokenValue)),
                       static_cast<double>(tally.samples) * results.sampleIntervalS / 3600,
                       static_cast<int>(tally.jobs.size())});
    }
    std::stable_sort(all.begin(), all.end(), [](const PendingReason& a, const PendingReason& b) {
        return std::tie(a.layer, b.jobHours) < std::tie(b.layer, a.jobHours);
    });
    std::vector<PendingReason> top;
    int kept = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        kept = i > 0 && all[i].layer == all[i - 1].layer ? kept + 1 : 1;
        if (kept <= perLayer) top.push_back(all[i]);
    }
    return top;
}

}  // namespace gpuplan::report
