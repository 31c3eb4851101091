#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace hane {

int thread_count(int requested) {
  return requested > 0 ? requested : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void parallel_for(size_t n, int threads, const std::function<void(int worker, size_t i)>& fn,
                  const std::function<void(int64_t done)>& tick) {
  std::atomic<size_t> next{0};
  std::atomic<int64_t> done{0};
  std::vector<std::jthread> pool;
  const int workers = thread_count(threads);
  for (int w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      for (size_t i; (i = next++) < n;) {
        fn(w, i);
        ++done;
      }
    });
  }
  while (tick && done < static_cast<int64_t>(n)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    tick(done);
  }
}

}  // namespace hane
