#include "fill_arrivals.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace gpuplan::detail {

namespace {

std::int64_t demandMilli(const OpenbPod& pod) {
    return std::int64_t{pod.numGpu} * pod.gpuMilli;
}

/// Fisher–Yates from the back, as Go's rand.Shuffle walks it.
void shuffle(std::vector<std::int32_t>& v, Rng& rng) {
    for (std::size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[rng.below(i)]);
}

}  // namespace

std::vector<std::int32_t> fillArrivalOrder(std::span<const OpenbPod> pods,
                                           std::int64_t capacityMilli, double tune,
                                           std::uint64_t seed, bool shuffleList) {
    if (pods.size() > kMaxFillArrivals) throw std::invalid_argument("more than 20,000,000 pods");
    std::vector<std::int32_t> order(pods.size());
    std::iota(order.begin(), order.end(), 0);
    Rng rng = fillStream(seed, FillStream::Arrivals);
    if (shuffleList) shuffle(order, rng);

    std::int64_t demand = 0;
    for (const OpenbPod& p : pods)
        demand += demandMilli(p);
    const double target = tune * static_cast<double>(capacityMilli);
    if (tune <= 0 || static_cast<double>(demand) == target) return order;
    if (static_cast<double>(demand) > target) {
        // tuneDownPods: drop pods at random positions, keeping the others' order.
        while (static_cast<double>(demand) > target) {
            const std::size_t at = rng.below(order.size());
            demand -= demandMilli(pods[order[at]]);
            order.erase(order.begin() + static_cast<std::ptrdiff_t>(at));
        }
        return order;
    }
    if (demand == 0) return order;
    // tuneUpPods: the expected number of draws is (T − D) ÷ (D ÷ pods); refuse a list whose
    // few GPU pods would need an absurd number of them.
    const double perPod = static_cast<double>(demand) / static_cast<double>(pods.size());
    if ((target - static_cast<double>(demand)) / perPod >
        static_cast<double>(kMaxFillArrivals - pods.size()))
        throw std::invalid_argument(
            "resampling to the GPU capacity target would make more than 20,000,000 arrivals "
            "(the pod list asks too little GPU)");
    for (;;) {
        const auto drawn = static_cast<std::int32_t>(rng.below(pods.size()));
        const OpenbPod& pod = pods[drawn];
        if (static_cast<double>(demand + pod.gpuMilli) > target) break;
        demand += demandMilli(pod);
        order.push_back(drawn);
        if (order.size() > kMaxFillArrivals)
            throw std::invalid_argument("resampling made more than 20,000,000 arrivals");
    }
    return order;
}

std::vector<std::int32_t> fillNodeOrder(int nodes, std::uint64_t seed) {
    std::vector<std::int32_t> order(static_cast<std::size_t>(nodes));
    std::iota(order.begin(), order.end(), 0);
    Rng rng = fillStream(seed, FillStream::NodeOrder);
    shuffle(order, rng);
    return order;
}

}  // namespace gpuplan::detail
