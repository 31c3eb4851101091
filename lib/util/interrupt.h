// Ctrl-C (SIGINT; also SIGUSR1, and SIGTERM on request) for long runs. By default the first
// Ctrl-C ends the program at once with exit code 130 after saying "interrupted" (on a line of
// its own, so a progress line is finished).
// Work that keeps something worth keeping (a trainer's best model so far) opens an
// InterruptScope: while it is open the first Ctrl-C only sets interrupted(), which that work
// polls at safe points (end of an epoch, a growth step) to stop early; a second Ctrl-C still
// ends the program at once.
#pragma once

namespace hane {

/// Installs the handler described above for SIGINT and SIGUSR1 (idempotent); with
/// `sigterm_too`, for SIGTERM as well. Under Open MPI's mpirun (4.1) a Ctrl-C reaches the ranks
/// as SIGTERM, followed by SIGKILL about a second later, and SIGUSR1 sent to mpirun is forwarded
/// to every rank (mpirun(1), "Signal Propagation"): so several ranks take SIGTERM too.
void install_interrupt_handler(bool sigterm_too = false);

/// True once Ctrl-C was pressed inside an InterruptScope. Cheap; any thread.
bool interrupted();

/// While alive, the first Ctrl-C sets interrupted() and prints "interrupted: <what>" instead of
/// ending the program. `what` (a string literal) says what happens next, e.g. "stopping after
/// this epoch, keeping the best model so far". Not nested across threads.
class InterruptScope {
 public:
  explicit InterruptScope(const char* what);
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  const char* previous_;
};

}  // namespace hane
