// Spreading independent items (games, batches) over threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace hane {

/// `requested` threads, or one per core when it is 0 or less.
int thread_count(int requested);

/// Runs fn(worker) on `workers` threads numbered from 0 and returns as soon as the last one
/// ends. Meanwhile the calling thread calls tick() about five times a second, if `tick` is
/// given (for progress lines), and once more as soon as the work is done: it never waits for
/// a tick then, so a progress line's time and rate are the work's. fn must not throw.
void run_workers(int workers, const std::function<void(int worker)>& fn, const std::function<void()>& tick = {});

/// Calls fn(worker, i) for every i in [0, n), on thread_count(threads) workers numbered from 0;
/// items are handed out one at a time, in order. Meanwhile the calling thread calls
/// tick(items done) about five times a second, if `tick` is given (as run_workers).
/// Returns when every item is done. fn must not throw.
void parallel_for(size_t n, int threads, const std::function<void(int worker, size_t i)>& fn,
                  const std::function<void(int64_t done)>& tick = {});

}  // namespace hane
