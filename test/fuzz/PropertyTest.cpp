// Property test: on random graphs, every safe-mode rewrite verifies against the original (run
// with libtorch on the same inputs and donation); vllm-mode failures are counted by the kind of
// their first difference, and the smallest failing graph of each kind is kept and minimised.
#include "DefunctionalizationProperty.h"
#include "Minimize.h"
#include "RandomGraph.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/runtime/Executor.h"
#include "declone/transforms/CloneElimination.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace declone;

volatile std::sig_atomic_t interrupted = 0;

void onInterrupt(int) {
  interrupted = 1;
}

struct Config : fuzz::PropertyRun {
  bool coverage = false;
  bool print = false;
  std::vector<std::string> check; ///< --check FILE...
  bool defunctionalize = false;   ///< the defunctionalization property instead
  bool shrink = false;            ///< verify at the smallest sizes a plan allows
  bool listFailures = false;      ///< print each vllm failure's seed and class
  std::optional<unsigned> functionalWeight;
};

void usage(FILE* out) {
  std::fputs(
      "usage: declone_property_test [--seeds FIRST:COUNT] [--unlimited] [--keep-failures DIR]\n"
      "                             [--trials N] [--strip-chance P] [--max-statements N]\n"
      "                             [--max-inputs N] [--offset-chance P]\n"
      "                             [--no-minimize] [--coverage] [--print] [--keep-going]\n"
      "                             [--defunctionalize] [--functional-weight N] [--shrink]\n"
      "                             [--list-failures]\n"
      "       declone_property_test --check FILE...\n"
      "Generates random FX graphs, runs clone elimination in safe and vllm mode with a random\n"
      "donation, and verifies each rewrite with libtorch. Exit status: 0 when every safe\n"
      "rewrite verified, 1 on a safe-mode failure, 2 on a generator bug or bad usage.\n"
      "--print writes the generated graphs (with their seed and donation) and runs nothing.\n"
      "--keep-going counts safe failures instead of stopping at the first (exit status 1).\n"
      "--keep-failures DIR writes the smallest failing graph of each kind, minimised, as\n"
      "DIR/vllm-CLASS.fx or DIR/safe-CLASS.fx; with --keep-going also every safe failure, as\n"
      "DIR/safe-seed-SEED.fx.\n"
      "--check re-verifies kept failures: FILE is vllm-CLASS.fx, its '# Donated placeholders:'\n"
      "and 'seed N' comments give the donation and inputs; the safe rewrite must verify and\n"
      "the vllm rewrite must fail with CLASS. Exit status 1 if one does not.\n"
      "--defunctionalize checks the defunctionalization pass instead, alone and in both orders\n"
      "with safe clone elimination, on graphs with the functionalized-call family weighted in\n"
      "(--functional-weight, 40 by default there, 0 otherwise, against 99 for the others); its\n"
      "failures are kept as DIR/defunc-ORDER-KIND-seed-SEED.fx.\n"
      "--shrink verifies every rewrite with its sizes shrunk as far as verify's plan allows\n"
      "(budget 0, no size below 2), to compare the failures found with those at the sizes\n"
      "generated: shrinking must not hide one. --list-failures prints each vllm failure's\n"
      "seed and class, to compare two runs.\n",
      out);
}

/// The kinds of first difference, as the verifier words them.
/// "run-error": the rewrite no longer runs (the original does), e.g. an out= write that now
/// overlaps its input; verify reports it as a difference ("the rewrite raises ...").
constexpr std::array<std::string_view, 8> kClasses = {
    "values",         "stride",   "storage-offset", "size",
    "input-mutation", "aliasing", "run-error",      "other"};

size_t classify(std::string_view difference) {
  auto has = [&](std::string_view word) { return difference.find(word) != std::string_view::npos; };
  if (difference.starts_with("cannot run: ") ||
      difference.starts_with("the rewrite raises where the original does not"))
    return 6;
  if (difference.starts_with("input "))
    return 4;
  if (has(": aliases "))
    return 5;
  if (has(": storage offset "))
    return 2;
  if (has(": stride "))
    return 1;
  if (has(": size "))
    return 3;
  if (has(": values differ"))
    return 0;
  return 7;
}

