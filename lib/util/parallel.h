// Spreading independent items (games, batches) over threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace hane {

/// `requested` threads, or one per core when it is 0 or less.
int thread_count(int requested);

/// Calls fn(worker, i) for every i in [0, n), on thread_count(threads) workers numbered from 0;
/// items are handed out one at a time, in order. Meanwhile the calling thread calls
/// tick(items done) about five times a second, if `tick` is given (for progress lines).
/// Returns when every item is done. fn must not throw.
void parallel_for(size_t n, int threads, const std::function<void(int worker, size_t i)>& fn,
                  const std::function<void(int64_t done)>& tick = {});

}  // namespace hane
