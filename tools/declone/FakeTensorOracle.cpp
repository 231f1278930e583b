// The FakeTensor oracle's child process and its JSON-lines protocol (fake_tensor_oracle.py).
#include "FakeTensorOracle.h"

#include "FakeTensorScript.h"
#include "Input.h"
#include "declone/support/Memory.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace declone::cli {
namespace {

using nlohmann::json;

/// Writes all of `data`, with SIGPIPE held back so that a child that died makes the write
/// fail (EPIPE) rather than end declone.
bool writeAll(int fd, std::string_view data) {
  sigset_t pipeSignal, previous;
  sigemptyset(&pipeSignal);
  sigaddset(&pipeSignal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous);
  bool ok = true;
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0) {
      ok = false;
      break;
    }
    data.remove_prefix(static_cast<size_t>(written));
  }
  if (!ok && errno == EPIPE) {
    timespec now{};
    sigtimedwait(&pipeSignal, nullptr, &now); // the SIGPIPE the failed write raised
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return ok;
}

json describe(const StaticLayout& layout) {
  return {{"sizes", layout.sizes}, {"strides", layout.strides}, {"offset", layout.storageOffset}};
}

/// `aten.tril.default` from `torch.ops.aten.tril.default(t0, 1)`, for warnings.
std::string opName(std::string_view call) {
  call = call.substr(0, call.find('('));
  if (call.starts_with("torch.ops."))
    call.remove_prefix(10);
  return std::string(call);
}

/// `2.5 s`, `5 s`.
std::string seconds(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", value);
  return text;
}

/// `import torch` and the first op under FakeTensorMode take seconds (14 s on a loaded 2-core
/// machine); a cold disk can make it much more.
constexpr int kStartTimeoutMs = 300'000;
/// No answer is this long: the results of a call are at most a few thousand layouts.
constexpr size_t kMaxAnswerBytes = size_t(64) << 20;
constexpr uint64_t kGiB = uint64_t(1) << 30;
constexpr double kDefaultCallSeconds = 5;

std::optional<StaticLayout> layoutFrom(const json& value) {
  if (value.is_null())
    return std::nullopt;
  StaticLayout layout;
  layout.sizes = value.at("sizes").get<std::vector<int64_t>>();
  layout.strides = value.at("strides").get<std::vector<int64_t>>();
  layout.storageOffset = value.at("offset").get<int64_t>();
  return layout;
}

} // namespace

FakeTensorOracle::FakeTensorOracle(std::string python, std::vector<std::string> imports,
                                   Limits limits)
    : python_(std::move(python)), limits_(limits), imports_(std::move(imports)) {}

FakeTensorOracle::Limits FakeTensorOracle::defaultLimits() {
  Limits limits;
  limits.memoryBytes = std::clamp(usableMemory() / 4, kGiB, 4 * kGiB);
  limits.callSeconds = kDefaultCallSeconds;
  if (const char* text = std::getenv("DECLONE_FAKE_TENSOR_TIMEOUT"); text && *text) {
    char* end = nullptr;
    double value = std::strtod(text, &end);
    if (*end == '\0' && value > 0 && value <= 86400)
      limits.callSeconds = value;
    else
      reportUsageWarning(std::string("DECLONE_FAKE_TENSOR_TIMEOUT takes seconds, not '") + text +
                         "'; the time limit of --fake-tensor is " + seconds(kDefaultCallSeconds));
  }
  return limits;
}

FakeTensorOracle::~FakeTensorOracle() {
  stop("");
  // Said at the end, once: which ops there were is known only then, and each would otherwise
  // be a warning of its own.
  if (missingOps_.empty())
    return;
  std::string ops;
  for (const std::string& op : missingOps_)
    ops += (ops.empty() ? "" : ", ") + op;
  bool one = missingOps_.size() == 1;
  reportUsageWarning("--fake-tensor: the torch of " + python_ + " has no op " + ops + "; " +
                     (one ? "its layouts stay" : "their layouts stay") +
                     " unknown (a custom op exists there once the module that defines it is "
                     "imported: --fake-tensor-import MODULE)");
}

