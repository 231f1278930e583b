// Calls that name an op but not its overload: which overloads PyTorch may run for them.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace declone {

/// The schemas a call of `target` may run when the target names no single overload: every
/// overload of an op packet (`torch.ops.aten.add_`), or for a Tensor method (`x.add_(y)`, which
/// PyTorch binds to the aten op of that name with the receiver as `self`) every overload of
/// `aten::NAME` whose first argument is a tensor `self`. Empty for other targets and when
/// there is none.
[[nodiscard]] std::vector<const OpSchema*> overloadsOf(const Target& target,
                                                       const SchemaRegistry& schemas);

/// A call's arguments as one overload takes them.
struct BoundOverload {
  std::span<const Arg> args;
  std::span<const KwArg> kwargs;
};

/// Whether PyTorch passes a tensor to `parameter`: `Tensor`, `Tensor?`, a `Scalar` (a one-element
/// tensor's value) and type variables take one; `int`, `Storage`, `t[]` do not.
[[nodiscard]] bool takesTensor(const SchemaArgument& parameter);

/// Why `value` is beyond what `schema`'s argument `index` says: it passes a tensor (one that
/// `isTensor` knows is one) where PyTorch passes none (a Storage, an int), and what the kernel
/// does with it (set_.source_Storage shares its memory) is unknown, never a read. Empty when
/// it does not.
[[nodiscard]] std::string tensorWhereNoneIsTaken(const OpSchema& schema, size_t index,
                                                 const Arg& value,
                                                 const std::function<bool(const Node*)>& isTensor);

/// The arguments of `call` (a call of an overloadsOf target) as `schema` would take them, or
/// nullopt where PyTorch would not pick `schema` for them: more positional arguments than it
/// has positional parameters, a keyword it lacks or that a positional argument already fills,
/// a parameter without default left out, or a literal of a kind the parameter never takes (a
/// dtype for `SymInt[] size`, a string for a Tensor, None for a parameter that is not
/// optional). A node fits any parameter, but a node `isTensor` says is one tensor fits only
/// parameters that take a tensor (`Tensor`, `Tensor?`, `Scalar`, type variables): not `t[]` or
/// `int`. A method's positional ints after the receiver fill the schema's one positional int
/// list, as Python's argument parser does (`x.view(4, 5)` is `view(x, [4, 5])`); `storage`
/// then holds the arguments that returns.
[[nodiscard]] std::optional<BoundOverload>
bindOverload(const OpSchema& schema, const Node& call, std::vector<Arg>& storage,
             const std::function<bool(const Node*)>& isTensor);

} // namespace declone
