// Graphviz output: nodes, def-use edges styled by effect, clones coloured by decision.
#include "declone/report/DotWriter.h"

#include "declone/analysis/AliasAnalysis.h"
#include "declone/analysis/OpModel.h"
#include "declone/io/Writer.h"
#include "declone/support/Lines.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace declone {
namespace {

constexpr std::string_view kRemovedColor = "#b8e6a8";
constexpr std::string_view kKeptColor = "#f4a6a6";
constexpr std::string_view kUndecidedColor = "#dddddd";
constexpr size_t kMaxLabelLine = 90;
constexpr size_t kMaxTooltipLine = 400;

/// A DOT double-quoted string. `\n` in `text` becomes a centred line break; control bytes
/// become spaces so that no input can break the syntax.
std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + '"';
}

std::string clip(std::string_view text, size_t limit) {
  if (text.size() <= limit)
    return std::string(text);
  // Cut at a UTF-8 character boundary.
  size_t cut = limit - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80)
    --cut;
  return std::string(text.substr(0, cut)) + "...";
}

/// A clone the passes decide about, with its input drawn as an edge.
bool isCloneNode(const Node* node) {
  return isClone(node) && !node->args().empty() && node->args()[0].isNode();
}

std::string targetText(const Node* node) {
  const Target& target = *node->target();
  switch (target.kind) {
  case Target::Kind::Op: {
    std::string text(target.opNamespace == "higher_order" ? "" : target.opNamespace);
    if (!text.empty())
      text += '.';
    text += target.opName;
    if (!target.overload.empty())
      text += "." + std::string(target.overload);
    // auto_functionalized(op, ...): the op is what a reader wants to see.
    if (!node->args().empty() && node->args()[0].kind == ArgKind::OpRef) {
      const Target& op = *node->args()[0].op;
      text += "\n(" + std::string(op.opNamespace) + "." + std::string(op.opName);
      if (!op.overload.empty())
        text += "." + std::string(op.overload);
      text += ")";
    }
    return text;
  }
  case Target::Kind::Function:
    if (target.isOperator("getitem") && node->args().size() == 2 &&
        node->args()[1].kind == ArgKind::Int)
      return "getitem [" + std::to_string(node->args()[1].integer) + "]";
    return std::string(target.qualifiedName);
  case Target::Kind::Method:
    return "." + std::string(target.qualifiedName) + "()";
  case Target::Kind::Module:
    return "self." + std::string(target.qualifiedName);
  }
  return std::string(target.qualifiedName);
}

std::string typeText(const Context& context, const TypeAnnotation& type) {
  if (type.kind == TypeAnnotation::Kind::None)
    return {};
  if (type.kind == TypeAnnotation::Kind::Other)
    return std::string(type.spelling);
  std::string out;
  writeTypeAnnotation(context, type, out);
  return out;
}

class DotBuilder {
public:
  DotBuilder(std::span<const Remark> remarks, const DotOptions& options) : options_(options) {
    for (const Remark& remark : remarks)
      remarks_.emplace(std::make_pair(remark.line, remark.node), &remark);
    std::string_view text = options.sourceText;
    for (size_t position = 0; position < text.size();) {
      size_t end = text.find('\n', position);
      if (end == std::string_view::npos)
        end = text.size();
      lines_.push_back(text.substr(position, end - position));
      position = end + 1;
    }
  }

  std::string build(const GraphFile& file) {
    out_ += "digraph " + quote(options_.fileName.empty() ? "graph" : options_.fileName) + " {\n";
    out_ += "  graph [fontname=\"Helvetica\", fontsize=11, labelloc=t, ranksep=0.35, "
            "nodesep=0.3];\n";
    out_ += "  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=\"rounded\", "
            "height=0.3];\n";
    out_ += "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#555555\", arrowsize=0.7];\n";
    for (const auto& module : file.modules)
      writeModule(*module, "  ");
    if (options_.legend)
      writeLegend();
    std::string title(options_.fileName);
    title += (title.empty() ? "" : ": ") + std::to_string(clones_) + " clones, " +
             std::to_string(removed_) + " removed, " + std::to_string(kept_) + " kept";
    if (!partialNotes_.empty())
      title += "\n" + partialNotes_;
    out_ += "  label=" + quote(title) + ";\n}\n";
    return std::move(out_);
  }

private:
  struct ModuleView {
    std::string prefix; ///< node ids are PREFIX + order
    std::vector<bool> shown;
  };