struct ModeRun {
  CloneEliminationResult result;
  runtime::Verdict verdict;
  std::string rewritten;
  bool runError = false; ///< verify failed to run a graph
};

/// One graph, both modes. An error is a graph that cannot run (or parse).
struct Evaluation {
  ModeRun safe, vllm;
  size_t nodes = 0;
};

/// --shrink: the budget every verification runs with (verify's default otherwise, which the
/// generated graphs' small sizes always fit). Set once by main, before any graph.
std::optional<ShrinkBudget> forcedShrink;

/// Verification options for a graph and its donation.
runtime::VerifyOptions verifyOptions(uint64_t seed, unsigned trials,
                                     const std::vector<bool>& donated) {
  runtime::VerifyOptions options;
  options.seed = seed;
  options.trials = trials;
  options.donated = donated;
  options.kernels = &fuzz::generatedGraphKernels();
  if (forcedShrink)
    options.budget = *forcedShrink;
  return options;
}

Result<ModeRun> runMode(const Graph& original, std::string_view text, CloneEliminationMode mode,
                        const std::vector<bool>& donated, uint64_t seed, unsigned trials) {
  auto file = readGraphFile(text);
  if (!file.ok())
    return Error{"the graph does not parse: " + file.error().format("<graph>")};
  ModeRun run;
  CloneEliminationOptions options;
  options.mode = mode;
  options.donated = donated;
  run.result = eliminateClones(*(*file)->modules.front(), options);
  run.rewritten = writeGraphFile(**file);
  auto verdict = runtime::verify(original, (*file)->modules.front()->graph,
                                 verifyOptions(seed, trials, donated));
  if (verdict.ok()) {
    run.verdict = std::move(verdict).value();
    return run;
  }
  // Either graph may be the one that cannot run; the caller tells which.
  run.verdict.equivalent = false;
  run.verdict.difference = "cannot run: " + verdict.error().format("<rewritten>");
  run.runError = true;
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
  auto safe = runMode(graph, text, CloneEliminationMode::Safe, donated, seed, trials);
  if (!safe.ok())
    return safe.error();
  evaluation.safe = std::move(safe).value();
  // vLLM 0.32's pass, whose holes regressions/ keeps; 0.33's are measured against the real
  // vLLM by test/vllm/test_soundness.py.
  auto vllm = runMode(graph, text, CloneEliminationMode::Vllm032, donated, seed, trials);
  if (!vllm.ok())
    return vllm.error();
  evaluation.vllm = std::move(vllm).value();
  if (evaluation.safe.runError || evaluation.vllm.runError) {
    // A rewrite that cannot run is a failure of its pass; an original that cannot run is a
    // generator bug.
    auto itself = runtime::verify(graph, graph, verifyOptions(seed, trials, donated));
    if (!itself.ok())
      return Error{"the graph cannot run: " + itself.error().format("<graph>")};
  }
  return evaluation;
}

using fuzz::donatedText;
using fuzz::randomDonation;

/// Each rewrite's first difference; empty when it verified.
struct Outcome {
  std::string safe, vllm;
};

Outcome outcomeOf(const Evaluation& evaluation) {
  return {evaluation.safe.verdict.equivalent ? std::string() : evaluation.safe.verdict.difference,
          evaluation.vllm.verdict.equivalent ? std::string() : evaluation.vllm.verdict.difference};
}

struct Failure {
  uint64_t seed = 0;
  size_t nodes = 0;
  size_t originalNodes = 0;
  std::string text;
  std::vector<bool> donated;
  std::string difference;
};

/// One mode's failures: counts per class and the smallest graph of each.
struct FailureTable {
  size_t total = 0;
  std::array<size_t, kClasses.size()> byClass{};
  std::array<std::optional<Failure>, kClasses.size()> smallest{};

