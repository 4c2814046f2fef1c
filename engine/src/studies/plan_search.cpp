#include "gpuplan/studies/plan_search.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "gpuplan/io/input_error.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

namespace {

double parseNumber(std::string_view text, const std::string& option, std::string_view whole) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        throw InputError(option, std::string(whole),
                         "\"" + std::string(text) + "\" is not a finite number");
    return value;
}

long long parseInteger(std::string_view text, const std::string& option, std::string_view whole) {
    const std::optional<long long> value = detail::wholeNumber(text);
    if (!value)
        throw InputError(option, std::string(whole),
                         "\"" + std::string(text) + "\" is not a whole number");
    return *value;
}

}  // namespace

std::string planValueText(const PlanDimension& dimension, long long index) {
    return dimension.isChoice() ? dimension.choices[static_cast<std::size_t>(index)]
                                : std::to_string(dimension.lo + index);
}

PlanTarget parsePlanTarget(std::string_view text) {
    const std::string option = "--target";
    PlanTarget t;
    t.text = std::string(text);
    std::size_t op = text.find("<=");
    t.sense = TargetSense::AtMost;
    if (op == std::string_view::npos) {
        op = text.find(">=");
        t.sense = TargetSense::AtLeast;
    }
    if (op == std::string_view::npos)
        throw InputError(option, t.text, "expected KPI<=VALUE or KPI>=VALUE");
    std::string_view name = text.substr(0, op);
    t.bound = parseNumber(text.substr(op + 2), option, text);
    if (name.starts_with("team:")) {
        name.remove_prefix(5);
        const std::size_t colon = name.find(':');
        if (colon == std::string_view::npos || colon == 0)
            throw InputError(option, t.text, "expected team:NAME:KPI");
        t.team = std::string(name.substr(0, colon));
        name.remove_prefix(colon + 1);
    }
    if (name.empty()) throw InputError(option, t.text, "no KPI named before the comparison");
    t.kpi = std::string(name);
    return t;
}

PlanDimension parsePlanDimension(std::string_view text) {
    const std::string option = "--vary";
    PlanDimension d;
    d.text = std::string(text);
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0 || text[0] != '/')
        throw InputError(option, d.text, "expected /JSON/POINTER=LO..HI or /JSON/POINTER=a|b|c");
    d.pointer = std::string(text.substr(0, eq));
    const std::string_view values = text.substr(eq + 1);
    if (const std::size_t dots = values.find(".."); dots != std::string_view::npos) {
        d.lo = parseInteger(values.substr(0, dots), option, text);
        d.hi = parseInteger(values.substr(dots + 2), option, text);
        constexpr long long kMost = 1'000'000'000;  // bounds every size and midpoint
        if (d.hi > kMost)
            throw InputError(option, d.text, "a range's ends must be at most 1000000000");
        if (d.lo > d.hi)
            throw InputError(option, d.text,
                             "the range is inverted (" + std::to_string(d.lo) + " > " +
                                 std::to_string(d.hi) + ")");
        return d;
    }
    std::size_t start = 0;
    while (start <= values.size()) {
        const std::size_t bar = std::min(values.find('|', start), values.size());
        const std::string_view choice = values.substr(start, bar - start);
        if (choice.empty()) throw InputError(option, d.text, "an empty choice");
        if (std::find(d.choices.begin(), d.choices.end(), choice) != d.choices.end())
            throw InputError(option, d.text, "the choice \"" + std::string(choice) + "\" twice");
        d.choices.emplace_back(choice);
        start = bar + 1;
    }
    if (d.choices.size() < 2)
        throw InputError(option, d.text, "expected LO..HI, or at least two choices a|b");
    return d;
}

namespace {

/// The search was stopped (the evaluator said so) or reached its candidate cap.
struct SearchStopped {};
struct SearchCapped {};

/// Judges candidates by racing, and remembers them: the search asks some twice.
class Judge {
public:
    Judge(const std::vector<PlanTarget>& targets, const PlanBatchEvaluator& evaluate,
          const PlanSearchOptions& options, PlanSearchResult& out)
        : m_targets(targets), m_evaluate(evaluate), m_options(options), m_out(out) {}