  void writeModule(const GraphModule& module, const std::string& indent) {
    const Graph& graph = module.graph;
    graph.numberNodes();
    const SchemaRegistry& schemas =
        options_.schemas ? *options_.schemas : SchemaRegistry::builtin();
    EffectAnalysis effects(graph, schemas);
    ModuleView view{"m" + std::to_string(moduleCount_++) + "_",
                    std::vector<bool>(graph.orderBound(), false)};
    selectNodes(graph, effects, view);

    std::string label = module.className.empty() ? "forward" : std::string(module.className);
    out_ += indent + "subgraph " + quote("cluster_" + view.prefix) + " {\n";
    std::string inner = indent + "  ";
    out_ += inner + "label=" + quote(label) + "; style=\"rounded,dashed\"; color=\"#999999\";\n";

    // The comment block that describes each node (`# File: model.py:12 in forward, code: ...`):
    // the nearest block at or before it.
    std::span<const std::string_view> trivia;
    for (const Node* node : graph) {
      if (!node->leadingTrivia().empty())
        trivia = node->leadingTrivia();
      if (view.shown[node->order()])
        writeNode(graph, node, trivia, view, inner);
    }
    for (const Node* node : graph)
      if (view.shown[node->order()])
        writeEdges(node, effects, view, inner);
    for (const auto& child : module.children)
      writeModule(*child, inner);
    out_ += indent + "}\n";
  }

  /// All nodes of a small graph; for a large one the clones' neighbourhoods and the writes to
  /// their storages.
  void selectNodes(const Graph& graph, const EffectAnalysis& effects, ModuleView& view) {
    if (graph.size() <= options_.maxNodes) {
      for (const Node* node : graph)
        view.shown[node->order()] = true;
      return;
    }
    AliasAnalysis alias(graph, effects, {});
    std::vector<const Node*> frontier;
    auto show = [&](const Node* node) {
      if (!view.shown[node->order()]) {
        view.shown[node->order()] = true;
        frontier.push_back(node);
      }
    };
    for (const Node* node : graph) {
      if (!isCloneNode(node))
        continue;
      show(node);
      const Node* source = node->args()[0].node();
      for (const Node* value : {node, source}) {
        AliasAnalysis::StorageId storage = alias.storageOf(value);
        if (storage == AliasAnalysis::kNoStorage)
          continue;
        for (const AliasAnalysis::Event& event : alias.events(storage))
          if (event.kind == AliasAnalysis::Event::Kind::Write && event.position > node->order()) {
            show(event.node);
            show(event.value);
          }
      }
    }
    for (unsigned step = 0; step < options_.radius; ++step) {
      std::vector<const Node*> current;
      current.swap(frontier);
      for (const Node* node : current) {
        node->forEachInput([&](const Node* input) { show(input); });
        for (const Node* user : node->users())
          show(user);
      }
    }
    size_t shown = std::count(view.shown.begin(), view.shown.end(), true);
    if (!partialNotes_.empty())
      partialNotes_ += "; ";
    partialNotes_ += "neighbourhood of each clone (" + std::to_string(options_.radius) +
                     " steps) and writes to its storage: " + std::to_string(shown) + " of " +
                     std::to_string(graph.size()) + " nodes";
  }

  void writeNode(const Graph& graph, const Node* node, std::span<const std::string_view> trivia,
                 const ModuleView& view, const std::string& indent) {
    const Context& context = graph.context();
    std::string label(node->name());
    std::string attributes;
    std::string type = typeText(context, node->type());
    switch (node->kind()) {
    case Node::Kind::Placeholder:
      attributes = "shape=ellipse, style=solid";
      break;
    case Node::Kind::GetAttr:
      label += "\nself." + std::string(node->attribute());
      attributes = "shape=cylinder, style=solid";
      break;
    case Node::Kind::Output:
      label = "return";
      attributes = "shape=doubleoctagon, style=solid";
      break;
    case Node::Kind::Call: {
      std::string target = targetText(node);
      // `auto_functionalized = auto_functionalized(...)`: say the name once.
      if (target == node->name())
        target.clear();
      else if (target.starts_with(std::string(node->name()) + "\n"))
        target.erase(0, node->name().size() + 1);
      if (!target.empty())
        label += "\n" + target;
      break;
    }
    }
    if (isCloneNode(node)) {
      ++clones_;
      auto found = remarks_.find({node->line(), std::string(node->name())});
      const Remark* remark = found == remarks_.end() ? nullptr : found->second;
      std::string_view color = kUndecidedColor;
      if (!remark) {
        label += "\nno decision";
      } else if (remark->decision == Remark::Decision::Removed) {
        ++removed_;
        color = kRemovedColor;
        label += "\nremoved";
        if (!remark->detail.empty())
          label += " (" + remark->detail + ")";
      } else {
        ++kept_;
        color = kKeptColor;
        label += "\nkept [" + remark->reason.value_or("?") + "]";
        if (!remark->detail.empty())
          label += "\n" + clip(remark->detail, kMaxLabelLine);
      }
      attributes = "style=\"rounded,filled,bold\", fillcolor=\"" + std::string(color) + "\"";
    }
    if (!type.empty() && !node->isOutput())
      label += "\n" + type;
    // Hidden neighbours, so that a partial picture says it is partial.
    size_t hiddenInputs = 0, hiddenUsers = 0;
    std::unordered_set<const Node*> seen;
    node->forEachInput([&](const Node* input) {
      if (seen.insert(input).second && !view.shown[input->order()])
        ++hiddenInputs;
    });
    for (const Node* user : node->users())
      if (!view.shown[user->order()])
        ++hiddenUsers;
    if (hiddenInputs || hiddenUsers) {
      label += "\n(";
      if (hiddenInputs)
        label += "+" + std::to_string(hiddenInputs) + " inputs";
      if (hiddenInputs && hiddenUsers)
        label += ", ";
      if (hiddenUsers)
        label += "+" + std::to_string(hiddenUsers) + " users";
      label += " not shown)";
    }
    std::string clipped;
    for (size_t start = 0; start <= label.size();) {
      size_t end = label.find('\n', start);
      if (end == std::string::npos)
        end = label.size();
      if (start)
        clipped += '\n';
      clipped += clip(std::string_view(label).substr(start, end - start), kMaxLabelLine);
      start = end + 1;
    }

    out_ += indent + view.prefix + std::to_string(node->order()) + " [label=" + quote(clipped);
    if (!attributes.empty())
      out_ += ", " + attributes;
    std::string tooltip = tooltipText(node, trivia);
    if (!tooltip.empty())
      out_ += ", tooltip=" + quote(tooltip);
    out_ += "];\n";
  }

