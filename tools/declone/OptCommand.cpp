// `declone opt`: remove redundant clones, print the graph, report every decision.
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/transforms/Defunctionalization.h"

#include <cstdio>
#include <iostream>

namespace declone::cli {
namespace {

/// `"name": value`, a member of the --stats JSON objects.
std::string field(std::string_view name, uint64_t value) {
  return "\"" + std::string(name) + "\": " + std::to_string(value);
}

/// --stats with --remarks=json: one JSON object, so that standard error stays JSON Lines.
std::string statsJson(const CloneEliminationStats& stats, CloneEliminationMode mode) {
  std::string kept;
  for (size_t i = 0; i < kNumKeepReasons; ++i) {
    auto reason = static_cast<KeepReason>(i);
    if (reason == KeepReason::Unsupported && mode == CloneEliminationMode::Safe)
      continue;
    kept += (kept.empty() ? "" : ", ") + field(reasonCode(reason), stats.kept[i]);
  }
  return "{\"stats\": {" + field("clones", stats.clones) + ", " + field("removed", stats.removed) +
         ", " + field("dead", stats.dead) + ", \"kept\": {" + kept + "}, " +
         field("bytes_removed", stats.bytesRemoved) + ", " +
         field("removed_symbolic", stats.removedSymbolic) + "}}";
}

/// The copies part of --stats with --remarks=json.
std::string copyStatsJson(const DefunctionalizationStats& stats) {
  std::string kept;
  for (size_t i = 0; i < kNumCopyKeepReasons; ++i)
    kept += (kept.empty() ? "" : ", ") +
            field(reasonCode(static_cast<CopyKeepReason>(i)), stats.kept[i]);
  return "{\"copy_stats\": {" + field("calls", stats.calls) + ", " +
         field("rewritten", stats.rewritten) + ", " + field("copies", stats.copies) + ", " +
         field("avoided", stats.avoided) + ", \"kept\": {" + kept + "}, " +
         field("bytes_avoided", stats.bytesAvoided) + ", " +
         field("avoided_symbolic", stats.avoidedSymbolic) + "}}";
}

void printStatsRow(uint64_t value, std::string_view what) {
  std::fprintf(stderr, "%12llu  %.*s\n", static_cast<unsigned long long>(value),
               static_cast<int>(what.size()), what.data());
}

void printCopyStats(const DefunctionalizationStats& stats) {
  printStatsRow(stats.calls, "functionalized calls seen");
  printStatsRow(stats.rewritten, "calls rewritten in place");
  printStatsRow(stats.copies, "copies they imply");
  printStatsRow(stats.avoided, "copies avoided");
  for (size_t i = 0; i < kNumCopyKeepReasons; ++i) {
    auto reason = static_cast<CopyKeepReason>(i);
    printStatsRow(stats.kept[i], "copies kept [" + std::string(reasonCode(reason)) + "]");
  }
  printStatsRow(stats.bytesAvoided, "bytes of copying avoided (static sizes)");
  printStatsRow(stats.avoidedSymbolic, "avoided copies with symbolic sizes (bytes not counted)");
}

void printStats(const CloneEliminationStats& stats, CloneEliminationMode mode) {
  auto row = printStatsRow;
  std::fprintf(stderr, "=== declone statistics ===\n");
  row(stats.clones, "clones seen");
  row(stats.removed, "clones removed");
  row(stats.dead, "  of which dead (no users)");
  for (size_t i = 0; i < kNumKeepReasons; ++i) {
    auto reason = static_cast<KeepReason>(i);
    if (reason == KeepReason::Unsupported && mode == CloneEliminationMode::Safe)
      continue; // a code of vllm mode only
    row(stats.kept[i], "clones kept [" + std::string(reasonCode(reason)) + "]");
  }
  row(stats.bytesRemoved, "bytes of copying removed (static sizes)");
  row(stats.removedSymbolic, "removed clones with symbolic sizes (bytes not counted)");
}

} // namespace

int runOpt(std::span<const std::string_view> args) {
  std::vector<std::string> inputs;
  std::string output, remarks, dot, order;
  bool stats = false, verify = false;
  CloneFlags flags;
  ArgumentParser parser("opt", "Remove redundant aten.clone nodes and write the optimized graph.\n"
                               "Remarks and statistics go to standard error.");
  parser.positional("FILE|-",
                    "graph text to read ('-' for standard input), or one graph of a\n"
                    "                          TORCH_TRACE or TORCH_LOGS log: LOG#NAME[:LINE]",
                    &inputs, 1, 1);
  parser.option("-o|--output", "OUT", "write the graph to OUT instead of standard output", &output);
  flags.addTo(parser);
  parser.optionalValue("--remarks", "text|json", "report every clone decision (default: text)",
                       &remarks, "text");
  parser.flag("--stats",
              "print counts per decision and reason, and the bytes saved (one JSON object\n"
              "                          after the remarks with --remarks=json)",
              &stats);
  parser.option("--dot", "OUT.dot",
                "write the graph as read to OUT.dot for Graphviz, clones coloured by decision",
                &dot);
  parser.optionalValue(
      "--defunctionalize", "clones-first|copies-first",
      "also write functionalized mutating calls (auto_functionalized, ..._v2,\n"
      "                          triton_kernel_wrapper_functional) in place where their copies\n"
      "                          are not needed; after clone elimination (clones-first, the\n"
      "                          default, as vLLM orders them) or before it (copies-first)",
      &order, "clones-first");
  parser.flag("--verify",
              "run the graph before and after with libtorch; exit 1 instead of writing a\n"
              "                          rewrite that is not equivalent",
              &verify);
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  if (!remarks.empty() && remarks != "text" && remarks != "json") {
    reportUsageError("--remarks must be 'text' or 'json', not '" + remarks + "'");
    return kBadInput;
  }
  if (dot == "-" && (output.empty() || output == "-")) {
    reportUsageError("--dot - and the graph would both go to standard output; write the graph "
                     "elsewhere with -o FILE, or the picture with --dot FILE");
    return kBadInput;
  }
  std::optional<PassOrder> passOrder;
  if (!order.empty() && !(passOrder = parseOrder(order))) {
    reportUsageError("--defunctionalize takes 'clones-first' or 'copies-first', not '" + order +
                     "'");
    return kBadInput;
  }
  if (!flags.prepare())
    return kBadInput;
  if (passOrder && flags.parsedMode() != CloneEliminationMode::Safe) {
    reportUsageError("--defunctionalize runs with --mode safe only: vLLM's own counterpart is "
                     "FixFunctionalizationPass, which declone does not reproduce");
    return kBadInput;
  }
  std::string text;
  // The text is only needed again to verify or draw; copying it otherwise costs a second input.
  bool keepText = verify || !dot.empty();
  InputLocation where;
  std::unique_ptr<GraphFile> file = loadGraphFile(inputs[0], keepText ? &text : nullptr, &where);
  if (!file)
    return kBadInput;
  warnMisspelledOps(*file, flags.schemas(), where);
  std::vector<std::vector<bool>> donations;

  CloneEliminationResult total;
  DefunctionalizationResult copies;
  for (auto& module : file->modules) {
    Result<CloneEliminationOptions> options = flags.optionsFor(*module);
    if (!options.ok()) {
      reportUsageError(options.error().message);
      return kBadInput;
    }
    donations.push_back(options->donated);
    options->collectRemarks = !remarks.empty() || !dot.empty();
    CopyEliminationResult result;
    if (passOrder)
      result = eliminateCopies(*module, *options, *passOrder);
    else
      result.clones = eliminateClones(*module, *options);
    total.stats += result.clones.stats;
    copies.stats += result.copies.stats;
    // In the order the passes ran.
    auto& first =
        passOrder == PassOrder::CopiesFirst ? result.copies.remarks : result.clones.remarks;
    auto& second =
        passOrder == PassOrder::CopiesFirst ? result.clones.remarks : result.copies.remarks;
    for (auto* remarksOfPass : {&first, &second})
      std::move(remarksOfPass->begin(), remarksOfPass->end(), std::back_inserter(total.remarks));
  }

  std::string name = displayName(inputs[0]);
  if (!remarks.empty()) {
    // The picture finds clones by their graph lines; the printed remarks name the input's.
    std::vector<Remark> shown = dot.empty() ? std::move(total.remarks) : total.remarks;
    where.locate(shown, file->context->source());
    for (const Remark& remark : shown)
      std::cerr << (remarks == "json" ? remark.formatJson() : remark.formatText(where.name))
                << '\n';
  }
  if (stats && remarks == "json") {
    std::cerr << statsJson(total.stats, flags.parsedMode()) << '\n';
    if (passOrder)
      std::cerr << copyStatsJson(copies.stats) << '\n';
  } else if (stats) {
    printStats(total.stats, flags.parsedMode());
    if (passOrder)
      printCopyStats(copies.stats);
  }
  if (!dot.empty())
    if (int status = writeDotPicture(dot, text, name, total.remarks, flags.schemas());
        status != kSuccess)
      return status;
  if (verify) {
    Result<std::unique_ptr<GraphFile>> original = readGraphFile(text);
    if (!original.ok())
      return kBadInput; // it parsed a moment ago
    if (int status = verifyRewrite(**original, *file, name, donations, flags.schemaFiles);
        status != kSuccess)
      return status;
  }
  return writeGraph(output, *file);
}

} // namespace declone::cli