    /// The candidate's verdict, by its index in PlanSearchResult::evaluated (an index, not a
    /// reference: judging the next candidate may move them all).
    std::size_t judge(const PlanCandidate& c) {
        if (const auto it = m_judged.find(c); it != m_judged.end()) return it->second;
        if (m_options.maxCandidates > 0 && m_out.evaluated.size() >= m_options.maxCandidates)
            throw SearchCapped{};
        std::vector<std::vector<double>> values(m_targets.size());
        std::vector<double> objective;
        std::vector<PlanEvaluation> runs;  // replications 0 … runs.size() − 1
        PlanVerdict v;
        v.candidate = c;
        for (int r = 0; r < m_options.maxReplications; ++r) {
            if (r == static_cast<int>(runs.size())) ask(c, r, runs);
            const PlanEvaluation& e = runs[static_cast<std::size_t>(r)];
            if (e.targetValues.size() != m_targets.size())
                throw std::logic_error("the evaluator gave a value per target it was not asked");
            for (std::size_t t = 0; t < m_targets.size(); ++t)
                values[t].push_back(e.targetValues[t]);
            objective.push_back(e.objective);
            v.replications = r + 1;
            if (v.replications < m_options.minReplications) continue;
            if (decide(values, v)) break;
        }
        m_out.evaluations += v.replications;
        v.objective = meanInterval(objective, m_options.confidence);
        m_judged.emplace(c, m_out.evaluated.size());
        m_out.evaluated.push_back(std::move(v));
        return m_out.evaluated.size() - 1;
    }
    bool met(const PlanCandidate& c) { return m_out.evaluated[judge(c)].met; }

private:
    /// Runs the next batch of replications from `first`: at least up to the fewest an
    /// interval needs, at most the batch size and the most replications.
    void ask(const PlanCandidate& c, int first, std::vector<PlanEvaluation>& runs) {
        const int last =
            std::min(m_options.maxReplications,
                     std::max(m_options.minReplications, first + m_options.batchReplications));
        std::vector<PlanRun> batch;
        for (int r = first; r < last; ++r)
            batch.push_back({c, r});
        std::optional<std::vector<PlanEvaluation>> done = m_evaluate(batch);
        if (!done) throw SearchStopped{};
        if (done->size() != batch.size())
            throw std::logic_error("the evaluator gave an evaluation per run it was not asked");
        m_out.runsExecuted += static_cast<int>(batch.size());
        for (PlanEvaluation& e : *done)
            runs.push_back(std::move(e));
    }

    /// Fills the verdict from the replications so far; true when no more replications are
    /// needed: every target decided (met or missed by its whole interval), or one missed.
    bool decide(const std::vector<std::vector<double>>& values, PlanVerdict& v) const {
        v.targets.clear();
        v.targetMet.clear();
        v.miss = 0;
        bool allDecided = true, anyMissed = false;
        for (std::size_t t = 0; t < m_targets.size(); ++t) {
            const PlanTarget& target = m_targets[t];
            const MeanInterval i = meanInterval(values[t], m_options.confidence);
            const bool atMost = target.sense == TargetSense::AtMost;
            // NaN bounds (fewer than two finite values, or every value the same KPI
            // missing) compare false: neither met nor missed.
            const bool met = atMost ? i.high <= target.bound : i.low >= target.bound;
            const bool missed = atMost ? i.low > target.bound : i.high < target.bound;
            allDecided = allDecided && (met || missed);
            anyMissed = anyMissed || missed;
            v.targets.push_back(i);
            v.targetMet.push_back(met);
            const double past = atMost ? i.mean - target.bound : target.bound - i.mean;
            const double scale = std::max(std::abs(target.bound), 1e-9);
            v.miss += std::isfinite(past) ? std::max(0.0, past) / scale
                                          : std::numeric_limits<double>::infinity();
        }
        v.met = std::all_of(v.targetMet.begin(), v.targetMet.end(), [](bool m) { return m; });
        // One target missed by its whole interval decides the candidate: more runs cannot
        // make it meet every target.
        return allDecided || anyMissed;
    }

    const std::vector<PlanTarget>& m_targets;
    const PlanBatchEvaluator& m_evaluate;
    const PlanSearchOptions& m_options;
    PlanSearchResult& m_out;
    std::map<PlanCandidate, std::size_t> m_judged;  ///< into m_out.evaluated
};

/// The smallest index of dimension `d` (others as in `c`) that meets every target, by
/// bisection from a top that does; `c[d]` follows the smallest passing value found.
void lowerToSmallestPassing(Judge& judge, PlanCandidate& c, std::size_t d) {
    long long lo = 0;  // c[d] passes: the smallest passing value so far, kept if capped
    while (lo < c[d]) {
        const long long mid = lo + (c[d] - lo) / 2;
        PlanCandidate trial = c;
        trial[d] = mid;
        if (judge.met(trial))
            c[d] = mid;
        else
            lo = mid + 1;
    }
}

/// Lowers one range at a time until none can go lower: a range is settled once lowered,
/// until another range moves (the others' values are its only input). `c` passes on entry
/// and on exit; it is left where it is when the search is capped.
void descend(Judge& judge, const std::vector<std::size_t>& ranges, PlanCandidate& c) {
    std::vector<bool> bisected(ranges.size(), false);
    std::size_t settled = 0;
    for (std::size_t i = 0; settled < ranges.size(); i = (i + 1) % ranges.size()) {
        const std::size_t d = ranges[i];
        PlanCandidate below = c;
        below[d] = c[d] - 1;
        // Once bisected, one step down says whether it can move at all.
        const bool canMove = c[d] > 0 && (!bisected[i] || judge.met(below));
        bisected[i] = true;
        if (!canMove) {
            ++settled;
            continue;
        }
        const long long before = c[d];
        lowerToSmallestPassing(judge, c, d);
        settled = c[d] != before ? 1 : settled + 1;
    }
}

/// The orders the ranges are lowered in: every permutation of up to three ranges (at most 6),
/// else each rotation (as many as ranges).
std::vector<std::vector<std::size_t>> descentOrders(std::vector<std::size_t> ranges) {
    std::vector<std::vector<std::size_t>> orders;
    if (ranges.size() <= 3) {
        std::sort(ranges.begin(), ranges.end());
        do
            orders.push_back(ranges);
        while (std::next_permutation(ranges.begin(), ranges.end()));
        return orders;
    }
    for (std::size_t r = 0; r < ranges.size(); ++r) {
        orders.push_back(ranges);
        std::rotate(ranges.begin(), ranges.begin() + 1, ranges.end());
    }
    return orders;
}

}  // namespace

