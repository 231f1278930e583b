// `declone verify BEFORE AFTER`: run both graphs with libtorch on the same inputs and compare.
// Built as the verify plugin (libdeclone-verify.so), which the executable loads on first use.
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "VerifyFlags.h"
#include "declone/report/Progress.h"
#include "declone/runtime/Executor.h"
#include "declone/support/Bytes.h"
#include "declone/support/File.h"
#include "declone/support/Memory.h"
#include "declone/transforms/CloneElimination.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <iterator>
#include <optional>
#include <unistd.h>

namespace declone::cli {
namespace {

bool parseCount(const std::string& text, uint64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

/// Half the memory this process may use (the machine's, or its container's when less): room
/// for the two runs while the machine stays usable.
uint64_t defaultMemoryLimit() {
  return usableMemory() / 2;
}

/// `--int-range LO:HI`, LO < HI.
bool parseIntRange(const std::string& text, int64_t& low, int64_t& high) {
  size_t colon = text.find(':');
  if (colon == std::string::npos)
    return false;
  const char* end = text.data() + text.size();
  auto [lowEnd, lowError] = std::from_chars(text.data(), text.data() + colon, low);
  auto [highEnd, highError] = std::from_chars(text.data() + colon + 1, end, high);
  return lowError == std::errc() && lowEnd == text.data() + colon && highError == std::errc() &&
         highEnd == end && low < high;
}

/// --full-size, --budget, --time-budget and --shrink-floor into `options`; false (reported)
/// when one is malformed.
bool parseShrinkFlags(const VerifyFlags& flags, runtime::VerifyOptions& options) {
  options.shrink = !flags.fullSize;
  if (flags.fullSize &&
      (!flags.budget.empty() || !flags.timeBudget.empty() || !flags.shrinkFloor.empty())) {
    reportUsageError("--full-size runs at the printed sizes: --budget, --time-budget and "
                     "--shrink-floor do not apply");
    return false;
  }
  if (!flags.budget.empty()) {
    std::optional<uint64_t> bytes = parseByteSize(flags.budget);
    if (!bytes) {
      reportUsageError("--budget takes a size such as 512M or 2G, not '" + flags.budget + "'");
      return false;
    }
    options.budget.bytes = *bytes;
  }
  if (!flags.timeBudget.empty()) {
    double seconds = -1;
    auto [end, ec] = std::from_chars(flags.timeBudget.data(),
                                     flags.timeBudget.data() + flags.timeBudget.size(), seconds);
    if (ec != std::errc() || end != flags.timeBudget.data() + flags.timeBudget.size() ||
        !(seconds >= 0) || !std::isfinite(seconds)) {
      reportUsageError("--time-budget takes a number of seconds, not '" + flags.timeBudget + "'");
      return false;
    }
    options.budget.seconds = seconds;
  }
  if (!flags.shrinkFloor.empty()) {
    uint64_t floor = 0;
    if (!parseCount(flags.shrinkFloor, floor) || floor < 2 || floor > (uint64_t(1) << 40)) {
      reportUsageError("--shrink-floor takes a whole number of 2 or more");
      return false;
    }
    options.budget.floor = static_cast<int64_t>(floor);
  }
  return true;
}

/// `; ran with 32768 -> 16, 151936 -> 32` when the runs did not use the printed sizes.
std::string describeSizes(const runtime::Verdict& verdict) {
  return verdict.sizes.empty() ? "" : "; ran with " + describeSizeChanges(verdict.sizes);
}

/// `1.2 GiB and 3 s`: an estimate of a run.
std::string describeCost(const RunCost& cost) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, cost.seconds < 10 ? "%.1f" : "%.0f", cost.seconds);
  return "about " + formatBytes(cost.bytes) + " and " + seconds + " s a run";
}

/// Adds `more` to the sorted list `standIns`.
void mergeStandIns(std::vector<std::string>& standIns, const std::vector<std::string>& more) {
  std::vector<std::string> merged;
  std::set_union(standIns.begin(), standIns.end(), more.begin(), more.end(),
                 std::back_inserter(merged));
  standIns = std::move(merged);
}

/// `ops run as stand-ins, not their own kernels: _C::rms_norm, vllm::all_reduce`: how far a
/// verdict goes. A stand-in follows its op's schema (what it writes, what it returns and how it
/// reads its tensors), not its mathematics; a user must not read `equivalent` as more.
std::string describeStandIns(const std::vector<std::string>& standIns) {
  std::string out = "ops run as stand-ins, not their own kernels: ";
  for (size_t i = 0; i < standIns.size(); ++i)
    out += (i ? ", " : "") + standIns[i];
  return out;
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
    if (verdict.ok()) {
      verdict->notes.insert(verdict->notes.begin(), total.notes.begin(), total.notes.end());
      mergeStandIns(verdict->standIns, total.standIns);
    }
    if (!verdict.ok() || !verdict->equivalent)
      return verdict;
    total.trialsRun += verdict->trialsRun;
    for (const SizeChange& change : verdict->sizes)
      if (std::find(total.sizes.begin(), total.sizes.end(), change) == total.sizes.end())
        total.sizes.push_back(change);
    total.notes = std::move(verdict->notes);
    total.standIns = std::move(verdict->standIns);
  }
  return total;
}