void FakeTensorOracle::checkDevices(const GraphModule& module, std::string_view name) {
  if (warnedDevices_)
    return;
  size_t tensors = 0;
  std::string otherDevice;
  bool cpu = false;
  auto visit = [&](const GraphModule& current, auto& self) -> void {
    for (const Node* node : current.graph) {
      const TypeAnnotation& type = node->type();
      if (type.kind != TypeAnnotation::Kind::Tensor || !type.tensor)
        continue;
      ++tensors;
      cpu = cpu || type.tensor->device == "cpu";
      if (otherDevice.empty() && !type.tensor->device.empty() && type.tensor->device != "cpu")
        otherDevice = type.tensor->device;
    }
    for (const auto& child : current.children)
      self(*child, self);
  };
  visit(module, visit);
  if (tensors == 0 || cpu)
    return;
  warnedDevices_ = true;
  std::string file = name.empty() ? "the graph" : std::string(name);
  if (otherDevice.empty())
    reportUsageWarning("--fake-tensor: no tensor annotation of " + file +
                       " prints a device ('f32[3, 4][4, 1]' rather than 'f32[3, 4][4, 1]cpu'), "
                       "and FakeTensor runs ops only on tensors known to be on the CPU: it runs "
                       "nothing here");
  else
    reportUsageWarning("--fake-tensor: the tensors of " + file + " are on " + otherDevice +
                       ", and FakeTensor runs ops only on CPU tensors (a CUDA layout can depend "
                       "on the machine that runs it): it runs nothing here");
}

std::string FakeTensorOracle::defaultPython() {
  const char* python = std::getenv("DECLONE_PYTHON");
  return python && *python ? python : "python3";
}

bool FakeTensorOracle::start() {
  started_ = true;
  std::string script;
  for (std::string_view chunk : detail::fakeTensorScriptChunks())
    script += chunk;
  int input[2], output[2];
  if (pipe2(input, O_CLOEXEC) != 0) {
    stop(std::string("cannot make a pipe: ") + std::strerror(errno));
    return false;
  }
  if (pipe2(output, O_CLOEXEC) != 0) {
    ::close(input[0]);
    ::close(input[1]);
    stop(std::string("cannot make a pipe: ") + std::strerror(errno));
    return false;
  }
  // The child's standard input and output are the pipes; its warnings (torch's) are not
  // declone's, so standard error goes to /dev/null.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> arguments = {python_, "-c", script,
                                        "--memory-limit=" + std::to_string(limits_.memoryBytes),
                                        "--time-limit=" + std::to_string(limits_.callSeconds)};
  for (const std::string& module : imports_)
    arguments.push_back("--import=" + module);
  std::vector<char*> argv;
  for (std::string& argument : arguments)
    argv.push_back(argument.data());
  argv.push_back(nullptr);
  int spawned = posix_spawnp(&pid_, python_.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(input[0]);
  ::close(output[1]);
  toChild_ = input[1];
  fromChild_ = output[0];
  if (spawned != 0) {
    pid_ = -1;
    stop("cannot run " + python_ + ": " + std::strerror(spawned));
    return false;
  }
  std::optional<std::string> greeting = exchange("", kStartTimeoutMs, "");
  if (!greeting)
    return false;
  json reply = json::parse(*greeting, nullptr, false);
  if (reply.is_discarded() || !reply.is_object() || !reply.contains("ready")) {
    std::string why = reply.is_object() && reply.contains("error") && reply["error"].is_string()
                          ? reply["error"].get<std::string>()
                          : "it did not start the oracle";
    stop(python_ + ": " + why);
    return false;
  }
  // A module that did not import leaves its ops unknown; the others still serve.
  if (reply.contains("import_errors") && reply.at("import_errors").is_array())
    for (const json& error : reply.at("import_errors"))
      if (error.is_string())
        reportUsageWarning("--fake-tensor-import: cannot import " + error.get<std::string>() +
                           "; the ops it defines stay unknown to --fake-tensor");
  return true;
}