  /// Counts a failure; true when it is the smallest of its class so far.
  bool add(uint64_t seed, size_t nodes, const std::string& text, const std::vector<bool>& donated,
           const std::string& difference) {
    ++total;
    size_t cls = classify(difference);
    ++byClass[cls];
    if (smallest[cls] && smallest[cls]->nodes <= nodes)
      return false;
    smallest[cls] = Failure{seed, nodes, nodes, text, donated, difference};
    return true;
  }
};

struct Totals {
  size_t graphs = 0;
  size_t clones = 0;
  size_t safeRemoved = 0;
  size_t vllmRemoved = 0;
  std::array<size_t, kNumKeepReasons> safeKept{};
  /// Clones vllm removes and safe keeps, by the safe pass's reason.
  std::array<size_t, kNumKeepReasons> vllmOnly{};
  FailureTable safe, vllm;
  std::map<std::string, size_t> ops;
  size_t shrunkRuns = 0; ///< verifications that ran at smaller sizes than generated
};

void reportSafeFailure(uint64_t seed, const std::vector<bool>& donated, std::string_view text,
                       const ModeRun& safe) {
  std::printf("SAFE FAILURE at seed %llu (donated: %s)\ndifference: %s\n--- graph\n%s"
              "--- safe rewrite\n%s---\n",
              static_cast<unsigned long long>(seed), donatedText(donated).c_str(),
              safe.verdict.difference.c_str(), std::string(text).c_str(), safe.rewritten.c_str());
  for (const Remark& remark : safe.result.remarks)
    std::printf("%s\n", remark.formatText("<graph>").c_str());
  std::fflush(stdout);
}

/// Greedy reduction (fuzz::minimizeGraph) while the graph still fails the same way: for a vllm
/// failure, the vllm rewrite with a difference of the same class and the safe rewrite verifying;
/// for a safe failure, the safe rewrite with a difference of the same class.
Failure minimize(Failure failure, bool safeMode, size_t cls, unsigned trials) {
  auto stillFails = [&](const std::string& text, const std::vector<bool>& donated) {
    auto evaluation = evaluate(text, donated, failure.seed, trials);
    if (!evaluation.ok())
      return false;
    Outcome outcome = outcomeOf(*evaluation);
    const std::string& found = safeMode ? outcome.safe : outcome.vllm;
    if ((!safeMode && !outcome.safe.empty()) || found.empty() || classify(found) != cls)
      return false;
    failure.difference = found;
    failure.nodes = evaluation->nodes;
    return true;
  };
  fuzz::minimizeGraph(failure.text, failure.donated, stillFails, interrupted);
  return failure;
}

std::string fileStem(bool safeMode, size_t cls) {
  return std::string(safeMode ? "safe-" : "vllm-") + std::string(kClasses[cls]);
}

/// `# ` comment lines for a kept failure: where it came from, the donation, which clones the
/// failing pass removes (for vllm: those the safe pass keeps, with its reason), and the
/// difference.
std::string failureHeader(const Failure& failure, bool safeMode, size_t cls, std::string_view text,
                          unsigned trials) {
  std::string header = "# " + fileStem(safeMode, cls) + ": found by declone_property_test, seed " +
                       std::to_string(failure.seed) + " (" + std::to_string(failure.originalNodes) +
                       " nodes before minimising, " + std::to_string(failure.nodes) + " after).\n";
  header += "# Donated placeholders: " + donatedText(failure.donated) + ".\n";
  std::string difference = failure.difference;
  auto evaluation = evaluate(text, failure.donated, failure.seed, trials);
  if (evaluation.ok()) {
    const ModeRun& failing = safeMode ? evaluation->safe : evaluation->vllm;
    if (!failing.verdict.equivalent)
      difference = failing.verdict.difference; // with this text's line numbers
    const auto& safe = evaluation->safe.result.remarks;
    const auto& vllm = evaluation->vllm.result.remarks;
    for (size_t i = 0; i < vllm.size() && i < safe.size(); ++i) {
      if (safeMode && safe[i].decision == Remark::Decision::Removed)
        header += "# The safe pass removes '" + safe[i].node + "'" +
                  (safe[i].detail.empty() ? "" : ": " + safe[i].detail) + "\n";
      if (!safeMode && vllm[i].decision == Remark::Decision::Removed &&
          safe[i].decision == Remark::Decision::Kept)
        header += "# vLLM's pass removes '" + vllm[i].node + "'; the safe pass keeps it [" +
                  safe[i].reason.value_or("?") + "]: " + safe[i].detail + "\n";
    }
  }
  header +=
      std::string("# After the ") + (safeMode ? "safe" : "vllm") + " rewrite: " + difference + "\n";
  return header;
}

