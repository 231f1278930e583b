// A LayoutOracle that runs ops under PyTorch's FakeTensorMode in a Python child process.
#pragma once

#include "declone/analysis/LayoutOracle.h"
#include "declone/ir/Graph.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <sys/types.h>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace declone::cli {

/// Runs each call under FakeTensorMode in `python` (fake_tensor_oracle.py, embedded in the
/// executable), whose strides are what a dump of a traced graph prints. The process starts on
/// the first call and serves the rest; answers are cached per call and input layouts. If it
/// cannot start (no such interpreter, no torch), `declone CMD: warning:` says so once, and
/// every call is unanswered: those layouts stay unknown, as without the oracle. Calls from
/// several threads (`report -j`) take turns.
///
/// An adversary's dump must not hold declone or the machine: the child runs under a memory
/// limit, a call whose sizes are beyond the script's bounds is not run, and a call that runs
/// longer than the time limit is stopped by the child; each of these is unknown, with one
/// warning per op saying why. A child that does not answer within twice the time limit and
/// ten seconds (stuck where Python does not run) is killed and the oracle gives up, with one
/// warning: restarting
/// would cost an interpreter start (`import torch`, seconds) per such op, and what stops the
/// Python side once would likely do it again.
///
/// Custom ops exist in the child only once the modules that define them are imported there
/// (`imports`, from --fake-tensor-import; a module that fails to import is one warning). The
/// ops the child's torch has no op of are listed in one warning when the oracle ends, with that
/// advice: otherwise --fake-tensor would change nothing and say nothing.
class FakeTensorOracle final : public LayoutOracle {
public:
  struct Limits {
    uint64_t memoryBytes = 0; ///< the child's RLIMIT_DATA; 0: none
    double callSeconds = 0;   ///< per call; 0: none
  };

  /// `imports`: module names or paths of .py files the child imports before any call.
  explicit FakeTensorOracle(std::string python, std::vector<std::string> imports = {},
                            Limits limits = defaultLimits());
  ~FakeTensorOracle() override;
  FakeTensorOracle(const FakeTensorOracle&) = delete;
  FakeTensorOracle& operator=(const FakeTensorOracle&) = delete;

  [[nodiscard]] std::optional<OracleResult> run(const OracleCall& call) override;

  /// Warns, once, when no tensor of `module` (or its nested graphs) is annotated as on the CPU,
  /// the only tensors the oracle runs ops on (LayoutOracle): for that file --fake-tensor can
  /// change nothing, which a user who asked for it must hear. `name` is the file's.
  void checkDevices(const GraphModule& module, std::string_view name);

  /// The interpreter `--fake-tensor` runs: $DECLONE_PYTHON (which the `declone` console
  /// script sets to its own Python), else `python3` on PATH.
  [[nodiscard]] static std::string defaultPython();
  /// A quarter of the memory declone may use, within [1 GiB, 4 GiB] (the child needs 0.3 GiB
  /// after `import torch` and an op); 5 s a call (a first call takes 0.15 s at most once the
  /// child has run one op, which it does while starting), or $DECLONE_FAKE_TENSOR_TIMEOUT.
  [[nodiscard]] static Limits defaultLimits();

private:
  bool start();
  /// Ends the process; with a reason, warns that the oracle gives up. `unavailable`: the
  /// reason is the interpreter's, and the warning says how to choose another.
  void stop(const std::string& why, bool unavailable = true);
  /// One request line and its answer line, waiting `timeoutMs` at most; nullopt (after stop())
  /// if the process failed. `what` names the request for the warning.
  std::optional<std::string> exchange(const std::string& request, int timeoutMs,
                                      const std::string& what);
  /// Warns about `op` once: `why` its layout stays unknown.
  void warnDeclined(const std::string& op, const std::string& why);

  std::string python_;
  Limits limits_;
  bool started_ = false;
  bool failed_ = false;
  pid_t pid_ = -1;
  int toChild_ = -1;
  int fromChild_ = -1;
  std::string pending_; ///< what the child wrote after the last whole line read
  uint64_t requests_ = 0;
  std::mutex mutex_; ///< one request at a time on the pipe, and the cache
  std::unordered_map<std::string, std::optional<OracleResult>> cache_;
  std::unordered_set<std::string> warnedOps_;
  std::vector<std::string> imports_;
  std::set<std::string> missingOps_; ///< ops the child's torch has none of, for the last warning
  bool warnedDevices_ = false;
};

} // namespace declone::cli
