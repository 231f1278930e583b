// The FakeTensor oracle's child process and its JSON-lines protocol (fake_tensor_oracle.py).
#include "FakeTensorOracle.h"

#include "FakeTensorScript.h"
#include "Input.h"

#include <cerrno>
#include <csignal>
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

FakeTensorOracle::FakeTensorOracle(std::string python) : python_(std::move(python)) {}

FakeTensorOracle::~FakeTensorOracle() {
  stop("");
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
  std::string dashC = "-c";
  char* argv[] = {python_.data(), dashC.data(), script.data(), nullptr};
  int spawned = posix_spawnp(&pid_, python_.c_str(), &actions, nullptr, argv, environ);
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
  std::optional<std::string> greeting = exchange("");
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
  return true;
}

std::optional<std::string> FakeTensorOracle::exchange(const std::string& request) {
  if (!request.empty() && !writeAll(toChild_, request + "\n")) {
    stop(python_ + " stopped answering");
    return std::nullopt;
  }
  // An op that hangs must not hang declone: a generous limit, as each op takes milliseconds
  // (the first answer waits for `import torch`).
  constexpr int kTimeoutMs = 300'000;
  size_t end;
  while ((end = pending_.find('\n')) == std::string::npos) {
    pollfd ready{fromChild_, POLLIN, 0};
    int polled = poll(&ready, 1, kTimeoutMs);
    if (polled < 0 && errno == EINTR)
      continue;
    char buffer[4096];
    ssize_t got = polled > 0 ? ::read(fromChild_, buffer, sizeof buffer) : -1;
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0) {
      stop(python_ + (polled == 0 ? " took more than 5 minutes to answer" : " stopped answering"));
      return std::nullopt;
    }
    pending_.append(buffer, static_cast<size_t>(got));
  }
  std::string answer = pending_.substr(0, end);
  pending_.erase(0, end + 1);
  return answer;
}

void FakeTensorOracle::stop(const std::string& why) {
  if (!why.empty() && !failed_)
    reportUsageWarning("--fake-tensor: " + why +
                       "; layouts that no rule gives stay unknown (set DECLONE_PYTHON to a "
                       "Python with PyTorch)");
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
  std::optional<std::string> answer = exchange(request);
  if (!answer)
    return std::nullopt;
  std::optional<OracleResult> result;
  try {
    json reply = json::parse(*answer);
    if (reply.at("id").get<uint64_t>() != requests_) {
      stop(python_ + " answered out of step");
      return std::nullopt;
    }
    if (reply.contains("results")) {
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