void writeFailure(const std::string& dir, const Failure& failure, bool safeMode, size_t cls,
                  unsigned trials, const std::string& stem = {}) {
  // Remark line numbers count the header, whose length does not depend on them.
  std::string header = failureHeader(failure, safeMode, cls, failure.text, trials);
  header = failureHeader(failure, safeMode, cls, header + failure.text, trials);
  std::filesystem::create_directories(dir);
  std::string path = dir + "/" + (stem.empty() ? fileStem(safeMode, cls) : stem) + ".fx";
  std::ofstream out(path, std::ios::binary);
  out << header << failure.text;
  std::printf("wrote %s (%zu nodes, seed %llu)\n", path.c_str(), failure.nodes,
              static_cast<unsigned long long>(failure.seed));
}

void countOps(std::string_view text, Totals& totals) {
  auto file = readGraphFile(text);
  if (!file.ok())
    return;
  for (const Node* node : (*file)->modules.front()->graph) {
    if (!node->isCall())
      continue;
    std::string name(node->target()->qualifiedName);
    if (name.starts_with("torch.ops.aten."))
      name = name.substr(15);
    if (node->target()->isOp("aten", "clone")) {
      const Arg* format = node->kwarg("memory_format");
      name += format ? "(" + std::string(format->text()) + ")" : "()";
    }
    if (node->target()->isHigherOrder() && !node->args().empty() &&
        node->args()[0].kind == ArgKind::OpRef)
      name = std::string(node->target()->opName) + "(" +
             std::string(node->args()[0].op->qualifiedName.substr(10)) + ")";
    else if (node->kwarg("out"))
      name += "(out=)";
    ++totals.ops[name];
  }
}

void printTable(const char* title, const FailureTable& table, bool allClasses) {
  std::printf("%-52s %8zu\n", title, table.total);
  for (size_t i = 0; i < kClasses.size(); ++i) {
    std::string smallest;
    if (table.smallest[i])
      smallest = "  (smallest: seed " + std::to_string(table.smallest[i]->seed) + ", " +
                 std::to_string(table.smallest[i]->nodes) + " nodes)";
    if (table.byClass[i] || allClasses)
      std::printf("  %-50s %8zu%s\n", std::string(kClasses[i]).c_str(), table.byClass[i],
                  smallest.c_str());
  }
}

void printSummary(const Totals& totals, const Config& config) {
  std::printf("\n%-52s %8zu\n", "graphs tried", totals.graphs);
  std::printf("%-52s %8zu\n", "verifications at shrunk sizes", totals.shrunkRuns);
  std::printf("%-52s %8zu\n", "clones seen", totals.clones);
  std::printf("%-52s %8zu\n", "removed by safe", totals.safeRemoved);
  for (size_t i = 0; i < kNumKeepReasons; ++i)
    std::printf(
        "  %-50s %8zu\n",
        ("kept by safe [" + std::string(reasonCode(static_cast<KeepReason>(i))) + "]").c_str(),
        totals.safeKept[i]);
  std::printf("%-52s %8zu\n", "removed by vllm", totals.vllmRemoved);
  for (size_t i = 0; i < kNumKeepReasons; ++i)
    if (totals.vllmOnly[i])
      std::printf(
          "  %-50s %8zu\n",
          ("of which safe keeps [" + std::string(reasonCode(static_cast<KeepReason>(i))) + "]")
              .c_str(),
          totals.vllmOnly[i]);
  printTable("safe failures", totals.safe, false);
  printTable("vllm failures", totals.vllm, true);
  if (config.coverage) {
    std::printf("\nops over all graphs:\n");
    for (const auto& [name, count] : totals.ops)
      std::printf("  %-50s %8zu\n", name.c_str(), count);
  }
}

