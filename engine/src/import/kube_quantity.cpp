#include "kube_quantity.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace gpuplan::detail {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

/// The factor of a suffix that is not an exponent; nullopt for anything else.
std::optional<double> suffixFactor(std::string_view suffix) {
    static constexpr std::array<std::pair<std::string_view, double>, 16> kFactors{{
        {"", 1},
        {"n", 1e-9},
        {"u", 1e-6},
        {"m", 1e-3},
        {"k", 1e3},
        {"M", 1e6},
        {"G", 1e9},
        {"T", 1e12},
        {"P", 1e15},
        {"E", 1e18},
        {"Ki", 1024.0},
        {"Mi", 1024.0 * 1024},
        {"Gi", 1024.0 * 1024 * 1024},
        {"Ti", 1024.0 * 1024 * 1024 * 1024},
        {"Pi", 1024.0 * 1024 * 1024 * 1024 * 1024},
        {"Ei", 1024.0 * 1024 * 1024 * 1024 * 1024 * 1024},
    }};
    for (const auto& [name, factor] : kFactors)
        if (suffix == name) return factor;
    return std::nullopt;
}

/// "e3", "E-2": the power of ten; nullopt unless an 'e' or 'E', an optional sign and digits.
std::optional<int> exponentOf(std::string_view suffix) {
    if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) return std::nullopt;
    std::size_t at = 1;
    const bool negative = suffix[at] == '-';
    if (suffix[at] == '+' || suffix[at] == '-') ++at;
    if (at == suffix.size()) return std::nullopt;
    int exponent = 0;
    for (; at < suffix.size(); ++at) {
        if (!isDigit(suffix[at])) return std::nullopt;
        exponent = std::min(exponent * 10 + (suffix[at] - '0'), 100000);  // beyond: not finite
    }
    return negative ? -exponent : exponent;
}

}  // namespace

std::optional<double> parseKubeQuantity(std::string_view text) {
    std::size_t at = 0;
    const bool negative = !text.empty() && text[0] == '-';
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) ++at;
    const std::size_t numberStart = at;
    int digits = 0, points = 0;
    for (; at < text.size() && (isDigit(text[at]) || text[at] == '.'); ++at)
        (text[at] == '.' ? points : digits) += 1;
    if (digits == 0 || points > 1) return std::nullopt;
    double number = 0;
    const auto [end, ec] = std::from_chars(text.data() + numberStart, text.data() + at, number);
    if (ec != std::errc() || end != text.data() + at) return std::nullopt;

    const std::string_view suffix = text.substr(at);
    double value = 0;
    if (const auto factor = suffixFactor(suffix))
        value = number * *factor;
    else if (const auto exponent = exponentOf(suffix))
        value = number * std::pow(10.0, *exponent);
    else
        return std::nullopt;
    if (!std::isfinite(value)) return std::nullopt;
    return negative ? -value : value;
}

}  // namespace gpuplan::detail
