// A LayoutOracle that runs ops under PyTorch's FakeTensorMode in a Python child process.
#pragma once

#include "declone/analysis/LayoutOracle.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <unordered_map>

namespace declone::cli {

/// Runs each call under FakeTensorMode in `python` (fake_tensor_oracle.py, embedded in the
/// executable), whose strides are what a dump of a traced graph prints. The process starts on
/// the first call and serves the rest; answers are cached per call and input layouts. If it
/// cannot start (no such interpreter, no torch), `declone CMD: warning:` says so once, and
/// every call is unanswered: those layouts stay unknown, as without the oracle. Calls from
/// several threads (`report -j`) take turns.
class FakeTensorOracle final : public LayoutOracle {
public:
  explicit FakeTensorOracle(std::string python);
  ~FakeTensorOracle() override;
  FakeTensorOracle(const FakeTensorOracle&) = delete;
  FakeTensorOracle& operator=(const FakeTensorOracle&) = delete;

  [[nodiscard]] std::optional<OracleResult> run(const OracleCall& call) override;

  /// The interpreter `--fake-tensor` runs: $DECLONE_PYTHON (which the `declone` console
  /// script sets to its own Python), else `python3` on PATH.
  [[nodiscard]] static std::string defaultPython();

private:
  bool start();
  /// Ends the process; with a reason, warns that the oracle is unavailable.
  void stop(const std::string& why);
  /// One request line and its answer line; nullopt (after stop()) if the process failed.
  std::optional<std::string> exchange(const std::string& request);

  std::string python_;
  bool started_ = false;
  bool failed_ = false;
  pid_t pid_ = -1;
  int toChild_ = -1;
  int fromChild_ = -1;
  std::string pending_; ///< what the child wrote after the last whole line read
  uint64_t requests_ = 0;
  std::mutex mutex_; ///< one request at a time on the pipe, and the cache
  std::unordered_map<std::string, std::optional<OracleResult>> cache_;
};

} // namespace declone::cli
