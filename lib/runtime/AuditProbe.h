// Private to the effect audit: one way to call an op (a probe) and the one-node FX graph that
// makes that call.
#pragma once

#include "declone/schema/Schema.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace declone::runtime::audit {

/// How the tensor arguments are laid out in memory.
enum class Layout : uint8_t {
  Contiguous,
  Transposed,  ///< the last two dimensions swapped
  Offset,      ///< contiguous, at storage offset 3
  Strided,     ///< every other element (strides doubled): not dense
  Overlapping, ///< dimension 0 broadcast (stride 0): elements share memory
};

/// What a probe tries beyond the base set (shapes, dtypes, the first three layouts, bools and
/// `p` varied, list lengths): the summary counts the overloads each kind reached.
enum class ProbeKind : uint8_t {
  Base,
  Empty,         ///< tensors with no elements (dimension 0 of size 0)
  SizeOne,       ///< size-1 dimensions
  Strided,       ///< Layout::Strided
  Overlapping,   ///< Layout::Overlapping
  ScalarValues,  ///< Scalar arguments 0, 1, -1, 0.5, True and a complex value
  OptionalsSet,  ///< optional non-tensor arguments given a value instead of None
  SizesAsTensor, ///< integer tensors holding the first tensor's sizes (_reshape_from_tensor)
  Count,
};
[[nodiscard]] std::string_view probeKindName(ProbeKind kind);

/// How the planned sizes are changed.
enum class Sizes : uint8_t {
  AsPlanned,
  FirstEmpty, ///< the first tensor's dimension 0 has size 0
  AllEmpty,   ///< every tensor's dimension 0 has size 0
  FirstOne,   ///< the first tensor's dimension 0 has size 1
  AllOne,     ///< every dimension of every tensor has size 1
};

/// Which optional non-tensor arguments whose default is None get a value.
enum class Optionals : uint8_t {
  Default, ///< none
  Options, ///< the dtype, layout, device, memory format and bools (to_sparse's layout)
  All,     ///< also ints, floats and lists (a reduction's dim)
};

/// One way to call the op.
struct Probe {
  ProbeKind kind = ProbeKind::Base;
  size_t plan = 0; ///< an index into the shape plans
  std::string_view dtype = "f32";
  Layout layout = Layout::Contiguous;
  Sizes sizes = Sizes::AsPlanned;
  size_t listLength = 2;
  bool optionalTensorsNone = false;
  /// An argument set against its default: a bool negated, the probability `p` made 0.
  std::optional<size_t> flipped;
  /// The value of every Scalar argument, when not the default 2.
  std::optional<std::string_view> scalar;
  Optionals optionals = Optionals::Default;
  bool sizesAsTensor = false;
  /// Which candidate string a `str` argument without a default takes.
  size_t string = 0;
};

/// How many shape plans there are: Probe::plan is below this.
[[nodiscard]] size_t shapePlanCount();
/// The dtypes the base probe is searched among, in order.
[[nodiscard]] std::span<const std::string_view> baseDTypes();
/// The dtypes probed besides the base's wherever the op runs, and those of them whose probes
/// also vary every bool (float and complex: the conj family).
[[nodiscard]] std::span<const std::string_view> otherDTypes();
[[nodiscard]] std::span<const std::string_view> variedDTypes();
/// The values ProbeKind::ScalarValues gives Scalar arguments.
[[nodiscard]] std::span<const std::string_view> scalarValues();
/// How many candidate strings a `str` argument without a default is tried with.
[[nodiscard]] size_t stringCandidateCount();

/// The arguments probes vary: each bool negated, the probability `p` made 0.
[[nodiscard]] bool isBool(const SchemaArgument& argument);
[[nodiscard]] bool isProbability(const SchemaArgument& argument);
[[nodiscard]] std::optional<bool> boolDefault(const SchemaArgument& argument);
/// Why no probe can pass `argument`, or empty.
[[nodiscard]] std::string unsupported(const SchemaArgument& argument);

struct Placeholder {
  std::string name;
  std::string annotation;
  size_t argument; ///< the schema argument it fills
  /// The values it must hold instead of random ones (ProbeKind::SizesAsTensor), or empty.
  std::vector<int64_t> contents;
};

struct ProbeGraph {
  std::string text;
  std::string call; ///< the call, for the origin of findings
  std::vector<Placeholder> placeholders;
  /// The value of every bool argument in this call (explicit or default), by argument.
  std::vector<std::optional<bool>> bools;
};

/// The probe as FX graph text: one placeholder per tensor, one call, its result returned.
[[nodiscard]] ProbeGraph buildProbe(const OpSchema& schema, const Probe& probe);

} // namespace declone::runtime::audit
