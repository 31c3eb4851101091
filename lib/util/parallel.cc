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

}  // namespace hane
