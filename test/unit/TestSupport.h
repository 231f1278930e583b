// Helpers shared by the unit tests: parsing snippets and comparing graphs structurally.
#pragma once

#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/transforms/CloneElimination.h"

#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <tuple>

namespace declone::test {

/// Parses `text`, failing the test (and returning null) if it does not parse.
std::unique_ptr<GraphFile> parseOrFail(std::string_view text);

/// The first module's graph of a parsed file.
inline Graph& firstGraph(GraphFile& file) {
  return file.modules.front()->graph;
}

/// Finds a node by name in a graph (nullptr if absent).
Node* findNode(const Graph& graph, std::string_view name);

/// Empty if the two files hold the same graphs (structure, names, targets, arguments,
/// annotations, comments and layout); otherwise a description of the first difference.
std::string describeDifference(const GraphFile& a, const GraphFile& b);

/// Declares the ranges declareSizeRanges gives the sizes of a dump's inputs: `s0`..`s9` at least
/// 2 (PyTorch specializes 0 and 1) and the unbacked `u0`..`u9` at least 0.
inline void declareInputSizes(SymContext& sym) {
  for (int i = 0; i < 10; ++i) {
    sym.declareLowerBound("s" + std::to_string(i), 2);
    sym.declareLowerBound("u" + std::to_string(i), 0);
  }
}

/// Reads a whole file from disk.
std::string readFileOrDie(const std::string& path);

/// The name of a test of one file in one mode: `FOLDER_STEM_safe`, in the characters gtest
/// accepts.
std::string fileAndModeTestName(
    const ::testing::TestParamInfo<std::tuple<std::string, CloneEliminationMode>>& info);

} // namespace declone::test
