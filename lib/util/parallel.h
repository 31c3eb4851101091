// Spreading independent items (games, batches, histogram chunks) over threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

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

/// A fixed set of worker threads that run batches of small tasks again and again (the tree
/// trainers' histograms and splits: thousands of batches, too short to start threads for
/// each); the calling thread works too, as worker 0.
class WorkPool {
 public:
  /// `threads` >= 1 workers in all (threads - 1 new threads).
  explicit WorkPool(int threads);
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;
  int threads() const { return threads_; }

  /// Runs fn(task, worker) for task = 0..tasks-1, worker in [0, threads()), tasks handed out
  /// one at a time in order; returns when all are done. Not reentrant; fn must not throw.
  void run(int tasks, const std::function<void(int task, int worker)>& fn);

 private:
  void loop(int w);
  void work(int w);

  int threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  uint64_t generation_ = 0;
  bool stop_ = false;
  const std::function<void(int, int)>* fn_ = nullptr;
  int tasks_ = 0;
  std::atomic<int> next_{0};
  int busy_ = 0;
  std::vector<std::jthread> workers_;  // last: joined first
};

}  // namespace hane
