// Runs FX graphs on CPU with libtorch's kernels and compares two graphs on the same inputs.
// The only header of the project whose implementation links libtorch; it exposes no torch
// types, so its users need no torch headers.
#pragma once

#include "declone/analysis/SizeShrink.h"
#include "declone/ir/Graph.h"
#include "declone/support/Result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace declone::runtime {

namespace detail {
struct KernelRegistrations;
} // namespace detail

/// Kernels for the ops this libtorch lacks, in libtorch's dispatcher (the process's) while this
/// object lives: stand-ins that follow the schema (see StandInKernels.cpp) for the supplement's
/// custom ops (vLLM's _C and vllm ops) and for those addStandIns is given, and the prims that
/// PyTorch defines in Python and Inductor's post-grad graphs call (iota, ...). A program makes
/// one before it runs graphs that call such ops and passes it to verify or
/// annotateFromExecution; without it, such an op is an error (no kernel). One at a time: a
/// second finds the ops defined and adds nothing. addStandIns must not overlap a run.
class MissingKernels {
public:
  MissingKernels();
  ~MissingKernels();
  MissingKernels(const MissingKernels&) = delete;
  MissingKernels& operator=(const MissingKernels&) = delete;

  /// Gives the custom ops of `schemaText` (schema lines, as `--schemas` files hold them) that
  /// this libtorch has no kernel for a stand-in kernel, so that graphs calling them can run.
  /// Returns how many ops got one.
  size_t addStandIns(std::string_view schemaText);

  /// What was registered, for the runtime.
  [[nodiscard]] const detail::KernelRegistrations& registrations() const { return *registrations_; }

private:
  std::unique_ptr<detail::KernelRegistrations> registrations_;
};

struct VerifyOptions {
  uint64_t seed = 1;
  /// Runs with new random inputs and new symbol values, starting from `seed`.
  unsigned trials = 1;
  /// donated[i]: placeholder i is donated, so its final contents are not compared.
  std::vector<bool> donated;
  /// Values for size symbols; the others get small random values (2 to 8).
  std::unordered_map<std::string, int64_t> symbolHints;
  /// Integer tensor inputs are drawn from [intLow, intHigh), and below the extent they index
  /// where their values reach an index argument (embedding, gather, index, scatter, ...).
  int64_t intLow = 0;
  int64_t intHigh = 16;
  /// A graph whose run needs more bytes than this (an estimate from the annotations, made
  /// before anything is allocated) is an error instead; 0: no limit.
  uint64_t memoryLimit = 0;
  /// Run at smaller sizes when the printed ones would cost more than `budget` (see
  /// SizeShrinker; the plan is checked by running the original at the new sizes). False: run
  /// as printed.
  bool shrink = true;
  ShrinkBudget budget;
  /// Called once the sizes are chosen, before anything is allocated for the runs: the sizes,
  /// and the estimated cost of a run at them and as printed.
  std::function<void(std::span<const SizeChange> sizes, const RunCost& cost, const RunCost& printed)>
      estimated;
  /// Called after each trial.
  std::function<void()> trialDone;
  /// The program's kernels for the ops this libtorch lacks; none: such an op is an error.
  const MissingKernels* kernels = nullptr;
};

struct Verdict {
  bool equivalent = true;
  /// The first difference, e.g. `output 0: stride (5, 1) != (3, 1)`.
  std::string difference;
  unsigned trialsRun = 0;
  /// What was not compared by value, and why, one line per output or input, e.g. `output 0
  /// compared by metadata only: its values come from uninitialized memory (empty)`.
  std::vector<std::string> notes;
  /// The ops either graph called that ran a stand-in kernel (MissingKernels: the built-in ones
  /// for vLLM's ops, and addStandIns') instead of their own, by name (`_C::rms_norm`), sorted. What
  /// they compute follows their schema, not their mathematics: an equivalence holds for them only
  /// as far as their layouts and aliasing go, which the verdict must say.
  std::vector<std::string> standIns;
  /// The sizes the runs used instead of the printed ones (empty: as printed). A difference was
  /// found at these sizes; an equivalence holds at them.
  std::vector<SizeChange> sizes;
};

/// Runs `before` and `after` on the same inputs (at smaller sizes when the printed ones would
/// cost more than the budget) and compares every output's values, sizes, strides and storage
/// offset, every input's final contents (unless donated), and which outputs alias inputs or each
/// other. Floating values compare within a tolerance, but 0 and -0 differ, and NaN equals only
/// NaN. Values that come from memory a kernel leaves uninitialized (empty, what resize_ adds) in
/// `before` are compared by metadata only, and the verdict notes it; a value `before` computes
/// that comes from such memory in `after` is a difference, and so is an op of `after` that
/// raises where `before` runs. An error (not a difference) when a graph cannot run: an op
/// without a kernel in this libtorch, an argument it cannot convert, an op of `before` that
/// raises, mismatched signatures.
[[nodiscard]] Result<Verdict> verify(const Graph& before, const Graph& after,
                                     const VerifyOptions& options);
/// As above, for the graphs of two modules: calls of their nested subgraphs (invoke_subgraph,
/// wrap) run the bodies each module holds.
[[nodiscard]] Result<Verdict> verify(const GraphModule& before, const GraphModule& after,
                                     const VerifyOptions& options);

/// Which layout annotateFromExecution writes for a tensor that an in-place metadata op (t_,
/// resize_, set_, ...) changes after its node: the one its node made (what meta["tensor_meta"]
/// records), or the final one (what make_fx's live meta["val"] shows when the graph is printed).
enum class AnnotationTime { WhenMade, AtEnd };

/// Executes `graph` once on random inputs and rewrites the annotation of every call node whose
/// value is a tensor with what execution produced: dtype, sizes, strides, device ("cpu") and,
/// when non-zero, the `@OFFSET` storage offset. For generators that need true annotations;
/// the placeholders' sizes must be constant (they are what the inputs are made from).
/// `kernels`: as VerifyOptions::kernels.
[[nodiscard]] Status annotateFromExecution(Graph& graph, uint64_t seed,
                                           AnnotationTime when = AnnotationTime::WhenMade,
                                           const MissingKernels* kernels = nullptr);

} // namespace declone::runtime
