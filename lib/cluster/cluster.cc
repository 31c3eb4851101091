#include "cluster/cluster.h"

#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <stdexcept>

#ifdef HANE_WITH_MPI
#include <mpi.h>
#endif

namespace hane::cluster {
namespace {

int g_rank = 0;
int g_size = 1;

#ifdef HANE_WITH_MPI
bool g_started = false;  // MPI_Init was called by init()

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(v)) return true;
  }
  return false;
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI error in ") + what);
}

// MPI counts are int: longer buffers go in pieces.
constexpr int64_t kMaxCount = int64_t{1} << 30;
#endif

}  // namespace

void init(int* argc, char*** argv) {
#ifdef HANE_WITH_MPI
  if (g_started || !launched_by_mpi()) return;
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  g_started = true;
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    g_started = false;
    throw std::runtime_error(
        "this MPI library gives no MPI_THREAD_SERIALIZED support (hane calls MPI from worker threads, one at a "
        "time); rebuild it or hane against an MPI with thread support");
  }
  check(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &g_size), "MPI_Comm_size");
#else
  (void)argc;
  (void)argv;
#endif
}

void finalize() {
#ifdef HANE_WITH_MPI
  if (!g_started) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
  g_started = false;
#endif
}

void abort_all(int code) {
#ifdef HANE_WITH_MPI
  if (g_started && g_size > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

int rank() { return g_rank; }
int size() { return g_size; }

void allreduce_sum(std::span<double> values) {
  if (g_size == 1 || values.empty()) return;
#ifdef HANE_WITH_MPI
  // Gather every rank's values, then add them in rank order: the same bits on every rank.
  std::string mine(reinterpret_cast<const char*>(values.data()), values.size_bytes());
  const std::vector<std::string> all = allgather(mine);
  std::vector<double> sum(values.size(), 0.0), part(values.size());
  for (const std::string& s : all) {
    if (s.size() != values.size_bytes()) throw std::runtime_error("cluster::allreduce_sum: ranks disagree on the length");
    std::memcpy(part.data(), s.data(), s.size());
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += part[i];
  }
  std::copy(sum.begin(), sum.end(), values.begin());
#endif
}

#ifdef HANE_WITH_MPI
namespace {
// Integer reductions are exact, so MPI's own order does not matter; chunks of kMaxCount keep
// each count within an int.
void allreduce_int64(std::span<int64_t> values, MPI_Op op) {
  for (size_t off = 0; off < values.size(); off += kMaxCount) {
    const int n = static_cast<int>(std::min<int64_t>(kMaxCount, values.size() - off));
    check(MPI_Allreduce(MPI_IN_PLACE, values.data() + off, n, MPI_INT64_T, op, MPI_COMM_WORLD), "MPI_Allreduce");
  }
}
}  // namespace
#endif

void allreduce_sum([[maybe_unused]] std::span<int64_t> values) {
  if (g_size == 1) return;
#ifdef HANE_WITH_MPI
  allreduce_int64(values, MPI_SUM);
#endif
}

void allreduce_max([[maybe_unused]] std::span<int64_t> values) {
  if (g_size == 1) return;
#ifdef HANE_WITH_MPI
  allreduce_int64(values, MPI_MAX);
#endif
}

namespace {
#ifdef HANE_WITH_MPI
// Gathers (to root, or to all) byte strings of any length: lengths first, then the bytes, in
// pieces below 2^31 bytes.
std::vector<std::string> gather_impl(const std::string& bytes, bool to_all) {
  const int64_t mine = static_cast<int64_t>(bytes.size());
  std::vector<int64_t> lengths(g_size);
  check(MPI_Allgather(&mine, 1, MPI_INT64_T, lengths.data(), 1, MPI_INT64_T, MPI_COMM_WORLD), "MPI_Allgather");
  const bool receive = to_all || g_rank == 0;
  std::vector<std::string> out(receive ? g_size : 0);
  for (int r = 0; receive && r < g_size; ++r) out[r].resize(lengths[r]);
  const int64_t longest = *std::max_element(lengths.begin(), lengths.end());
  // Round k moves bytes [k * piece, (k + 1) * piece) of every rank's string.
  constexpr int64_t kPiece = int64_t{1} << 28;
  std::vector<char> recv;
  std::vector<int> counts(g_size), displs(g_size);
  for (int64_t off = 0; off == 0 || off < longest; off += kPiece) {
    int total = 0;
    for (int r = 0; r < g_size; ++r) {
      counts[r] = static_cast<int>(std::clamp<int64_t>(lengths[r] - off, 0, kPiece));
      displs[r] = total;
      total += counts[r];
    }
    if (receive) recv.resize(std::max(1, total));
    const int send = counts[g_rank];
    const char* src = bytes.data() + std::min<int64_t>(off, mine);
    if (to_all) {
      check(MPI_Allgatherv(src, send, MPI_CHAR, recv.data(), counts.data(), displs.data(), MPI_CHAR, MPI_COMM_WORLD),
            "MPI_Allgatherv");
    } else {
      check(MPI_Gatherv(src, send, MPI_CHAR, recv.data(), counts.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD),
            "MPI_Gatherv");
    }
    for (int r = 0; receive && r < g_size; ++r) {
      if (counts[r] > 0) std::memcpy(out[r].data() + off, recv.data() + displs[r], counts[r]);
    }
    if (longest == 0) break;
  }
  return out;
}
#endif
}  // namespace

std::vector<std::string> gather(const std::string& bytes) {
#ifdef HANE_WITH_MPI
  if (g_size > 1) return gather_impl(bytes, false);
#endif
  return {bytes};
}

std::vector<std::string> allgather(const std::string& bytes) {
#ifdef HANE_WITH_MPI
  if (g_size > 1) return gather_impl(bytes, true);
#endif
  return {bytes};
}

void broadcast([[maybe_unused]] std::string& bytes) {
  if (g_size == 1) return;
#ifdef HANE_WITH_MPI
  int64_t n = static_cast<int64_t>(bytes.size());
  check(MPI_Bcast(&n, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  bytes.resize(n);
  for (int64_t off = 0; off < n; off += kMaxCount) {
    const int c = static_cast<int>(std::min<int64_t>(kMaxCount, n - off));
    check(MPI_Bcast(bytes.data() + off, c, MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }
#endif
}

bool any(bool stop) {
  if (g_size == 1) return stop;
  int64_t v = stop ? 1 : 0;
  allreduce_max(std::span(&v, 1));
  return v != 0;
}

void barrier() {
#ifdef HANE_WITH_MPI
  if (g_size > 1) check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
#endif
}

}  // namespace hane::cluster
