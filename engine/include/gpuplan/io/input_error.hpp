// The error every reader throws, and the bounds that keep a hostile file small.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuplan {

/// A rejected input. what() reads "file: /json/pointer: message" (or "file:line: message").
/// File, place and message are kept escaped (control characters as \u00XX, bytes that are not
/// UTF-8 as \xXX): text from a file, a NUL included, never cuts or garbles a message.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string place, std::string message);
    const std::string& file() const { return m_file; }
    const std::string& place() const { return m_place; }
    const std::string& message() const { return m_message; }

private:
    std::string m_file, m_place, m_message;
};

/// Bounds that keep a hostile file from exhausting memory or time.
struct InputLimits {
    static constexpr std::uintmax_t maxFileBytes = 64ull << 20;
    static constexpr int maxJsonDepth = 64;
    static constexpr long long maxNodes = 200'000;
    static constexpr long long maxGpus = 1'000'000;
    static constexpr long long maxJobsPerClass = 5'000'000;
    static constexpr long long maxJobs = 10'000'000;
    static constexpr double maxHorizonS = 3 * 366 * 86400.0;
    static constexpr long long maxSamples = 1'000'000;
    /// Σ over node events of the nodes each one changes (a pod-wide event counts them all).
    static constexpr long long maxNodeEventNodes = 2'000'000;
};

}  // namespace gpuplan
