// Helpers shared by the unit tests.
#include "TestSupport.h"

#include "../support/GraphCompare.h"

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

std::string describeDifference(const GraphFile& a, const GraphFile& b) {
  if (a.modules.size() != b.modules.size())
    return "module counts differ";
  for (size_t i = 0; i < a.modules.size(); ++i)
    if (std::string diff =
            compare::compareModules(*a.modules[i], *b.modules[i], /*linesAndUsers=*/false);
        !diff.empty())
      return diff;
  if (!std::equal(a.trailingTrivia.begin(), a.trailingTrivia.end(), b.trailingTrivia.begin(),
                  b.trailingTrivia.end()))
    return "trailing lines differ";
  return {};
}

} // namespace declone::test
