// Arrays a run fills once and keeps (a million job records, their runtimes and segments).
//
// The kernel faults such an array in 4 KB at a time; a 100k-GPU run spends about a tenth of
// its time there. Where transparent huge pages are on request (Linux's "madvise" mode, the
// default on Debian), asking for them cuts those faults 512-fold. A hint only: nothing the
// run computes depends on it, and elsewhere it does nothing.
#pragma once

#include <cstddef>
#include <vector>

namespace gpuplan::detail {

/// Asks for huge pages under [data, data + bytes) before it is first touched.
void adviseHugePages(void* data, std::size_t bytes);

/// reserve(), plus the hint when the array is fresh (not yet filled, so not yet faulted in).
template <class T>
void reserveLarge(std::vector<T>& v, std::size_t count) {
    if (v.capacity() >= count) return;
    const bool fresh = v.empty();
    v.reserve(count);
    if (fresh) adviseHugePages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace gpuplan::detail