  /// `FILE:LINE`, the stack-trace comment above the node and the node's own source line.
  std::string tooltipText(const Node* node, std::span<const std::string_view> trivia) const {
    if (node->line() == 0)
      return {};
    std::string text(options_.fileName);
    text += ":" + std::to_string(node->line());
    if (!node->isOutput()) // the stack trace of the last op is not the return's
      for (std::string_view line : trivia)
        if (std::string_view comment = trim(line); !comment.empty())
          text += "\n" + clip(comment, kMaxTooltipLine);
    if (node->line() <= lines_.size())
      text += "\n" + clip(trim(lines_[node->line() - 1]), kMaxTooltipLine);
    return text;
  }

  void writeEdges(const Node* node, const EffectAnalysis& effects, const ModuleView& view,
                  const std::string& indent) {
    const NodeEffects& nodeEffects = effects.effects(node);
    std::unordered_set<const Node*> seen;
    node->forEachInput([&](const Node* input) {
      if (!seen.insert(input).second || !view.shown[input->order()])
        return;
      bool write = false;
      for (const NodeEffects::Access& access : nodeEffects.accesses)
        write = write || (access.value() == input && access.write());
      auto aliases = [&](const OutputAlias& alias) {
        return alias.kind == OutputAlias::Kind::Aliases && alias.input == input;
      };
      bool isView = aliases(nodeEffects.result) ||
                    std::any_of(nodeEffects.outputs.begin(), nodeEffects.outputs.end(), aliases);
      std::string style;
      if (node->isCall() && !nodeEffects.known)
        style = "color=\"#8e44ad\", style=dotted, penwidth=1.5, label=\"unknown op\", "
                "fontcolor=\"#8e44ad\"";
      else if (write)
        style = "color=\"#c0392b\", penwidth=2.2, label=\"writes\", fontcolor=\"#c0392b\"";
      else if (isView)
        style = "color=\"#2471a3\", style=dashed, label=\"view\", fontcolor=\"#2471a3\"";
      out_ += indent + view.prefix + std::to_string(input->order()) + " -> " + view.prefix +
              std::to_string(node->order());
      if (!style.empty())
        out_ += " [" + style + "]";
      out_ += ";\n";
    });
  }

  void writeLegend() {
    out_ += "  subgraph cluster_legend {\n"
            "    label=\"legend\"; style=\"rounded\"; color=\"#bbbbbb\"; fontsize=10;\n"
            "    legend [shape=plaintext, style=solid, label=<"
            "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"2\">"
            "<TR><TD BGCOLOR=\"" +
            std::string(kRemovedColor) +
            "\">clone removed</TD></TR>"
            "<TR><TD BGCOLOR=\"" +
            std::string(kKeptColor) +
            "\">clone kept [reason code]</TD></TR>"
            "<TR><TD ALIGN=\"LEFT\">&#8212; reads</TD></TR>"
            "<TR><TD ALIGN=\"LEFT\"><FONT COLOR=\"#2471a3\">- - view of</FONT></TD></TR>"
            "<TR><TD ALIGN=\"LEFT\"><FONT COLOR=\"#c0392b\"><B>&#8212; writes</B></FONT></TD></TR>"
            "<TR><TD ALIGN=\"LEFT\"><FONT COLOR=\"#8e44ad\">&#183;&#183;&#183; unknown op"
            "</FONT></TD></TR></TABLE>>];\n"
            "  }\n";
  }

  const DotOptions& options_;
  std::map<std::pair<uint32_t, std::string>, const Remark*> remarks_;
  std::vector<std::string_view> lines_;
  std::string out_;
  std::string partialNotes_;
  size_t moduleCount_ = 0;
  size_t clones_ = 0, removed_ = 0, kept_ = 0;
};

} // namespace

std::string writeCloneDot(const GraphFile& file, std::span<const Remark> remarks,
                          const DotOptions& options) {
  return DotBuilder(remarks, options).build(file);
}

} // namespace declone
