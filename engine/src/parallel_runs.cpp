#include "parallel_runs.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuplan::detail {

void runInParallel(std::size_t count, int threads, const std::function<void(std::size_t)>& task,
                   std::atomic<bool>& abort) {
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failureLock;
    const auto work = [&] {
        for (std::size_t i = next++; i < count && !abort; i = next++) {
            try {
                task(i);
            } catch (...) {
                const std::lock_guard held(failureLock);
                if (!failure) failure = std::current_exception();
                abort = true;
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
}

}  // namespace gpuplan::detail