PlanSearchResult searchPlan(const std::vector<PlanDimension>& dimensions,
                            const std::vector<PlanTarget>& targets, const PlanEvaluator& evaluate,
                            const PlanSearchOptions& options) {
    const PlanBatchEvaluator batch = [&evaluate](const std::vector<PlanRun>& runs) {
        std::vector<PlanEvaluation> out;
        for (const PlanRun& r : runs)
            out.push_back(evaluate(r.candidate, r.replication));
        return std::optional(std::move(out));
    };
    return searchPlan(dimensions, targets, batch, options);
}

PlanSearchResult searchPlan(const std::vector<PlanDimension>& dimensions,
                            const std::vector<PlanTarget>& targets,
                            const PlanBatchEvaluator& evaluate, const PlanSearchOptions& options) {
    if (dimensions.empty()) throw std::invalid_argument("a plan varies at least one dimension");
    if (options.minReplications < 2 || options.maxReplications < options.minReplications ||
        options.batchReplications < 1)
        throw std::invalid_argument(
            "a plan needs 2 ≤ minReplications ≤ maxReplications and batches of one or more");
    PlanSearchResult out;
    Judge judge(targets, evaluate, options, out);
    std::vector<std::size_t> ranges, choices;
    for (std::size_t d = 0; d < dimensions.size(); ++d)
        (dimensions[d].isChoice() ? choices : ranges).push_back(d);

    // Every combination of choices, in order (the last choice dimension fastest).
    PlanCandidate combo(dimensions.size(), 0);
    std::vector<std::size_t> passing;  ///< into out.evaluated: each combination's point
    std::size_t closest = 0;           ///< into out.evaluated: the least miss so far
    try {
        if (options.baseline) {
            const std::size_t b = judge.judge(*options.baseline);
            out.baseline = out.evaluated[b];
            if (out.baseline->met) passing.push_back(b);  // standing still is a plan too
        }
        for (bool first = true;; first = false) {
            PlanCandidate c = combo;
            for (std::size_t d : ranges)
                c[d] = dimensions[d].size() - 1;  // the most of every range
            const std::size_t top = judge.judge(c);
            if (first || out.evaluated[top].miss < out.evaluated[closest].miss) closest = top;
            if (out.evaluated[top].met) {
                // Each order of lowering the ranges ends at a point no single range can
                // improve; different orders end at different points of the boundary (fewer
                // of one range, more of another), so every order is tried and the cheapest
                // kept: the answer does not depend on the order the ranges were given in.
                for (const std::vector<std::size_t>& order : descentOrders(ranges)) {
                    PlanCandidate point = c;
                    try {
                        descend(judge, order, point);
                    } catch (const SearchCapped&) {
                        out.capped = true;
                    }
                    passing.push_back(judge.judge(point));  // judged: it passes where it stopped
                    if (out.capped) break;
                }
                if (out.capped) break;
            }
            // The next combination of choices; done after the last.
            std::size_t k = choices.size();
            for (; k > 0; --k) {
                const std::size_t d = choices[k - 1];
                if (++combo[d] < dimensions[d].size()) break;
                combo[d] = 0;
            }
            if (k == 0) break;
        }
    } catch (const SearchStopped&) {
        out.stopped = true;
    } catch (const SearchCapped&) {
        out.capped = true;
    }
    if (out.evaluated.empty()) return out;
    if (passing.empty()) {
        out.best = out.evaluated[closest];
        return out;
    }
    out.feasible = true;
    std::size_t best = passing.front();
    for (std::size_t i : passing)
        if (out.evaluated[i].objective.mean < out.evaluated[best].objective.mean) best = i;
    out.best = out.evaluated[best];
    return out;
}

