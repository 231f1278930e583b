// Every tensor value's dtype, device, sizes, strides and storage offset, annotated or inferred.
#pragma once

#include "declone/analysis/Effects.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace declone {

class LayoutOracle;

/// Whether a tensor carries one of PyTorch's lazy view bits: the conjugate bit (`_conj`,
/// `conj` of a complex tensor) or the negative bit (`_neg_view`, `imag` of a conjugate view).
/// Kernels read such a tensor as conjugated or negated; a clone resolves the bit.
enum class ViewBit : uint8_t { Clear, Set, Unknown };

/// Why a layout's strides are unknown, for remarks: the walk keeps the reason with the layout.
enum class UnknownStrides : uint8_t {
  No,              ///< the strides are known
  NotPrinted,      ///< a graph input or module state whose annotation prints none
  NoRule,          ///< no rule gives the strides `because` makes, and the oracle cannot run it
  NoRuleTryOracle, ///< as NoRule, but the oracle (--fake-tensor) could run it
  OracleGaveNone,  ///< no rule gives them, and the oracle, asked, gave none
  ChangedInPlace,  ///< `because` changes the tensor's layout in place
  Other,           ///< a malformed graph (ranks that disagree, a value used before it is made)
};

/// What is known of a tensor's layout. Sizes come from the annotation; strides from the
/// annotation or, for clones, from the memory_format rules; the storage offset from the
/// `@OFFSET` suffix or from the view op that made the value. Unknown stays unknown.
struct Layout {
  DType dtype = DType::Float32;
  std::string_view device;
  std::span<const SymExpr> sizes;
  std::optional<std::span<const SymExpr>> strides;
  std::optional<SymExpr> storageOffset;
  /// Graph inputs carry neither bit: their annotations cannot say that they do, as they say
  /// where they start (see DESIGN.md section 3). Ops that return fresh tensors resolve both.
  ViewBit conj = ViewBit::Clear;
  ViewBit neg = ViewBit::Clear;
  /// An in-place op (t_, as_strided_, resize_, set_, an out= overload that resizes, ...) that
  /// may change the sizes, strides or offset of `changedValue` after, or before, the
  /// annotations were taken; `changedValue` is this value or one its offset or strides derive
  /// from. Null when there is none. The layout above is then what the dump says, not what the
  /// tensor is at every point: the safe mode takes it as unknown.
  const Node* changedInPlaceBy = nullptr;
  const Node* changedValue = nullptr;
  /// Why `strides` is unknown (UnknownStrides::No when it is known) at the root of the
  /// derivation: the node the reason names, and the value whose unknown strides these derive
  /// from (null when the reason is this value's own).
  UnknownStrides unknownStrides = UnknownStrides::No;
  const Node* unknownBecause = nullptr;
  const Node* unknownThrough = nullptr;
  /// The strides are not printed in the dump but inferred from the kernel that made the value
  /// (or, for a graph input, assumed).
  bool stridesInferred = false;
  /// The layout rests on LayoutOptions::assumeDenseInputs: a graph input without strides taken
  /// as contiguous, here or in a value the layout was inferred from.
  bool assumesDenseInputs = false;
  /// The layout rests on LayoutOptions::oracle: an op run there, here or in a value the layout
  /// was inferred from.
  bool stridesRun = false;
};

struct LayoutOptions {
  /// Graph inputs (placeholders, and get_attr parameters and constants) whose annotation
  /// prints no strides are contiguous (and start at offset 0, as every input without an offset
  /// does): an assumption the caller states, which remarks name.
  bool assumeDenseInputs = false;
  /// Asked for the strides of a call no rule decides, when its tensor arguments have known
  /// static layouts (--fake-tensor); null for none. Must outlive the analysis.
  LayoutOracle* oracle = nullptr;
  /// Ask the oracle only for the values a clone's layout may rest on (the clones and what they
  /// are computed from), as the passes need; else for every value (annotating a dump).
  bool oracleOnlyForClones = false;
};

/// What an inferred layout rests on, as remarks and `analyze` say it: `strides inferred`, then
/// `, assuming dense inputs` and `, ops run under FakeTensor` where those hold.
[[nodiscard]] std::string inferenceBasis(const Layout& layout);

/// Why the layout's strides are unknown, as remarks say it: `no rule gives the strides tril
/// (aten.tril.default) makes (--fake-tensor runs it)`; empty when they are known.
[[nodiscard]] std::string unknownStridesReason(const Layout& layout);

/// `[3, 1]`: sizes or strides as annotations and remarks write them.
void appendSymList(const SymContext& sym, std::span<const SymExpr> values, std::string& out);
[[nodiscard]] std::string formatSymList(const SymContext& sym, std::span<const SymExpr> values);

/// `f32[4, 3][3, 1]cpu@0`, with `?` for what is unknown, then ` conj`/` neg` (`conj?` when
/// unknown), ` changed in place by NODE`, and ` (strides inferred)` or ` (strides inferred,
/// assuming dense inputs)`.
[[nodiscard]] std::string formatLayout(const SymContext& sym, const Layout& layout);

/// Every value's layout, computed in one walk of the graph in program order, each from the
/// layouts of the values before it: a layout depends only on the graph as it was given (clone
/// elimination rewrites uses afterwards, and layouts must not see that). Read-only after
/// construction.
class LayoutAnalysis {
public:
  LayoutAnalysis(const Graph& graph, const EffectAnalysis& effects, LayoutOptions options = {});
  LayoutAnalysis(LayoutAnalysis&&) noexcept;
  LayoutAnalysis& operator=(LayoutAnalysis&&) noexcept;
  ~LayoutAnalysis();

  /// nullptr when the value has no tensor annotation (or was made after the walk).
  [[nodiscard]] const Layout* layout(const Node* node) const;

  /// The strides the stride rules give `node` from the layouts of its inputs, whatever its own
  /// annotation prints (for checking printed strides); nullopt where no rule decides them or
  /// for a graph input.
  [[nodiscard]] std::optional<std::vector<SymExpr>> stridesFromInputs(const Node* node) const;

  /// The strides `clone(input, memory_format=format)` produces, or nullopt when they cannot be
  /// decided (unknown or symbolic non-dense input strides). Exposed for tests.
  [[nodiscard]] static std::optional<std::vector<SymExpr>>
  cloneStrides(SymContext& sym, const Layout& input, MemoryFormat format);
  /// Whether a layout is provably non-overlapping and dense (PyTorch's
  /// is_non_overlapping_and_dense); nullopt when it cannot be decided.
  [[nodiscard]] static std::optional<bool>
  isNonOverlappingAndDense(SymContext& sym, std::span<const SymExpr> sizes,
                           std::span<const SymExpr> strides);

  struct Impl; // the walk and the layouts it computed

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace declone
