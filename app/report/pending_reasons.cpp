#include "pending_reasons.hpp"

#include <QRegularExpression>
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace gpuplan::report {

namespace {

/// The reason with its numbers taken out ("0/1 nodes are available" and "1/1 nodes are
/// available" say the same thing about different moments): reasons are grouped by it.
QString withoutNumbers(const QString& reason) {
    static const QRegularExpression digits(QStringLiteral("[0-9][0-9.,]*"));
    QString key = reason;
    return key.replace(digits, QStringLiteral("#"));
}

}  // namespace

std::vector<PendingReason> topPendingReasons(const Results& results, int perLayer) {
    // Per reason index: samples listed and jobs, by layer and Kueue token.
    struct Tally {
        std::size_t samples = 0;
        std::unordered_set<std::uint32_t> jobs;
    };
    std::map<std::tuple<int, int, std::uint32_t>, Tally> byReason;
    const MeasurementWindow window = results.measurementWindow();
    const std::size_t samples = results.sampleTimesS.size();
    for (std::size_t s = window.firstSample(results.sampleTimesS); s < samples; ++s)
        for (const PendingEntry& e : results.pendingAtSample(s)) {
            Tally& t = byReason[{static_cast<int>(e.layer), static_cast<int>(e.token), e.reason}];
            ++t.samples;
            t.jobs.insert(e.job);
        }
    // Reasons that differ only in their numbers form one group, shown by its most listed one.
    struct Group {
        Layer layer;
        QString token;
        QString shown;
        std::size_t shownSamples = 0, samples = 0;
        std::unordered_set<std::uint32_t> jobs;
        int variants = 0;
    };
    std::map<std::tuple<int, int, QString>, Group> groups;
    for (const auto& [key, tally] : byReason) {
        const auto [layer, token, reason] = key;
        const QString text = QString::fromStdString(results.reasonText(reason));
        Group& g = groups[{layer, token, withoutNumbers(text)}];
        g.layer = static_cast<Layer>(layer);
        const auto tokenValue = static_cast<ReasonToken>(token);
        g.token =
            tokenValue == ReasonToken::None ? QString() : QString::fromLatin1(toString(tokenValue));
        if (tally.samples > g.shownSamples) {
            g.shown = text;
            g.shownSamples = tally.samples;
        }
        g.samples += tally.samples;
        g.jobs.insert(tally.jobs.begin(), tally.jobs.end());
        ++g.variants;
    }
    std::vector<PendingReason> all;
    for (const auto& [key, g] : groups)
        all.push_back({g.layer, g.shown, g.token,
                       static_cast<double>(g.samples) * results.sampleIntervalS / 3600,
                       static_cast<int>(g.jobs.size()), g.variants - 1});
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
