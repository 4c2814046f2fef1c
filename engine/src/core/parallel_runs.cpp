#include "gpuplan/core/parallel_runs.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuplan {

bool runInParallel(std::size_t count, int threads,
                   const std::function<bool(std::size_t, std::stop_token)>& task,
                   std::stop_token stop) {
    std::stop_source runs;  // the caller's stop, or a failure, ends every run still going
    const std::stop_callback forward(stop, [&runs] { runs.request_stop(); });
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failureLock;
    const auto work = [&] {
        for (std::size_t i = next++; i < count && !runs.stop_requested(); i = next++) {
            try {
                if (!task(i, runs.get_token())) runs.request_stop();
            } catch (...) {
                const std::lock_guard held(failureLock);
                if (!failure) failure = std::current_exception();
                runs.request_stop();
            }
        }
    };
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t wanted = threads > 0 ? static_cast<std::size_t>(threads) : cores;
    const std::size_t used = std::clamp<std::size_t>(wanted, 1, std::max<std::size_t>(count, 1));
    {
        std::vector<std::jthread> pool;
        for (std::size_t t = 1; t < used; ++t)
            pool.emplace_back(work);
        work();
    }
    if (failure) std::rethrow_exception(failure);
    return !runs.stop_requested();
}

}  // namespace gpuplan
