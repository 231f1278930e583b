// The defunctionalization property. For each random graph (the generator with its
// defunctionalization family weighted in) and random donation, three rewrites are made from the
// original: the pass alone, safe clone elimination then the pass (vLLM's order), and the pass
// then safe clone elimination. Each must
//   - compute what the original computes: runtime::verify on the same inputs and donation
//     (outputs' values, sizes, strides, offsets and aliasing, inputs' final contents);
//   - print and re-parse to the same text;
//   - be left alone by a second run of the pass (idempotence), which finds the calls the first
//     kept and no more;
//   - account for every copy: copies = avoided + kept, one remark per copy naming it, the
//     rewritten calls gone from the graph.
// Any failure is the pass's (or this test's) bug: exit status 1.
#include "DefunctionalizationProperty.h"

#include "Minimize.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/runtime/Executor.h"
#include "declone/transforms/CloneElimination.h"
#include "declone/transforms/Defunctionalization.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace declone::fuzz {
namespace {

/// The three rewrites, in the order they are checked.
enum Order : size_t { Alone, ClonesFirst, CopiesFirst };
constexpr size_t kOrders = 3;
constexpr std::array<const char*, kOrders> kOrderNames = {"alone", "clones-first", "copies-first"};

struct OrderRun {
  DefunctionalizationResult defunctionalized;
  CloneEliminationResult clones; ///< empty for Alone
  std::string rewritten;
  /// The failure: its kind (verify-values, idempotence, ...) and what was seen; empty if none.
  std::string kind, problem;
};

struct Evaluation {
  size_t nodes = 0;
  std::array<OrderRun, kOrders> orders;
};

/// The verifier's first difference, by kind (as the clone property classifies them).
std::string differenceKind(std::string_view difference) {
  auto has = [&](std::string_view word) { return difference.find(word) != std::string_view::npos; };
  if (difference.starts_with("the rewrite raises where the original does not"))
    return "run-error";
  if (difference.starts_with("input "))
    return "verify-input-mutation";
  if (has(": aliases "))
    return "verify-aliasing";
  if (has(": storage offset "))
    return "verify-storage-offset";
  if (has(": stride "))
    return "verify-stride";
  if (has(": size "))
    return "verify-size";
  if (has(": values differ"))
    return "verify-values";
  if (has(" bit "))
    return "verify-math-bit"; // `neg bit true != false`, the conjugate bit
  return "verify-other";
}

DefunctionalizationOptions passOptions(const std::vector<bool>& donated) {
  DefunctionalizationOptions options;
  options.donated = donated;
  return options;
}

/// The bookkeeping a run must keep: every copy decided once, the rewritten calls gone.
std::string accountingProblem(const DefunctionalizationResult& result, const Graph& graph) {
  const DefunctionalizationStats& stats = result.stats;
  size_t kept = 0;
  for (size_t count : stats.kept)
    kept += count;
  if (stats.copies != stats.avoided + kept)
    return "copies " + std::to_string(stats.copies) + " != avoided " +
           std::to_string(stats.avoided) + " + kept " + std::to_string(kept);
  if (result.remarks.size() != stats.copies)
    return std::to_string(result.remarks.size()) + " remarks for " + std::to_string(stats.copies) +
           " copies";
  size_t removed = 0;
  for (const Remark& remark : result.remarks) {
    if (remark.copy.empty())
      return "a remark on '" + remark.node + "' names no copy";
    if (remark.decision == Remark::Decision::Removed)
      ++removed;
    else if (!remark.reason)
      return "the kept copy of '" + remark.copy + "' in '" + remark.node + "' has no reason";
  }
  if (removed != stats.avoided)
    return std::to_string(removed) + " removed remarks for " + std::to_string(stats.avoided) +
           " avoided copies";
  if (result.rewritten.size() != stats.rewritten || result.changed != (stats.rewritten > 0) ||
      stats.rewritten > stats.calls)
    return "rewritten " + std::to_string(stats.rewritten) + " calls of " +
           std::to_string(stats.calls) + ", names " + std::to_string(result.rewritten.size()) +
           (result.changed ? ", changed" : ", unchanged");
  for (const Node* node : graph)
    if (std::find(result.rewritten.begin(), result.rewritten.end(), node->name()) !=
        result.rewritten.end())
      return "rewritten call '" + std::string(node->name()) + "' is still in the graph";
  return {};
}

/// One order, from the original text. An error: the original cannot be parsed (a generator bug).
/// The verdicts of one graph's rewrites by their text: orders that give the same graph (no clone
/// removed, or none of the pass's rewrites) are run once.
using Verdicts = std::map<std::string, std::pair<std::string, std::string>, std::less<>>;

Result<OrderRun> runOrder(const Graph& original, std::string_view text, Order order,
                          const std::vector<bool>& donated, uint64_t seed, unsigned trials,
                          Verdicts& verdicts) {
  auto file = readGraphFile(text);
  if (!file.ok())
    return Error{"the graph does not parse: " + file.error().format("<graph>")};
  GraphModule& module = *(*file)->modules.front();
  OrderRun run;
  CloneEliminationOptions cloneOptions;
  cloneOptions.mode = CloneEliminationMode::Safe;
  cloneOptions.donated = donated;
  if (order == ClonesFirst)
    run.clones = eliminateClones(module, cloneOptions);
  run.defunctionalized = defunctionalize(module, passOptions(donated));
  // The pass's own output, for idempotence: clone elimination after it may free more calls.
  std::string defunctionalized = writeGraphFile(**file);
  if (order == CopiesFirst)
    run.clones = eliminateClones(module, cloneOptions);
  run.rewritten = writeGraphFile(**file);
  auto fail = [&](std::string kind, std::string problem) {
    run.kind = std::move(kind);
    run.problem = std::move(problem);
    return run;
  };
  if (std::string problem = accountingProblem(run.defunctionalized, module.graph); !problem.empty())
    return fail("accounting", problem);

  // Printed and re-parsed, the same graph; the pass run again on its own output (re-parsed)
  // finds nothing more.
  for (const std::string* text : {&run.rewritten, &defunctionalized}) {
    auto reparsed = readGraphFile(*text);
    if (!reparsed.ok())
      return fail("roundtrip",
                  "the rewrite does not parse: " + reparsed.error().format("<rewrite>"));
    std::string reprinted = writeGraphFile(**reparsed);
    if (reprinted != *text)
      return fail("roundtrip", "the rewrite prints differently once re-parsed:\n" + reprinted);
  }
  auto reparsed = readGraphFile(defunctionalized);
  DefunctionalizationResult again =
      defunctionalize(*(*reparsed)->modules.front(), passOptions(donated));
  std::string twice = writeGraphFile(**reparsed);
  size_t left = run.defunctionalized.stats.calls - run.defunctionalized.stats.rewritten;
  if (again.changed || !again.rewritten.empty() || twice != defunctionalized)
    return fail("idempotence",
                "a second run rewrites " + std::to_string(again.rewritten.size()) + " more calls" +
                    (again.rewritten.empty() ? "" : " ('" + again.rewritten[0] + "')") +
                    (twice != run.rewritten ? "; the graph changed" : ""));
  if (again.stats.calls != left)
    return fail("idempotence", "a second run sees " + std::to_string(again.stats.calls) +
                                   " calls, the first left " + std::to_string(left));

  if (run.rewritten == text)
    return run; // nothing changed: the original against itself
  auto known = verdicts.find(run.rewritten);
  if (known == verdicts.end()) {
    runtime::VerifyOptions verifyOptions;
    verifyOptions.seed = seed;
    verifyOptions.trials = trials;
    verifyOptions.donated = donated;
    verifyOptions.kernels = &generatedGraphKernels();
    auto verdict = runtime::verify(original, module.graph, verifyOptions);
    std::pair<std::string, std::string> found;
    if (!verdict.ok())
      found = {"run-error", "cannot run: " + verdict.error().format("<rewrite>")};
    else if (!verdict->equivalent)
      found = {differenceKind(verdict->difference), verdict->difference};
    known = verdicts.emplace(run.rewritten, std::move(found)).first;
  }
  if (!known->second.first.empty())
    return fail(known->second.first, known->second.second);
  return run;
}

Result<Evaluation> evaluate(std::string_view text, const std::vector<bool>& donated, uint64_t seed,
                            unsigned trials) {
  auto original = readGraphFile(text);
  if (!original.ok())
    return Error{"the graph does not parse: " + original.error().format("<graph>")};
  const Graph& graph = (*original)->modules.front()->graph;
  Evaluation evaluation;
  evaluation.nodes = graph.size();
  bool runError = false;
  Verdicts verdicts;
  for (size_t order = 0; order < kOrders; ++order) {
    auto run = runOrder(graph, text, static_cast<Order>(order), donated, seed, trials, verdicts);
    if (!run.ok())
      return run.error();
    evaluation.orders[order] = std::move(run).value();
    runError = runError || evaluation.orders[order].kind == "run-error";
  }
  if (runError) {
    // A rewrite that cannot run is the pass's failure; an original that cannot, a generator bug.
    runtime::VerifyOptions options;
    options.seed = seed;
    options.trials = trials;
    options.donated = donated;
    options.kernels = &generatedGraphKernels();
    auto itself = runtime::verify(graph, graph, options);
    if (!itself.ok())
      return Error{"the graph cannot run: " + itself.error().format("<graph>")};
  }
  return evaluation;
}

struct Failure {
  uint64_t seed = 0;
  Order order = Alone;
  std::string kind, problem;
  size_t nodes = 0, originalNodes = 0;
  std::string text;
  std::vector<bool> donated;
};

/// Returned values, then unused nodes, are dropped while the same order still fails with the
/// same kind.
Failure minimize(Failure failure, unsigned trials, const volatile std::sig_atomic_t& interrupted) {
  auto stillFails = [&](const std::string& text, const std::vector<bool>& donated) {
    auto evaluation = evaluate(text, donated, failure.seed, trials);
    if (!evaluation.ok() || evaluation->orders[failure.order].kind != failure.kind)
      return false;
    failure.problem = evaluation->orders[failure.order].problem;
    failure.nodes = evaluation->nodes;
    return true;
  };
  minimizeGraph(failure.text, failure.donated, stillFails, interrupted);
  return failure;
}

/// The failing order's rewrite and remarks, for the report and the kept file's header.
std::string failureDetails(const Failure& failure, unsigned trials) {
  auto evaluation = evaluate(failure.text, failure.donated, failure.seed, trials);
  if (!evaluation.ok())
    return "# (the graph no longer evaluates: " + evaluation.error().message + ")\n";
  const OrderRun& run = evaluation->orders[failure.order];
  std::string details;
  for (const Remark& remark : run.defunctionalized.remarks)
    details += "# " + remark.formatText("<graph>") + "\n";
  for (const Remark& remark : run.clones.remarks)
    if (remark.decision == Remark::Decision::Removed)
      details += "# " + remark.formatText("<graph>") + "\n";
  details += "# The rewrite:\n";
  for (size_t start = 0; start < run.rewritten.size();) {
    size_t end = run.rewritten.find('\n', start);
    if (end == std::string::npos)
      end = run.rewritten.size();
    details += "#   " + run.rewritten.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return details;
}

void writeFailure(const std::string& dir, const Failure& failure, unsigned trials) {
  std::string header = "# defunctionalization " + std::string(kOrderNames[failure.order]) + " " +
                       failure.kind + ": found by declone_property_test --defunctionalize, seed " +
                       std::to_string(failure.seed) + " (" + std::to_string(failure.originalNodes) +
                       " nodes before minimising, " + std::to_string(failure.nodes) + " after).\n";
  header += "# Donated placeholders: " + donatedText(failure.donated) + ".\n";
  std::string problem = failure.problem;
  std::replace(problem.begin(), problem.end(), '\n', ' ');
  header += "# " + problem + "\n";
  std::filesystem::create_directories(dir);
  std::string path = dir + "/defunc-" + kOrderNames[failure.order] + "-" + failure.kind + "-seed-" +
                     std::to_string(failure.seed) + ".fx";
  // The graph first, then again with the remarks and the rewrite, which run it once more.
  std::ofstream(path, std::ios::binary) << header << failure.text;
  std::ofstream(path, std::ios::binary)
      << header << failureDetails(failure, trials) << failure.text;
  std::printf("wrote %s (%zu nodes, seed %llu)\n", path.c_str(), failure.nodes,
              static_cast<unsigned long long>(failure.seed));
}

struct Totals {
  size_t graphs = 0;
  size_t graphsWithCalls = 0;
  std::array<DefunctionalizationStats, kOrders> stats{};
  std::array<size_t, kOrders> clonesRemoved{};
  size_t clones = 0;
  size_t failures = 0;
  std::map<std::string, size_t> failuresByKind;
};

void printSummary(const Totals& totals, double seconds) {
  std::printf("\n%-44s %10zu\n", "graphs tried", totals.graphs);
  std::printf("%-44s %10zu\n", "graphs with functionalized calls", totals.graphsWithCalls);
  std::printf("%-44s %12s %12s %12s\n", "", kOrderNames[0], kOrderNames[1], kOrderNames[2]);
  auto row = [&](const char* title, auto value) {
    std::printf("%-44s", title);
    for (size_t order = 0; order < kOrders; ++order)
      std::printf(" %12llu", static_cast<unsigned long long>(value(order)));
    std::printf("\n");
  };
  row("functionalized calls", [&](size_t o) { return totals.stats[o].calls; });
  row("calls rewritten", [&](size_t o) { return totals.stats[o].rewritten; });
  row("copies implied", [&](size_t o) { return totals.stats[o].copies; });
  row("copies avoided", [&](size_t o) { return totals.stats[o].avoided; });
  for (size_t reason = 0; reason < kNumCopyKeepReasons; ++reason) {
    std::string title =
        "  kept [" + std::string(reasonCode(static_cast<CopyKeepReason>(reason))) + "]";
    row(title.c_str(), [&](size_t o) { return totals.stats[o].kept[reason]; });
  }
  row("bytes avoided (static sizes)", [&](size_t o) { return totals.stats[o].bytesAvoided; });
  row("copies avoided of symbolic size", [&](size_t o) { return totals.stats[o].avoidedSymbolic; });
  std::printf("%-44s %10zu\n", "clones seen", totals.clones);
  row("clones removed by safe clone elimination",
      [&](size_t o) { return totals.clonesRemoved[o]; });
  std::printf("%-44s %10zu\n", "failures", totals.failures);
  for (const auto& [kind, count] : totals.failuresByKind)
    std::printf("  %-42s %10zu\n", kind.c_str(), count);
  std::printf("(%.1f s)\n", seconds);
}

} // namespace

int runDefunctionalizationProperty(const PropertyRun& config,
                                   const volatile std::sig_atomic_t& interrupted) {
  Totals totals;
  auto start = std::chrono::steady_clock::now();
  auto lastProgress = start;
  for (uint64_t seed = config.first;
       !interrupted && (config.unlimited || seed - config.first < config.count); ++seed) {
    Result<std::string> text = tryRandomGraphText(seed, config.graph);
    if (!text.ok()) {
      std::printf("GENERATOR BUG at seed %llu: %s\n--- skeleton\n%s",
                  static_cast<unsigned long long>(seed), text.error().message.c_str(),
                  randomGraphSkeleton(seed, config.graph).c_str());
      return 2;
    }
    auto parsed = readGraphFile(*text);
    if (!parsed.ok()) {
      std::printf("GENERATOR BUG at seed %llu: the annotated graph does not parse: %s\n%s",
                  static_cast<unsigned long long>(seed), parsed.error().format("<graph>").c_str(),
                  text->c_str());
      return 2;
    }
    std::vector<bool> donated =
        randomDonation(seed, (*parsed)->modules.front()->graph.placeholders().size());
    auto evaluation = evaluate(*text, donated, seed, config.trials);
    if (!evaluation.ok()) {
      std::printf("GENERATOR BUG at seed %llu (donated: %s): %s\n--- graph\n%s",
                  static_cast<unsigned long long>(seed), donatedText(donated).c_str(),
                  evaluation.error().message.c_str(), text->c_str());
      return 2;
    }
    ++totals.graphs;
    totals.graphsWithCalls += evaluation->orders[Alone].defunctionalized.stats.calls > 0;
    totals.clones += evaluation->orders[ClonesFirst].clones.stats.clones;
    for (size_t order = 0; order < kOrders; ++order) {
      totals.stats[order] += evaluation->orders[order].defunctionalized.stats;
      totals.clonesRemoved[order] += evaluation->orders[order].clones.stats.removed;
    }
    bool stop = false;
    for (size_t order = 0; order < kOrders && !stop; ++order) {
      const OrderRun& run = evaluation->orders[order];
      if (run.kind.empty())
        continue;
      ++totals.failures;
      std::string key = std::string(kOrderNames[order]) + " " + run.kind;
      ++totals.failuresByKind[key];
      std::printf("FAILURE at seed %llu (donated: %s), %s: %s\n",
                  static_cast<unsigned long long>(seed), donatedText(donated).c_str(), key.c_str(),
                  run.problem.c_str());
      Failure failure{seed,
                      static_cast<Order>(order),
                      run.kind,
                      run.problem,
                      evaluation->nodes,
                      evaluation->nodes,
                      *text,
                      donated};
      if (totals.failures == 1)
        std::printf("--- graph\n%s--- rewrite\n%s---\n%s", text->c_str(), run.rewritten.c_str(),
                    failureDetails(failure, config.trials).c_str());
      if (!config.keepDir.empty()) {
        // Written as found first: a rewrite may crash libtorch while it is minimised (a custom
        // op's mutable argument with the negative bit: the math-bit fallback frees what it uses).
        writeFailure(config.keepDir, failure, config.trials);
        if (config.minimize) {
          failure = minimize(failure, config.trials, interrupted);
          writeFailure(config.keepDir, failure, config.trials);
        }
      }
      stop = !config.keepGoing;
    }
    std::fflush(stdout);
    if (stop)
      break;
    auto now = std::chrono::steady_clock::now();
    if (config.unlimited && now - lastProgress > std::chrono::seconds(10)) {
      lastProgress = now;
      double seconds = std::chrono::duration<double>(now - start).count();
      std::printf("seed %llu: %zu graphs (%.0f/s), %zu calls, %zu rewritten, failures %zu\n",
                  static_cast<unsigned long long>(seed), totals.graphs, totals.graphs / seconds,
                  totals.stats[Alone].calls, totals.stats[Alone].rewritten, totals.failures);
      std::fflush(stdout);
    }
  }
  printSummary(totals,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return totals.failures ? 1 : 0;
}

} // namespace declone::fuzz