/// Gives the ops of each schema file that have no kernel a stand-in; false (reported) when a
/// file cannot be read or parsed.
bool addStandIns(const std::vector<std::string>& schemaFiles, runtime::MissingKernels& kernels) {
  for (const std::string& path : schemaFiles) {
    // The schemas are checked as opt reads them; the ops without a kernel get stand-ins.
    SchemaRegistry registry;
    Result<std::string> text = readFile(path);
    Status loaded = text.ok() ? registry.loadFile(path) : Status(text.error());
    if (!loaded.ok()) {
      reportDiagnostic(path, loaded.error());
      return false;
    }
    (void)kernels.addStandIns(*text);
  }
  return true;
}

int verifyRewrite(const GraphFile& before, const GraphFile& after, std::string_view name,
                  const std::vector<std::vector<bool>>& donated,
                  const std::vector<std::string>& schemaFiles) {
  setCommandName("opt");
  runtime::MissingKernels kernels;
  if (!addStandIns(schemaFiles, kernels))
    return kBadInput;
  uint64_t memoryLimit = defaultMemoryLimit();
  std::vector<std::string> standIns;
  for (size_t i = 0; i < before.modules.size(); ++i) {
    runtime::VerifyOptions options;
    options.kernels = &kernels;
    options.donated = i < donated.size() ? donated[i] : std::vector<bool>();
    options.memoryLimit = memoryLimit;
    Result<runtime::Verdict> verdict =
        runtime::verify(*before.modules[i], *after.modules[i], options);
    if (!verdict.ok()) {
      Error error = verdict.error();
      attachSourceLines(error, before.context->source());
      reportDiagnostic(name, error);
      return kBadInput;
    }
    for (const std::string& note : verdict->notes)
      reportDiagnostic(name, Error{note}, Severity::Note);
    mergeStandIns(standIns, verdict->standIns);
    if (!verdict->equivalent) {
      std::cerr << name << ": error: the rewrite does not verify: " << verdict->difference
                << (standIns.empty() ? "" : "; " + describeStandIns(standIns)) << '\n';
      return kDifference;
    }
  }
  // opt says nothing of a rewrite that verifies, unless the verification rests on stand-ins.
  if (!standIns.empty())
    reportDiagnostic(name, Error{"the rewrite verifies with " + describeStandIns(standIns)},
                     Severity::Note);
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
  if (!flags.intRange.empty() && !parseIntRange(flags.intRange, options.intLow, options.intHigh)) {
    reportUsageError("--int-range takes LO:HI with LO < HI, not '" + flags.intRange + "'");
    return kBadInput;
  }
  if (!parseShrinkFlags(flags, options))
    return kBadInput;
  options.memoryLimit = defaultMemoryLimit();
  if (!flags.memoryLimit.empty()) {
    std::optional<uint64_t> limit = parseByteSize(flags.memoryLimit);
    if (!limit) {
      reportUsageError("--memory-limit takes a size such as 512M or 8G, not '" + flags.memoryLimit +
                       "'");
      return kBadInput;
    }
    options.memoryLimit = *limit;
  }
  if (!setInputSizeLimit(flags.maxInputSize))
    return kBadInput;
  runtime::MissingKernels kernels;
  options.kernels = &kernels;
  if (!addStandIns(flags.schemaFiles, kernels))
    return kBadInput;
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
  // Progress for long runs, on a terminal only: logs get the verdict alone.
  std::optional<ProgressMeter> progress;
  size_t runs = before->modules.size() * options.trials, done = 0;
  if (!flags.quiet && isatty(STDERR_FILENO)) {
    progress.emplace(std::cerr, true, "verify", std::chrono::milliseconds(100), "runs");
    options.trialDone = [&] { progress->update(++done, runs); };
    // The estimate, before anything is allocated: a user waiting knows for how long.
    options.estimated = [&](std::span<const SizeChange> sizes, const RunCost& cost,
                            const RunCost& printed) {
      std::cerr << "verify: " << describeCost(cost)
                << (sizes.empty() ? std::string(" at the printed sizes")
                                  : " at " + describeSizeChanges(sizes) +
                                        " (as printed: " + describeCost(printed) + ")")
                << '\n';
    };
  }
  Result<runtime::Verdict> verdict = verifyFiles(*before, *after, options);
  if (progress)
    progress->finish();
  if (!verdict.ok()) {
    Error error = verdict.error();
    attachSourceLines(error, before->context->source());
    reportDiagnostic(displayName(files[0]), error);
    return kBadInput;
  }
  // What was compared by metadata only comes first: the verdict stays the last line.
  for (const std::string& note : verdict->notes)
    std::cout << "note: " << note << '\n';
  std::string standIns = verdict->standIns.empty() ? "" : describeStandIns(verdict->standIns);
  if (!verdict->equivalent) {
    std::cout << displayName(files[1]) << ": not equivalent to " << displayName(files[0]) << ": "
              << verdict->difference << (standIns.empty() ? "" : "; " + standIns) << '\n';
    return kDifference;
  }
  std::cout << "equivalent (" << verdict->trialsRun << " run"
            << (verdict->trialsRun == 1 ? "" : "s") << describeSizes(*verdict)
            << (standIns.empty() ? "" : "; " + standIns) << ")\n";
  return kSuccess;
}

} // namespace declone::cli