std::optional<std::string> FakeTensorOracle::exchange(const std::string& request, int timeoutMs,
                                                      const std::string& what) {
  if (!request.empty() && !writeAll(toChild_, request + "\n")) {
    stop(python_ + " stopped answering" + what);
    return std::nullopt;
  }
  // An op that hangs must not hang declone. The wait is for the whole answer: a child that
  // trickles bytes does not restart the clock.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  size_t end;
  while ((end = pending_.find('\n')) == std::string::npos) {
    if (pending_.size() > kMaxAnswerBytes) {
      stop(python_ + " answered more than " + std::to_string(kMaxAnswerBytes >> 20) + " MiB" +
           what);
      return std::nullopt;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd ready{fromChild_, POLLIN, 0};
    int polled = left.count() > 0 ? poll(&ready, 1, static_cast<int>(left.count())) : 0;
    if (polled < 0 && errno == EINTR)
      continue;
    char buffer[4096];
    ssize_t got = polled > 0 ? ::read(fromChild_, buffer, sizeof buffer) : -1;
    if (got < 0 && errno == EINTR)
      continue;
    if (polled == 0) {
      stop(python_ + " took more than " + seconds(timeoutMs / 1000.0) +
               (what.empty() ? " to start" : what + " and was stopped"),
           what.empty());
      return std::nullopt;
    }
    if (got <= 0) {
      stop(python_ + " stopped answering" + what, what.empty());
      return std::nullopt;
    }
    pending_.append(buffer, static_cast<size_t>(got));
  }
  std::string answer = pending_.substr(0, end);
  pending_.erase(0, end + 1);
  return answer;
}

void FakeTensorOracle::warnDeclined(const std::string& op, const std::string& why) {
  if (warnedOps_.insert(op).second)
    reportUsageWarning("--fake-tensor: " + op + ": " + why + "; its layouts stay unknown");
}

void FakeTensorOracle::stop(const std::string& why, bool unavailable) {
  if (!why.empty() && !failed_)
    reportUsageWarning("--fake-tensor: " + why + "; layouts that no rule gives stay unknown" +
                       (unavailable ? " (set DECLONE_PYTHON to a Python with PyTorch)" : ""));
  failed_ = failed_ || !why.empty();
  if (toChild_ >= 0)
    ::close(toChild_); // end of input: the child's loop ends
  toChild_ = -1;
  if (fromChild_ >= 0)
    ::close(fromChild_);
  fromChild_ = -1;
  if (pid_ > 0) {
    if (!why.empty())
      ::kill(pid_, SIGKILL); // it may be stuck in an op
    int status;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = -1;
}

std::optional<OracleResult> FakeTensorOracle::run(const OracleCall& call) {
  json tensors = json::array();
  for (const OracleCall::Tensor& tensor : call.tensors) {
    json description = describe(tensor.layout);
    description["dtype"] = std::string(torchName(tensor.dtype));
    description["device"] = tensor.device;
    tensors.push_back(std::move(description));
  }
  std::string key;
  try {
    key = json{{"call", call.text}, {"tensors", tensors}}.dump();
  } catch (const json::type_error&) {
    return std::nullopt; // a string argument that is not UTF-8, which JSON cannot carry
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto cached = cache_.find(key); cached != cache_.end())
    return cached->second;
  if (!started_ && !start())
    return std::nullopt;
  if (failed_)
    return std::nullopt;
  // Each answer names its request: a reply out of step is never taken for another's.
  ++requests_;
  std::string request = key;
  request.insert(request.size() - 1, ",\"id\":" + std::to_string(requests_));
  // The child stops a call at the time limit; twice that and ten seconds (a loaded machine is
  // slow to answer) is for a child stuck where Python does not run, which only killing it ends.
  int timeoutMs = limits_.callSeconds > 0 ? static_cast<int>((2 * limits_.callSeconds + 10) * 1000)
                                          : kStartTimeoutMs;
  std::string op = opName(call.text);
  std::optional<std::string> answer = exchange(request, timeoutMs, " (running " + op + ")");
  if (!answer)
    return std::nullopt;
  std::optional<OracleResult> result;
  try {
    json reply = json::parse(*answer);
    if (reply.at("id").get<uint64_t>() != requests_) {
      stop(python_ + " answered out of step");
      return std::nullopt;
    }
    if (reply.contains("declined")) {
      warnDeclined(op, reply.at("declined").get<std::string>());
    } else if (reply.contains("no_such_op")) {
      missingOps_.insert(op);
    } else if (reply.contains("results")) {
      result.emplace();
      result->sequence = reply.at("sequence").get<bool>();
      for (const json& value : reply.at("results"))
        result->results.push_back(layoutFrom(value));
    }
  } catch (const json::exception&) {
    result.reset(); // a malformed answer: unknown, like an op that failed
  }
  cache_.emplace(std::move(key), result);
  return result;
}

} // namespace declone::cli
