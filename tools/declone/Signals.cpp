// Removing the temporary file being written when a signal ends the program.
#include "Signals.h"

#include <csignal>
#include <cstring>
#include <pthread.h>
#include <unistd.h>

namespace declone::cli {
namespace {

constexpr int kCleanedUpSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The temporary file being written, for the handler: a fixed buffer, since a handler may not
// allocate. It changes only with the signals above blocked, so the handler never sees half a
// name.
char pendingTemporary[4096];

extern "C" void removePendingAndDie(int signal) {
  if (pendingTemporary[0])
    ::unlink(pendingTemporary);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

/// Removes the temporary file on the signals that end a program by default (Ctrl-C, kill, a
/// closed terminal), where the program has not chosen a handler of its own.
void installSignalHandlers() {
  static bool installed = false;
  if (installed)
    return;
  installed = true;
  for (int signal : kCleanedUpSignals) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      struct sigaction handler {};
      handler.sa_handler = &removePendingAndDie;
      sigemptyset(&handler.sa_mask);
      ::sigaction(signal, &handler, nullptr);
    }
  }
}

/// Holds the cleaned-up signals back while the pending name and the file it names change.
class SignalsHeld {
public:
  SignalsHeld() {
    sigset_t held;
    sigemptyset(&held);
    for (int signal : kCleanedUpSignals)
      sigaddset(&held, signal);
    ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
  }
  ~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

private:
  sigset_t previous_;
};

class PendingTemporary final : public TemporaryFileRecord {
public:
  bool create(const std::string& path, const std::function<bool()>& step) override {
    installSignalHandlers();
    SignalsHeld held;
    if (!step())
      return false;
    // A longer name is not recorded: a signal would leave that file behind.
    if (path.size() < sizeof pendingTemporary)
      std::memcpy(pendingTemporary, path.c_str(), path.size() + 1);
    return true;
  }

  void retire(const std::string&, const std::function<void()>& step) override {
    SignalsHeld held;
    step();
    pendingTemporary[0] = '\0';
  }
};

} // namespace

TemporaryFileRecord& temporaryFiles() {
  static PendingTemporary record;
  return record;
}

} // namespace declone::cli
