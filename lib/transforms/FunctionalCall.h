// What a functionalized mutating call (auto_functionalized, auto_functionalized_v2,
// triton_kernel_wrapper_functional) copies, and its rewrite into the mutating call.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace declone::detail {

struct FunctionalCall {
  enum class Kind : uint8_t { V1, V2, Triton };
  /// One element of the call's result that is (or would be) a copy of a tensor the op writes.
  struct Copy {
    std::string name;      ///< the argument (v1, triton) or `_all_bases[j]` (v2)
    Node* value = nullptr; ///< what is copied; null for an argument passed as None or not at all
    bool inPlace = false;  ///< `_only_clone_these_*` leaves it out: op writes the value itself
    int64_t index = 0;     ///< the getitem index of its element (v1, v2)
    std::string_view key;  ///< the getitem key of its element (triton)
    std::vector<Node*> results; ///< the getitems that take the element
  };
  Kind kind = Kind::V1;
  Node* node = nullptr;
  const Target* op = nullptr;       ///< v1, v2: the mutating op
  const OpSchema* schema = nullptr; ///< v1, v2
  /// Slots of op's own results before the copies (v1, v2): max(1, returns).
  size_t results = 1;
  std::vector<Copy> copies;
  /// getitems of op's own results, by index (v1, v2).
  std::vector<std::pair<int64_t, Node*>> resultUses;
  /// Why the pass cannot rewrite the call, or empty.
  std::string notRewritable;
  /// (v2) Why a view op writes is not described by its base index and view replay, or empty.
  std::string viewReplay;
  /// Every tensor the op gets, with the argument it is passed as, for the overlap rule: the
  /// read arguments, the in-place ones, and (v2) each base once.
  std::vector<std::pair<std::string, Node*>> operands;
};

/// The call's copies and uses; nullopt when `node` is no functionalized call.
[[nodiscard]] std::optional<FunctionalCall> parseFunctionalCall(Node* node,
                                                                const SchemaRegistry& schemas);

/// Fresh node names for the nodes a rewrite adds: `rms_norm`, `rms_norm_1`, ...
class NameSource {
public:
  explicit NameSource(const Graph& graph);
  [[nodiscard]] std::string_view fresh(Context& context, std::string_view base);

private:
  std::unordered_set<std::string> taken_;
};

/// The scatter-back of a v1 call's copies into their base, as functionalization writes a
/// mutated view back: `t1 = slice_scatter(base, element, ...)`, `t2 = slice_scatter(t1, ...)`,
/// one step per copy, each element used only there, each step only by the next. The shape only:
/// that each step writes back exactly the view its copy is of is for the caller to check.
/// Empty when the call's elements are not used that way.
[[nodiscard]] std::vector<Node*> scatterChain(const FunctionalCall& call);

/// Replaces the call by the mutating call (DESIGN.md section 4b): the op called on the
/// arguments themselves, each copy's element replaced by what it copied, the op's results by
/// the new call's; a scatter-back chain (scatterChain) by its base, which the op has written
/// in place. The call must have passed parseFunctionalCall without notRewritable or
/// viewReplay.
void rewriteFunctionalCall(Graph& graph, const FunctionalCall& call, NameSource& names,
                           std::span<Node* const> chain = {});

} // namespace declone::detail
