#include "util/interrupt.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace hane {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<const char*> g_scope{nullptr};  // what the open scope does on Ctrl-C, or null

void say(const char* text) {
  // write(2) is async-signal-safe; a failed write cannot be reported anyway.
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_sigint(int) {
  const char* what = g_scope.load();
  if (what == nullptr || g_interrupted.exchange(true)) {
    say("\nhane: interrupted\n");
    ::_exit(130);
  }
  say("\nhane: interrupted: ");
  say(what);
  say(" (Ctrl-C again to quit now)\n");
}

}  // namespace

void install_interrupt_handler(bool sigterm_too) {
  struct sigaction action = {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGUSR1, &action, nullptr);
  if (sigterm_too) sigaction(SIGTERM, &action, nullptr);
}

bool interrupted() { return g_interrupted.load(std::memory_order_relaxed); }

InterruptScope::InterruptScope(const char* what) : previous_(g_scope.exchange(what)) {}

InterruptScope::~InterruptScope() { g_scope.store(previous_); }

}  // namespace hane
