#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace hane {

int thread_count(int requested) {
  return requested > 0 ? requested : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void run_workers(int workers, const std::function<void(int worker)>& fn, const std::function<void()>& tick) {
  std::mutex mutex;
  std::condition_variable all_done;
  int running = workers;
  std::vector<std::jthread> pool;
  for (int w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      fn(w);
      const std::lock_guard lock(mutex);
      if (--running == 0) all_done.notify_one();
    });
  }
  if (!tick) return;  // the pool's destructor joins
  std::unique_lock lock(mutex);
  while (!all_done.wait_for(lock, std::chrono::milliseconds(200), [&] { return running == 0; })) {
    lock.unlock();
    tick();
    lock.lock();
  }
  lock.unlock();
  tick();  // at once, with the final count
}

void parallel_for(size_t n, int threads, const std::function<void(int worker, size_t i)>& fn,
                  const std::function<void(int64_t done)>& tick) {
  std::atomic<size_t> next{0};
  std::atomic<int64_t> done{0};
  run_workers(
      thread_count(threads),
      [&](int w) {
        for (size_t i; (i = next++) < n;) {
          fn(w, i);
          ++done;
        }
      },
      tick ? std::function<void()>([&] { tick(done); }) : nullptr);
}

WorkPool::WorkPool(int threads) : threads_(std::max(1, threads)) {
  for (int w = 1; w < threads_; ++w) workers_.emplace_back([this, w] { loop(w); });
}

WorkPool::~WorkPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    ++generation_;
  }
  wake_.notify_all();
}

void WorkPool::run(int tasks, const std::function<void(int, int)>& fn) {
  if (tasks <= 0) return;
  if (threads_ == 1 || tasks == 1) {
    for (int t = 0; t < tasks; ++t) fn(t, 0);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    fn_ = &fn;
    tasks_ = tasks;
    next_ = 0;
    busy_ = threads_ - 1;
    ++generation_;
  }
  wake_.notify_all();
  work(0);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
}

void WorkPool::loop(int w) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (stop_) return;
    }
    work(w);
    std::lock_guard lock(mutex_);
    if (--busy_ == 0) done_.notify_one();
  }
}

void WorkPool::work(int w) {
  for (int t; (t = next_.fetch_add(1)) < tasks_;) (*fn_)(t, w);
}

}  // namespace hane