std::size_t planGridSize(const std::vector<PlanDimension>& dimensions) {
    std::size_t n = 1;
    for (const PlanDimension& d : dimensions) {
        const auto size = static_cast<std::size_t>(d.size());
        if (n > std::numeric_limits<std::size_t>::max() / size)
            return std::numeric_limits<std::size_t>::max();
        n *= size;
    }
    return n;
}

PlanCandidate planCandidateAt(const std::vector<PlanDimension>& dimensions, std::size_t index) {
    PlanCandidate c(dimensions.size(), 0);
    for (std::size_t k = dimensions.size(); k > 0; --k) {
        const auto size = static_cast<std::size_t>(dimensions[k - 1].size());
        c[k - 1] = static_cast<long long>(index % size);
        index /= size;
    }
    return c;
}

std::size_t planCandidateBound(const std::vector<PlanDimension>& dimensions) {
    std::size_t combos = 1, perRound = 0, ranges = 0;
    for (const PlanDimension& d : dimensions) {
        if (d.isChoice()) {
            combos *= d.choices.size();
            continue;
        }
        ++ranges;
        perRound +=
            static_cast<std::size_t>(std::ceil(std::log2(static_cast<double>(d.size())))) + 1;
    }
    // Each order of descent (descentOrders: every order of up to 3 ranges, else a rotation per
    // range) lowers every range at most once a round, for as many rounds as ranges.
    const double orders = ranges <= 1   ? 1
                          : ranges == 2 ? 2
                          : ranges == 3 ? 6
                                        : static_cast<double>(ranges);
    const double bound =
        static_cast<double>(combos) * (1.0 + orders * static_cast<double>(ranges * perRound));
    const std::size_t grid = planGridSize(dimensions);
    return bound >= static_cast<double>(grid) ? grid : static_cast<std::size_t>(bound);
}

PlanSearchOptions planSearchOptions(const std::vector<PlanDimension>& dimensions, int replications,
                                    std::optional<PlanCandidate> baseline, int batch) {
    PlanSearchOptions o;
    o.maxReplications = replications;
    o.batchReplications = std::clamp(batch, 1, replications);
    o.maxCandidates = planCandidateBound(dimensions) + (baseline ? 1 : 0);
    o.baseline = std::move(baseline);
    return o;
}

std::vector<std::size_t> planFrontier(const PlanSearchResult& result,
                                      const std::vector<PlanTarget>& targets) {
    const auto& all = result.evaluated;
    // a is at least as good as b everywhere, and better somewhere.
    const auto dominates = [&targets](const PlanVerdict& a, const PlanVerdict& b) {
        bool better = a.objective.mean < b.objective.mean;
        if (a.objective.mean > b.objective.mean) return false;
        for (std::size_t t = 0; t < targets.size(); ++t) {
            const double x = a.targets[t].mean, y = b.targets[t].mean;
            const bool atMost = targets[t].sense == TargetSense::AtMost;
            if (atMost ? x > y : x < y) return false;
            if (atMost ? x < y : x > y) better = true;
        }
        return better;
    };
    std::vector<std::size_t> front;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (!std::isfinite(all[i].objective.mean)) continue;
        bool beaten = false;
        for (std::size_t j = 0; j < all.size() && !beaten; ++j)
            beaten = j != i && std::isfinite(all[j].objective.mean) && dominates(all[j], all[i]);
        if (!beaten) front.push_back(i);
    }
    std::stable_sort(front.begin(), front.end(), [&all](std::size_t a, std::size_t b) {
        return all[a].objective.mean < all[b].objective.mean;
    });
    return front;
}

void PlanRunTable::add(const PlanCandidate& candidate, int replication, PlanEvaluation evaluation) {
    m_runs.insert_or_assign({candidate, replication}, std::move(evaluation));
}

bool PlanRunTable::contains(const PlanCandidate& candidate, int replication) const {
    return m_runs.contains({candidate, replication});
}

PlanBatchEvaluator PlanRunTable::evaluator() const {
    return [this](const std::vector<PlanRun>& runs) {
        std::vector<PlanEvaluation> out;
        for (const PlanRun& r : runs) {
            const auto it = m_runs.find({r.candidate, r.replication});
            if (it == m_runs.end()) {
                std::string at;
                for (long long i : r.candidate)
                    at += (at.empty() ? "" : ",") + std::to_string(i);
                throw std::out_of_range("no run of candidate (" + at + "), replication " +
                                        std::to_string(r.replication));
            }
            out.push_back(it->second);
        }
        return std::optional(std::move(out));
    };
}

}  // namespace gpuplan
