// `declone verify BEFORE AFTER`: run both graphs with libtorch on the same inputs and compare.
// Built as the verify plugin (libdeclone-verify.so), which the executable loads on first use.
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "VerifyFlags.h"
#include "declone/runtime/Executor.h"
#include "declone/transforms/CloneElimination.h"

#include <charconv>
#include <iostream>

namespace declone::cli {
namespace {

bool parseCount(const std::string& text, uint64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

Result<runtime::Verdict> verifyFiles(const GraphFile& before, const GraphFile& after,
                                     const runtime::VerifyOptions& options) {
  if (before.modules.size() != after.modules.size())
    return Error{"the files hold different numbers of graphs"};
  runtime::Verdict total;
  for (size_t i = 0; i < before.modules.size(); ++i) {
    Result<runtime::Verdict> verdict =
        runtime::verify(*before.modules[i], *after.modules[i], options);
    if (!verdict.ok() || !verdict->equivalent)
      return verdict;
    total.trialsRun += verdict->trialsRun;
  }
  return total;
}

int verifyRewrite(const GraphFile& before, const GraphFile& after, std::string_view name,
                  const std::vector<std::vector<bool>>& donated) {
  setCommandName("opt");
  for (size_t i = 0; i < before.modules.size(); ++i) {
    runtime::VerifyOptions options;
    options.donated = i < donated.size() ? donated[i] : std::vector<bool>();
    Result<runtime::Verdict> verdict =
        runtime::verify(*before.modules[i], *after.modules[i], options);
    if (!verdict.ok()) {
      reportDiagnostic(name, verdict.error());
      return kBadInput;
    }
    if (!verdict->equivalent) {
      std::cerr << name << ": error: the rewrite does not verify: " << verdict->difference << '\n';
      return kDifference;
    }
  }
  return kSuccess;
}

int runVerify(std::span<const std::string_view> args) {
  setCommandName("verify"); // the plugin has its own copy of the CLI's state
  VerifyFlags flags;
  ArgumentParser parser = flags.parser();
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  std::vector<std::string>& files = flags.files;
  const std::string &seed = flags.seed, &trials = flags.trials, &donated = flags.donated;
  runtime::VerifyOptions options;
  uint64_t trialCount = 0;
  if (!parseCount(seed, options.seed) || !parseCount(trials, trialCount) || trialCount == 0) {
    reportUsageError("--seed and --trials take positive whole numbers");
    return kBadInput;
  }
  options.trials = static_cast<unsigned>(trialCount);
  std::unique_ptr<GraphFile> before = loadGraphFile(files[0]);
  if (!before)
    return kBadInput;
  std::unique_ptr<GraphFile> after = loadGraphFile(files[1]);
  if (!after)
    return kBadInput;
  Result<std::vector<bool>> donatedInputs = parseDonatedList(donated, before->modules[0]->graph);
  if (!donatedInputs.ok()) {
    reportUsageError(donatedInputs.error().message);
    return kBadInput;
  }
  options.donated = std::move(donatedInputs).value();
  Result<runtime::Verdict> verdict = verifyFiles(*before, *after, options);
  if (!verdict.ok()) {
    reportDiagnostic(displayName(files[0]), verdict.error());
    return kBadInput;
  }
  if (!verdict->equivalent) {
    std::cout << displayName(files[1]) << ": not equivalent to " << displayName(files[0]) << ": "
              << verdict->difference << '\n';
    return kDifference;
  }
  std::cout << "equivalent (" << verdict->trialsRun << " run"
            << (verdict->trialsRun == 1 ? "" : "s") << ")\n";
  return kSuccess;
}

} // namespace declone::cli

extern "C" {

__attribute__((visibility("default"))) int declone_verify_plugin_abi() {
  return declone::cli::kVerifyPluginAbi;
}

__attribute__((visibility("default"))) int declone_verify_main(const std::string_view* args,
                                                               size_t count) {
  return declone::cli::runVerify(std::span<const std::string_view>(args, count));
}

__attribute__((visibility("default"))) int
declone_verify_rewrite(const declone::GraphFile* before, const declone::GraphFile* after,
                       const std::string_view* name,
                       const std::vector<std::vector<bool>>* donated) {
  return declone::cli::verifyRewrite(*before, *after, *name, *donated);
}

} // extern "C"
