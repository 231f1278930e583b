// Helpers shared by the unit tests.
#include "TestSupport.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace declone::test {

std::unique_ptr<GraphFile> parseOrFail(std::string_view text) {
  auto file = readGraphFile(text);
  if (!file.ok()) {
    ADD_FAILURE() << file.error().format("<snippet>") << "\n" << text;
    return nullptr;
  }
  return std::move(file).value();
}

Node* findNode(const Graph& graph, std::string_view name) {
  for (Node* node : graph)
    if (node->name() == name)
      return node;
  return nullptr;
}

std::string readFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string fileAndModeTestName(
    const ::testing::TestParamInfo<std::tuple<std::string, CloneEliminationMode>>& info) {
  const std::filesystem::path path = std::get<0>(info.param);
  std::string name = path.parent_path().filename().string() + "_" + path.stem().string() +
                     (std::get<1>(info.param) == CloneEliminationMode::Safe ? "_safe" : "_vllm");
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
      '_');
  return name;
}

namespace {

std::string argText(const Context& context, const Arg& arg) {
  std::string out;
  writeArg(context, arg, out);
  return out;
}

bool sameArg(const Arg& a, const Arg& b) {
  if (a.kind != b.kind || a.text() != b.text() || a.count != b.count)
    return false;
  switch (a.kind) {
  case ArgKind::Node:
    return a.node()->name() == b.node()->name();
  case ArgKind::Int:
    return a.integer == b.integer;
  case ArgKind::Bool:
    return a.boolean == b.boolean;
  case ArgKind::OpRef:
    return a.op->qualifiedName == b.op->qualifiedName;
  default:
    break;
  }
  for (uint32_t i = 0; i < a.count && a.isSequence(); ++i)
    if (!sameArg(a.elements[i], b.elements[i]))
      return false;
  return true;
}

std::string typeText(const Context& context, const TypeAnnotation& type) {
  TypeAnnotation rendered = type;
  rendered.spelling = {}; // compare the parsed fields, not only the spelling
  std::string out;
  writeTypeAnnotation(context, rendered, out);
  return std::to_string(static_cast<int>(type.kind)) + ":" + out + "|" + std::string(type.spelling);
}

std::string compareGraphs(const Graph& a, const Graph& b) {
  if (a.size() != b.size())
    return "node counts differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  const GraphFormat& fa = a.format();
  const GraphFormat& fb = b.format();
  if (fa.defIndent != fb.defIndent || fa.bodyIndent != fb.bodyIndent ||
      fa.multiLineSignature != fb.multiLineSignature || fa.pytreeInputs != fb.pytreeInputs ||
      fa.pytreeInSpec != fb.pytreeInSpec || fa.pytreeOutputs != fb.pytreeOutputs ||
      fa.multiLineReturn != fb.multiLineReturn || fa.freeUnusedNodes != fb.freeUnusedNodes)
    return "graph formats differ";
  auto ia = a.begin(), ib = b.begin();
  for (; ia != a.end(); ++ia, ++ib) {
    const Node& na = **ia;
    const Node& nb = **ib;
    std::string where = "node '" + std::string(na.name()) + "': ";
    if (na.kind() != nb.kind() || na.name() != nb.name())
      return where + "kind or name differs from '" + std::string(nb.name()) + "'";
    if ((na.target() == nullptr) != (nb.target() == nullptr) ||
        (na.target() && na.target()->qualifiedName != nb.target()->qualifiedName))
      return where + "targets differ";
    if (na.attribute() != nb.attribute())
      return where + "attributes differ";
    if (na.args().size() != nb.args().size() || na.kwargs().size() != nb.kwargs().size())
      return where + "argument counts differ";
    for (size_t i = 0; i < na.args().size(); ++i)
      if (!sameArg(na.args()[i], nb.args()[i]))
        return where + "argument " + std::to_string(i) +
               " differs: " + argText(a.context(), na.args()[i]) + " vs " +
               argText(b.context(), nb.args()[i]);
    for (size_t i = 0; i < na.kwargs().size(); ++i)
      if (na.kwargs()[i].name != nb.kwargs()[i].name ||
          !sameArg(na.kwargs()[i].value, nb.kwargs()[i].value))
        return where + "keyword argument " + std::string(na.kwargs()[i].name) + " differs";
    if (typeText(a.context(), na.type()) != typeText(b.context(), nb.type()))
      return where + "annotations differ: " + typeText(a.context(), na.type()) + " vs " +
             typeText(b.context(), nb.type());
    if (!std::equal(na.leadingTrivia().begin(), na.leadingTrivia().end(),
                    nb.leadingTrivia().begin(), nb.leadingTrivia().end()))
      return where + "leading comments differ";
    if (na.trailingComment() != nb.trailingComment())
      return where + "trailing comments differ";
  }
  return {};
}

std::string compareModules(const GraphModule& a, const GraphModule& b) {
  if (a.className != b.className || a.classBases != b.classBases || a.classIndent != b.classIndent)
    return "class headers differ: " + std::string(a.className) + " vs " + std::string(b.className);
  if (!std::equal(a.leadingTrivia.begin(), a.leadingTrivia.end(), b.leadingTrivia.begin(),
                  b.leadingTrivia.end()))
    return "comments before class " + std::string(a.className) + " differ";
  if (std::string diff = compareGraphs(a.graph, b.graph); !diff.empty())
    return "in " + std::string(a.className) + ": " + diff;
  if (a.children.size() != b.children.size())
    return "nested class counts differ";
  for (size_t i = 0; i < a.children.size(); ++i)
    if (std::string diff = compareModules(*a.children[i], *b.children[i]); !diff.empty())
      return diff;
  return {};
}

} // namespace

std::string describeDifference(const GraphFile& a, const GraphFile& b) {
  if (a.modules.size() != b.modules.size())
    return "module counts differ";
  for (size_t i = 0; i < a.modules.size(); ++i)
    if (std::string diff = compareModules(*a.modules[i], *b.modules[i]); !diff.empty())
      return diff;
  if (!std::equal(a.trailingTrivia.begin(), a.trailingTrivia.end(), b.trailingTrivia.begin(),
                  b.trailingTrivia.end()))
    return "trailing lines differ";
  return {};
}

} // namespace declone::test
