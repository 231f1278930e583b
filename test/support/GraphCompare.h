// Tests' comparison of two read graphs, field by field: the round-trip tests read a graph, write it
// and read it back, and say where the two differ.
#pragma once

#include "declone/io/Reader.h"
#include "declone/io/Writer.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

namespace declone::test {

namespace compare {

inline std::string argText(const Context& context, const Arg& arg) {
  std::string out;
  writeArg(context, arg, out);
  return out;
}

/// Equal in every field the reader sets, floats bit for bit.
inline bool sameArg(const Arg& a, const Arg& b) {
  if (a.kind != b.kind || a.text() != b.text() || a.count != b.count)
    return false;
  switch (a.kind) {
  case ArgKind::Node:
    return a.node()->name() == b.node()->name();
  case ArgKind::Int:
    return a.integer == b.integer;
  case ArgKind::Bool:
    return a.boolean == b.boolean;
  case ArgKind::Float:
    return std::memcmp(&a.real, &b.real, sizeof a.real) == 0;
  case ArgKind::DType:
    return a.dtype == b.dtype;
  case ArgKind::Layout:
  case ArgKind::MemoryFormat:
    return a.enumValue == b.enumValue;
  case ArgKind::OpRef:
    return a.op->kind == b.op->kind && a.op->qualifiedName == b.op->qualifiedName;
  default:
    break;
  }
  for (uint32_t i = 0; i < a.count && a.isSequence(); ++i)
    if (!sameArg(a.elements[i], b.elements[i]))
      return false;
  return true;
}

/// The annotation's kind, its canonical rendering from the parsed fields and its spelling.
inline std::string typeText(const Context& context, const TypeAnnotation& type) {
  TypeAnnotation rendered = type;
  rendered.spelling = {};
  std::string out = std::to_string(static_cast<int>(type.kind)) + (type.quoted ? "q:" : ":");
  writeTypeAnnotation(context, rendered, out);
  return out + "|" + std::string(type.spelling);
}

inline std::string usersText(const Node& node) {
  std::string out;
  for (const Node* user : node.users())
    out += std::string(user->name()) + " ";
  return out;
}

/// Empty if the two nodes are equal in every field the reader sets; otherwise the first
/// difference. Without `linesAndUsers`, source lines and users are not compared (a graph written
/// and read back has other lines).
inline std::string compareNodes(const Graph& ga, const Node& a, const Graph& gb, const Node& b,
                                bool linesAndUsers = true) {
  std::string where =
      "node '" + std::string(a.name()) + "' (line " + std::to_string(a.line()) + "): ";
  if (a.kind() != b.kind() || a.name() != b.name())
    return where + "kind or name differs from '" + std::string(b.name()) + "'";
  if (linesAndUsers && a.line() != b.line())
    return where + "line differs: " + std::to_string(b.line());
  if ((a.target() == nullptr) != (b.target() == nullptr) ||
      (a.target() && (a.target()->kind != b.target()->kind ||
                      a.target()->qualifiedName != b.target()->qualifiedName)))
    return where + "targets differ";
  if (a.attribute() != b.attribute())
    return where + "attributes differ";
  if ((a.defaultValue() == nullptr) != (b.defaultValue() == nullptr) ||
      (a.defaultValue() && !sameArg(*a.defaultValue(), *b.defaultValue())))
    return where + "default values differ";
  if (a.args().size() != b.args().size() || a.kwargs().size() != b.kwargs().size())
    return where + "argument counts differ";
  for (size_t i = 0; i < a.args().size(); ++i)
    if (!sameArg(a.args()[i], b.args()[i]))
      return where + "argument " + std::to_string(i) +
             " differs: " + argText(ga.context(), a.args()[i]) + " vs " +
             argText(gb.context(), b.args()[i]);
  for (size_t i = 0; i < a.kwargs().size(); ++i)
    if (a.kwargs()[i].name != b.kwargs()[i].name ||
        !sameArg(a.kwargs()[i].value, b.kwargs()[i].value))
      return where + "keyword argument " + std::string(a.kwargs()[i].name) + " differs";
  if (typeText(ga.context(), a.type()) != typeText(gb.context(), b.type()))
    return where + "annotations differ: " + typeText(ga.context(), a.type()) + " vs " +
           typeText(gb.context(), b.type());
  if (!std::equal(a.leadingTrivia().begin(), a.leadingTrivia().end(), b.leadingTrivia().begin(),
                  b.leadingTrivia().end()))
    return where + "leading comments differ";
  if (a.trailingComment() != b.trailingComment())
    return where + "trailing comments differ";
  if (linesAndUsers && usersText(a) != usersText(b))
    return where + "users differ: " + usersText(a) + "vs " + usersText(b);
  return {};
}

inline bool sameFormat(const GraphFormat& a, const GraphFormat& b) {
  return a.defIndent == b.defIndent && a.bodyIndent == b.bodyIndent &&
         a.multiLineSignature == b.multiLineSignature && a.pytreeInputs == b.pytreeInputs &&
         a.pytreeInSpec == b.pytreeInSpec && a.pytreeOutputs == b.pytreeOutputs &&
         a.multiLineReturn == b.multiLineReturn && a.freeUnusedNodes == b.freeUnusedNodes;
}

/// Empty if the two modules (and their nested ones) are equal node for node (compareNodes,
/// with `linesAndUsers`), in their class headers, comments and graph formats.
inline std::string compareModules(const GraphModule& a, const GraphModule& b,
                                  bool linesAndUsers = true) {
  if (a.className != b.className || a.classBases != b.classBases || a.classIndent != b.classIndent)
    return "class headers differ: " + std::string(a.className) + " vs " + std::string(b.className);
  if (!std::equal(a.leadingTrivia.begin(), a.leadingTrivia.end(), b.leadingTrivia.begin(),
                  b.leadingTrivia.end()))
    return "comments before class " + std::string(a.className) + " differ";
  std::string in = "in class '" + std::string(a.className) + "': ";
  if (a.graph.size() != b.graph.size())
    return in + "node counts differ: " + std::to_string(a.graph.size()) + " vs " +
           std::to_string(b.graph.size());
  if (!sameFormat(a.graph.format(), b.graph.format()))
    return in + "graph formats differ";
  for (auto ia = a.graph.begin(), ib = b.graph.begin(); ia != a.graph.end(); ++ia, ++ib)
    if (std::string diff = compareNodes(a.graph, **ia, b.graph, **ib, linesAndUsers); !diff.empty())
      return in + diff;
  if (a.children.size() != b.children.size())
    return "nested class counts differ";
  for (size_t i = 0; i < a.children.size(); ++i)
    if (std::string diff = compareModules(*a.children[i], *b.children[i], linesAndUsers);
        !diff.empty())
      return diff;
  return {};
}

} // namespace compare

} // namespace declone::test
