// Running one command on several processes (ranks) through MPI, the standard launcher of C++
// programs on clusters (mpirun with a host file, Slurm's srun, PBS). The only code that calls
// MPI: everything else sees ranks, a few collectives and a stop flag. Built with MPI when CMake
// finds it (HANE_MPI); otherwise, and whenever the program was not started by an MPI launcher,
// there is one rank and every collective returns its input.
//
// Every collective must be called by all ranks in the same order (MPI's rule), by one thread
// of a rank at a time (MPI_THREAD_SERIALIZED: any thread, never two at once). Sums of doubles are done in rank order on
// every rank, so they give the same bits on every rank and for a given rank count.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace hane::cluster {

/// Starts MPI when the process was started by an MPI launcher (Open MPI, MPICH, Slurm PMI or
/// PMIx variables in the environment) and hane was built with MPI; else does nothing. Call
/// once, from main, before any other function here. Idempotent. Throws std::runtime_error when
/// an MPI call fails or the library cannot give MPI_THREAD_SERIALIZED.
void init(int* argc, char*** argv);
/// Ends MPI if init started it (call before exit; safe to call twice).
void finalize();
/// Ends every rank at once with `code` (MPI_Abort), or std::exit(code) with one rank.
[[noreturn]] void abort_all(int code);

/// This process's rank, 0 .. size() - 1.
int rank();
/// Number of ranks (1 without MPI).
int size();
inline bool is_root() { return rank() == 0; }

/// Element-wise sums over ranks, in place, on every rank. Doubles are summed in rank order
/// (gathered, then added 0, 1, 2, ...), so the result is the same on every rank.
void allreduce_sum(std::span<double> values);
void allreduce_sum(std::span<int64_t> values);
/// Element-wise maximum over ranks, in place, on every rank.
void allreduce_max(std::span<int64_t> values);

/// Each rank's `bytes`, in rank order, at rank 0 (the other ranks get an empty vector).
std::vector<std::string> gather(const std::string& bytes);
/// Each rank's `bytes`, in rank order, on every rank.
std::vector<std::string> allgather(const std::string& bytes);
/// Rank 0's `bytes` on every rank.
void broadcast(std::string& bytes);

/// The stop flag: true on every rank when `stop` is true on any rank.
bool any(bool stop);

/// Waits for every rank.
void barrier();

}  // namespace hane::cluster