/// Re-verifies kept failures (see usage()). Returns the exit status.
int checkFiles(const std::vector<std::string>& paths, unsigned trials) {
  int status = 0;
  for (const std::string& path : paths) {
    auto fail = [&](const std::string& message) {
      std::printf("FAIL %s: %s\n", path.c_str(), message.c_str());
      status = std::max(status, 1);
    };
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      fail("cannot read the file");
      continue;
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string stem = std::filesystem::path(path).stem().string();
    auto cls = std::find(kClasses.begin(), kClasses.end(),
                         std::string_view(stem).substr(std::min<size_t>(5, stem.size())));
    if (!stem.starts_with("vllm-") || cls == kClasses.end()) {
      fail("the name is not vllm-CLASS.fx with a known class");
      continue;
    }
    // The header: `# Donated placeholders: 0,2.` (or `none.`) and `seed N`.
    std::vector<size_t> donatedIndices;
    uint64_t seed = 1;
    for (size_t start = 0; start < text.size() && text[start] == '#';) {
      size_t end = text.find('\n', start);
      std::string line = text.substr(start, end - start);
      start = end == std::string::npos ? text.size() : end + 1;
      constexpr std::string_view kDonated = "# Donated placeholders: ";
      if (line.starts_with(kDonated)) {
        for (size_t at = kDonated.size(); at < line.size();) {
          if (std::isdigit(static_cast<unsigned char>(line[at]))) {
            size_t used = 0;
            donatedIndices.push_back(std::stoul(line.substr(at), &used));
            at += used;
          } else {
            ++at;
          }
        }
      }
      size_t at = line.find("seed ");
      if (at != std::string::npos && at + 5 < line.size() &&
          std::isdigit(static_cast<unsigned char>(line[at + 5])))
        seed = std::stoull(line.substr(at + 5));
    }
    auto parsed = readGraphFile(text);
    if (!parsed.ok()) {
      fail(parsed.error().format(path));
      continue;
    }
    std::vector<bool> donated(parsed.value()->modules.front()->graph.placeholders().size());
    for (size_t index : donatedIndices)
      if (index < donated.size())
        donated[index] = true;
    auto evaluation = evaluate(text, donated, seed, trials);
    if (!evaluation.ok()) {
      fail(evaluation.error().message);
      continue;
    }
    Outcome outcome = outcomeOf(*evaluation);
    if (!outcome.safe.empty()) {
      fail("the safe rewrite differs: " + outcome.safe);
      continue;
    }
    if (outcome.vllm.empty()) {
      fail("the vllm rewrite verifies; expected a " + std::string(*cls) + " difference");
      continue;
    }
    if (kClasses[classify(outcome.vllm)] != *cls) {
      fail("expected a " + std::string(*cls) + " difference, got: " + outcome.vllm);
      continue;
    }
    std::printf("ok   %s: %s\n", path.c_str(), outcome.vllm.c_str());
  }
  return status;
}

