// `declone analyze`: for every clone, its source, storages, layouts, the accesses that matter
// and the decision, so that a user can see why.
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "declone/support/Remark.h"
#include "declone/transforms/AnnotateLayouts.h"

#include <iostream>

namespace declone::cli {
namespace {

/// `graphLine`: the clone's line in the graph text, as the facts give lines; the remark's may
/// be a line of the log the graph came from.
std::string factsText(const Remark& remark, uint32_t graphLine, const DecisionFacts& facts,
                      std::string_view file) {
  std::string text = "clone " + remark.node;
  if (graphLine != 0)
    text += " (line " + std::to_string(graphLine) + ")";
  text += "\n  source:         " + facts.source + "\n";
  text += "  clone layout:   " + facts.cloneLayout + "\n";
  text += "  source layout:  " + facts.sourceLayout + "\n";
  text += "  clone storage:  " + facts.cloneStorage + "\n";
  for (const std::string& event : facts.cloneAccesses)
    text += "      " + event + "\n";
  text += "  source storage: " + facts.sourceStorage + "\n";
  for (const std::string& event : facts.sourceAccesses)
    text += "      " + event + "\n";
  return text + "  decision:       " + remark.formatText(file) + "\n\n";
}

/// One JSON object per clone: the remark's keys (node, line, decision, reason, detail, source,
/// code) and the facts.
std::string factsJson(const Remark& remark, const DecisionFacts& facts, std::string_view graph) {
  std::string text = remark.formatJson();
  text.pop_back(); // the closing brace: the facts follow
  auto field = [&](std::string_view key, std::string_view value) {
    text += ", \"" + std::string(key) + "\": ";
    appendJsonString(value, text);
  };
  auto list = [&](std::string_view key, const std::vector<std::string>& values) {
    text += ", \"" + std::string(key) + "\": [";
    for (size_t i = 0; i < values.size(); ++i) {
      if (i)
        text += ", ";
      appendJsonString(values[i], text);
    }
    text += "]";
  };
  field("graph", graph);
  field("source_node", facts.source);
  field("clone_layout", facts.cloneLayout);
  field("source_layout", facts.sourceLayout);
  field("clone_storage", facts.cloneStorage);
  list("clone_accesses", facts.cloneAccesses);
  field("source_storage", facts.sourceStorage);
  list("source_accesses", facts.sourceAccesses);
  return text + "}\n";
}

/// `where` and `source` place the remarks in the input (InputLocation::locate). The module's
/// graph is decided as opt decides it (its subgraphs summarised first), then each subgraph's.
void analyzeModule(GraphModule& module, const CloneEliminationOptions& options,
                   const InputLocation& where, std::string_view source, bool json, std::string& out,
                   std::vector<Remark>& remarks) {
  CloneEliminationOptions thisGraph = options;
  thisGraph.collectRemarks = true;
  thisGraph.collectFacts = true;
  thisGraph.includeSubgraphs = false;
  CloneEliminationResult result = eliminateClones(module, thisGraph);
  if (!module.className.empty() && !json)
    out += "graph " + std::string(module.className) + ":\n";
  std::vector<Remark> shown = result.remarks;
  where.locate(shown, source);
  for (size_t i = 0; i < shown.size(); ++i)
    out += json ? factsJson(shown[i], result.facts[i], module.className)
                : factsText(shown[i], result.remarks[i].line, result.facts[i], where.name);
  std::move(result.remarks.begin(), result.remarks.end(), std::back_inserter(remarks));
  CloneEliminationOptions nested = options;
  nested.donated.clear();
  for (auto& child : module.children)
    analyzeModule(*child, nested, where, source, json, out, remarks);
}

/// --check-annotations: one `FILE:LINE: warning:` line per contradiction, then a count.
int checkFileAnnotations(const GraphFile& file, const CloneFlags& flags, std::string_view name) {
  AnnotateLayoutsOptions options;
  options.schemas = &flags.schemas();
  options.layout = flags.layoutOptions();
  size_t conflicts = 0;
  for (const auto& module : file.modules) {
    for (const AnnotationConflict& conflict : checkAnnotations(*module, options)) {
      ++conflicts;
      std::cout << name << ':' << conflict.node->line() << ": warning: " << conflict.node->name()
                << " prints strides " << conflict.printed << ", but "
                << conflict.node->target()->qualifiedName << " gives " << conflict.inferred << '\n';
    }
  }
  std::cout << conflicts << (conflicts == 1 ? " annotation contradicts" : " annotations contradict")
            << " inference\n";
  return conflicts ? kDifference : kSuccess; // like verify: 1 when it found a difference
}

} // namespace

int runAnalyze(std::span<const std::string_view> args) {
  std::vector<std::string> inputs;
  std::string dot;
  CloneFlags flags;
  ArgumentParser parser("analyze",
                        "Show, for every clone, its source, both storages, their layouts, the\n"
                        "reads and writes after the clone, and the decision the pass makes.");
  parser.positional("FILE|-",
                    "graph text to read ('-' for standard input), or one graph of a\n"
                    "                          TORCH_TRACE or TORCH_LOGS log: LOG#NAME[:LINE]",
                    &inputs, 1, 1);
  flags.addTo(parser);
  parser.option("--dot", "OUT.dot",
                "also write the graph to OUT.dot for Graphviz, clones coloured by decision", &dot);
  bool json = false;
  parser.flag("--json",
              "one JSON object per clone and line: the keys of opt --remarks=json, and graph,\n"
              "                          source_node, clone_layout, source_layout,\n"
              "                          clone_storage, clone_accesses, source_storage,\n"
              "                          source_accesses",
              &json);
  bool checkOnly = false;
  parser.flag("--check-annotations",
              "instead, list the nodes whose printed strides contradict the strides inferred\n"
              "                          from their inputs (stale metadata, hand-edited dumps);\n"
              "                          exit status 1 when there are any",
              &checkOnly);
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  if (dot == "-") {
    reportUsageError("--dot - and the analysis would both go to standard output; write the "
                     "picture with --dot FILE");
    return kBadInput;
  }
  if (checkOnly && !dot.empty()) {
    reportUsageError("--check-annotations lists annotations and draws no picture; leave out --dot");
    return kBadInput;
  }
  if (checkOnly && json) {
    reportUsageError("--check-annotations writes warnings, not JSON; leave out --json");
    return kBadInput;
  }
  if (!flags.prepare())
    return kBadInput;
  std::string text;
  InputLocation where;
  std::unique_ptr<GraphFile> file = loadGraphFile(inputs[0], &text, &where);
  if (!file)
    return kBadInput;
  warnMisspelledOps(*file, flags.schemas(), where);
  if (checkOnly)
    return checkFileAnnotations(*file, flags, displayName(inputs[0]));
  std::string out;
  std::vector<Remark> remarks;
  for (auto& module : file->modules) {
    Result<CloneEliminationOptions> options = flags.optionsFor(*module);
    if (!options.ok()) {
      reportUsageError(options.error().message);
      return kBadInput;
    }
    analyzeModule(*module, *options, where, text, json, out, remarks);
  }
  if (out.empty() && !json)
    out = "no clones\n";
  std::cout << out;
  if (!dot.empty())
    return writeDotPicture(dot, text, displayName(inputs[0]), remarks, flags.schemas());
  return kSuccess;
}

} // namespace declone::cli
