// Writes graphs back in the dialect PyTorch prints, with storage offsets and recomputed frees.
#pragma once

#include "declone/ir/Graph.h"

#include <cstdio>
#include <string>

namespace declone {

/// Prints the whole file. A file read from canonical PyTorch output and not changed since is
/// written back byte for byte; `;  a = b = None` free lists are recomputed from the graph.
[[nodiscard]] std::string writeGraphFile(const GraphFile& file);
void writeGraphFile(const GraphFile& file, std::string& out);
/// Prints the whole file to `stream` in chunks of about a megabyte, so that a large graph's text
/// is never held in memory whole. False if a write failed.
[[nodiscard]] bool writeGraphFile(const GraphFile& file, std::FILE* stream);

/// Prints one module (its nested classes included) as the file would: for a copy to read back.
[[nodiscard]] std::string writeGraphModule(const GraphModule& module);
/// Prints one graph as a module of its own (`class GraphModule` when it was inside a class).
[[nodiscard]] std::string writeGraph(const Graph& graph);

/// Prints one annotation canonically, e.g. `f32[s0, 8][8, 1]cpu@4` (no quotes).
void writeTypeAnnotation(const Context& context, const TypeAnnotation& type, std::string& out);
/// Prints one argument value as FX would.
void writeArg(const Context& context, const Arg& arg, std::string& out);

} // namespace declone