bool parseArguments(int argc, char** argv, Config& config) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--seeds") {
      const char* text = value();
      unsigned long long first = 0, count = 0;
      if (!text || std::sscanf(text, "%llu:%llu", &first, &count) != 2)
        return false;
      config.first = first;
      config.count = count;
    } else if (arg == "--unlimited") {
      config.unlimited = true;
    } else if (arg == "--keep-failures") {
      const char* text = value();
      if (!text)
        return false;
      config.keepDir = text;
    } else if (arg == "--trials") {
      const char* text = value();
      if (!text)
        return false;
      config.trials = static_cast<unsigned>(std::max(1, std::atoi(text)));
    } else if (arg == "--strip-chance") {
      const char* text = value();
      if (!text)
        return false;
      config.graph.strippedGraphChance = std::atof(text);
    } else if (arg == "--max-statements") {
      const char* text = value();
      if (!text)
        return false;
      config.graph.maxStatements = static_cast<size_t>(std::max(1, std::atoi(text)));
      config.graph.minStatements = std::min(config.graph.minStatements, config.graph.maxStatements);
    } else if (arg == "--offset-chance") {
      const char* text = value();
      if (!text)
        return false;
      config.graph.inferredOffsetChance = std::atof(text);
    } else if (arg == "--max-inputs") {
      const char* text = value();
      if (!text)
        return false;
      config.graph.maxInputs = static_cast<size_t>(std::max(1, std::atoi(text)));
    } else if (arg == "--defunctionalize") {
      config.defunctionalize = true;
    } else if (arg == "--functional-weight") {
      const char* text = value();
      if (!text)
        return false;
      config.functionalWeight = static_cast<unsigned>(std::max(0, std::atoi(text)));
    } else if (arg == "--shrink") {
      config.shrink = true;
    } else if (arg == "--list-failures") {
      config.listFailures = true;
    } else if (arg == "--no-minimize") {
      config.minimize = false;
    } else if (arg == "--keep-going") {
      config.keepGoing = true;
    } else if (arg == "--coverage") {
      config.coverage = true;
    } else if (arg == "--print") {
      config.print = true;
    } else if (arg == "--check") {
      while (i + 1 < argc)
        config.check.emplace_back(argv[++i]);
      if (config.check.empty())
        return false;
    } else if (arg == "--help" || arg == "-h") {
      usage(stdout);
      std::exit(0);
    } else {
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char** argv) {
  Config config;
  config.graph.strippedGraphChance = 0.1;
  config.graph.inferredOffsetChance = 0.3;
  config.graph.liveAnnotationChance = 0.2;
  if (!parseArguments(argc, argv, config)) {
    usage(stderr);
    return 2;
  }
  if (!config.check.empty())
    return checkFiles(config.check, config.trials);
  config.graph.functionalWeight = config.functionalWeight.value_or(config.defunctionalize ? 40 : 0);
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
  if (config.shrink)
    forcedShrink = ShrinkBudget{0, 0, 2};
  if (config.defunctionalize && !config.print) {
    return fuzz::runDefunctionalizationProperty(config, interrupted);
  }
  Totals totals;
  auto start = std::chrono::steady_clock::now();
  auto lastProgress = start;
  for (uint64_t seed = config.first;
       !interrupted && (config.unlimited || seed - config.first < config.count); ++seed) {
    Result<std::string> text = fuzz::tryRandomGraphText(seed, config.graph);
    if (!text.ok()) {
      std::printf("GENERATOR BUG at seed %llu: %s\n--- skeleton\n%s",
                  static_cast<unsigned long long>(seed), text.error().message.c_str(),
                  fuzz::randomGraphSkeleton(seed, config.graph).c_str());
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
    if (config.print) {
      std::printf("# seed %llu, donated: %s\n%s\n", static_cast<unsigned long long>(seed),
                  donatedText(donated).c_str(), text->c_str());
      continue;
    }
    auto evaluation = evaluate(*text, donated, seed, config.trials);
    if (!evaluation.ok()) {
      std::printf("GENERATOR BUG at seed %llu (donated: %s): %s\n--- graph\n%s",
                  static_cast<unsigned long long>(seed), donatedText(donated).c_str(),
                  evaluation.error().message.c_str(), text->c_str());
      return 2;
    }
    ++totals.graphs;
    if (config.coverage)
      countOps(*text, totals);
    const CloneEliminationStats& safeStats = evaluation->safe.result.stats;
    totals.clones += safeStats.clones;
    totals.safeRemoved += safeStats.removed;
    for (size_t i = 0; i < kNumKeepReasons; ++i)
      totals.safeKept[i] += safeStats.kept[i];
    totals.vllmRemoved += evaluation->vllm.result.stats.removed;
    for (const ModeRun* run : {&evaluation->safe, &evaluation->vllm})
      totals.shrunkRuns += run->verdict.sizes.empty() ? 0 : 1;
    const auto& safeRemarks = evaluation->safe.result.remarks;
    const auto& vllmRemarks = evaluation->vllm.result.remarks;
    for (size_t i = 0; i < safeRemarks.size() && i < vllmRemarks.size(); ++i)
      if (safeRemarks[i].node == vllmRemarks[i].node &&
          safeRemarks[i].decision == Remark::Decision::Kept &&
          vllmRemarks[i].decision == Remark::Decision::Removed)
        for (size_t reason = 0; reason < kNumKeepReasons; ++reason)
          if (safeRemarks[i].reason == reasonCode(static_cast<KeepReason>(reason)))
            ++totals.vllmOnly[reason];
    Outcome outcome = outcomeOf(*evaluation);
    if (!outcome.safe.empty()) {
      if (totals.safe.total == 0 || !config.keepGoing)
        reportSafeFailure(seed, donated, *text, evaluation->safe);
      else
        std::printf("SAFE FAILURE at seed %llu (donated: %s): %s\n",
                    static_cast<unsigned long long>(seed), donatedText(donated).c_str(),
                    outcome.safe.c_str());
      totals.safe.add(seed, evaluation->nodes, *text, donated, outcome.safe);
      if (!config.keepGoing)
        break;
      if (!config.keepDir.empty()) {
        // Each safe failure of a --keep-going run, minimised, to sort by cause.
        size_t cls = classify(outcome.safe);
        Failure failure{seed, evaluation->nodes, evaluation->nodes, *text, donated, outcome.safe};
        if (config.minimize)
          failure = minimize(failure, true, cls, config.trials);
        writeFailure(config.keepDir, failure, true, cls, config.trials,
                     "safe-seed-" + std::to_string(seed));
      }
    }
    if (!outcome.vllm.empty() && config.listFailures)
      std::printf("vllm failure at seed %llu: %s\n", static_cast<unsigned long long>(seed),
                  std::string(kClasses[classify(outcome.vllm)]).c_str());
    if (!outcome.vllm.empty() &&
        totals.vllm.add(seed, evaluation->nodes, *text, donated, outcome.vllm) &&
        !config.keepDir.empty() && config.unlimited)
      writeFailure(config.keepDir, *totals.vllm.smallest[classify(outcome.vllm)], false,
                   classify(outcome.vllm), config.trials);
    auto now = std::chrono::steady_clock::now();
    if (config.unlimited && now - lastProgress > std::chrono::seconds(10)) {
      lastProgress = now;
      double seconds = std::chrono::duration<double>(now - start).count();
      std::printf("seed %llu: %zu graphs (%.0f/s), %zu clones, safe failures %zu, vllm "
                  "failures %zu\n",
                  static_cast<unsigned long long>(seed), totals.graphs, totals.graphs / seconds,
                  totals.clones, totals.safe.total, totals.vllm.total);
      std::fflush(stdout);
    }
  }
  if (config.print)
    return 0;
  if (!config.keepDir.empty()) {
    interrupted = 0; // an interrupted run still writes what it found
    for (bool safeMode : {true, false}) {
      const FailureTable& table = safeMode ? totals.safe : totals.vllm;
      for (size_t cls = 0; cls < kClasses.size(); ++cls) {
        if (!table.smallest[cls])
          continue;
        Failure kept = *table.smallest[cls];
        if (config.minimize)
          kept = minimize(kept, safeMode, cls, config.trials);
        writeFailure(config.keepDir, kept, safeMode, cls, config.trials);
      }
    }
  }
  printSummary(totals, config);
  std::printf("(%.1f s)\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return totals.safe.total ? 1 : 0;
}