extern "C" {

__attribute__((visibility("default"))) int declone_verify_plugin_abi() {
  return declone::cli::kVerifyPluginAbi;
}

// No exception leaves the plugin (its callers see C functions): running out of memory is
// reported as the executable reports it.
__attribute__((visibility("default"))) int declone_verify_main(const std::string_view* args,
                                                               size_t count) {
  try {
    return declone::cli::runVerify(std::span<const std::string_view>(args, count));
  } catch (const std::bad_alloc&) {
    return declone::cli::reportOutOfMemory(false);
  } catch (const std::length_error&) {
    return declone::cli::reportOutOfMemory(true);
  }
}

__attribute__((visibility("default"))) int
declone_verify_rewrite(const declone::GraphFile* before, const declone::GraphFile* after,
                       const std::string_view* name, const std::vector<std::vector<bool>>* donated,
                       const std::vector<std::string>* schemaFiles) {
  try {
    return declone::cli::verifyRewrite(*before, *after, *name, *donated, *schemaFiles);
  } catch (const std::bad_alloc&) {
    declone::cli::reportDiagnostic(*name, declone::Error{"out of memory"});
  } catch (const std::length_error&) {
    declone::cli::reportDiagnostic(*name,
                                   declone::Error{"out of memory (a size too large to allocate)"});
  }
  return declone::cli::kBadInput;
}

} // extern "C"
