// Seeded synthetic post-grad FX graphs in print_readable's dialect, for benchmarks and stress
// tests.
#pragma once

#include "declone/support/Result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace declone::bench {

struct GeneratorOptions {
  /// Statements in the body of `forward` (everything but the placeholders and the return);
  /// node ids are 32-bit, so at most about 2^31.
  size_t nodes = 1000;
  uint64_t seed = 1;
  /// Share of the statements that are `aten.clone.default`; half of them are
  /// `memory_format = torch.contiguous_format`.
  double cloneFraction = 0.08;
  /// Batch-like dimensions are `s0` / `2*s0` with a `Sym(s0)` placeholder and Sym arithmetic
  /// (`mul: "Sym(2*s0)" = arg0_1 * 2`) feeding view and expand sizes; otherwise all constants.
  bool symbolic = false;
};

/// The text `GraphModule.print_readable(include_stride=True, include_device=True)` would print
/// for a graph with `options.nodes` statements: one `class GraphModule(torch.nn.Module):` with
/// views, clones, pointwise and in-place ops, `mm`, `auto_functionalized` rms_norm, `# File:`
/// comments and PyTorch's free lists. Views carry exactly the sizes and strides PyTorch computes.
/// The same options always give the same bytes, on every platform.
[[nodiscard]] std::string generateGraphText(const GeneratorOptions& options);

/// Parses `text` with readGraphFile and writes it back with writeGraphFile. Fails with the
/// reader's error, or with the first line (1-based) at which the output differs from `text`.
[[nodiscard]] Status checkRoundTrip(std::string_view text);

/// A generated graph made on first use and then kept. Benchmark bodies run several times per
/// measurement, and generating a large graph costs more than reading it.
class LazyGraphText {
public:
  explicit LazyGraphText(GeneratorOptions options) : options_(options) {}

  /// Generates (and round-trip checks) the text on the first call.
  [[nodiscard]] Status prepare();
  /// The text; prepare() must have succeeded.
  [[nodiscard]] const std::string& text() const { return *text_; }
  /// Nodes of the parsed graph (placeholders, statements and the output node).
  [[nodiscard]] size_t graphNodes() const { return graphNodes_; }
  [[nodiscard]] const GeneratorOptions& options() const { return options_; }

private:
  GeneratorOptions options_;
  std::optional<std::string> text_;
  size_t graphNodes_ = 0;
};

} // namespace declone::bench
