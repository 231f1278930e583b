// `declone opt`: remove redundant clones, print the graph, report every decision.
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"

#include <cstdio>
#include <iostream>

namespace declone::cli {
namespace {

/// --stats with --remarks=json: one JSON object, so that standard error stays JSON Lines.
std::string statsJson(const CloneEliminationStats& stats, CloneEliminationMode mode) {
  auto field = [](std::string_view name, uint64_t value) {
    return "\"" + std::string(name) + "\": " + std::to_string(value);
  };
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

void printStats(const CloneEliminationStats& stats, CloneEliminationMode mode) {
  auto row = [](uint64_t value, std::string_view what) {
    std::fprintf(stderr, "%12llu  %.*s\n", static_cast<unsigned long long>(value),
                 static_cast<int>(what.size()), what.data());
  };
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
  std::string output, remarks, dot;
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
  if (!flags.prepare())
    return kBadInput;
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
  for (auto& module : file->modules) {
    Result<CloneEliminationOptions> options = flags.optionsFor(*module);
    if (!options.ok()) {
      reportUsageError(options.error().message);
      return kBadInput;
    }
    donations.push_back(options->donated);
    options->collectRemarks = !remarks.empty() || !dot.empty();
    CloneEliminationResult result = eliminateClones(*module, *options);
    total.stats += result.stats;
    std::move(result.remarks.begin(), result.remarks.end(), std::back_inserter(total.remarks));
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
  if (stats && remarks == "json")
    std::cerr << statsJson(total.stats, flags.parsedMode()) << '\n';
  else if (stats)
    printStats(total.stats, flags.parsedMode());
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
