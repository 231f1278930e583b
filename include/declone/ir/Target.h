// What a call node calls: an operator overload, a Python function, a method or a submodule.
#pragma once

#include <cstdint>
#include <string_view>

namespace declone {

/// Interned by the Context: one Target per distinct spelling, so identity comparison is equality.
struct Target {
  enum class Kind : uint8_t {
    Op,       ///< torch.ops.NAMESPACE.NAME[.OVERLOAD]
    Function, ///< any other dotted global: operator.getitem, torch.sym_min, math.sqrt, ...
    Method,   ///< call_method: `x.view(...)`, the name is the method
    Module,   ///< call_module: `self.sub(...)`, the name is the attribute path
  };
  Kind kind = Kind::Function;
  /// The full dotted spelling: "torch.ops.aten.clone.default", "operator.getitem", "view".
  std::string_view qualifiedName;
  /// For Kind::Op: "aten", "clone", "default" (overload empty for packets and higher-order ops).
  std::string_view opNamespace;
  std::string_view opName;
  std::string_view overload;

  [[nodiscard]] bool isOp(std::string_view ns, std::string_view name) const {
    return kind == Kind::Op && opNamespace == ns && opName == name;
  }
  [[nodiscard]] bool isOperator(std::string_view name) const;
  [[nodiscard]] bool isHigherOrder() const {
    return kind == Kind::Op && opNamespace == "higher_order";
  }
};

inline bool Target::isOperator(std::string_view name) const {
  constexpr std::string_view prefix = "operator.";
  return kind == Kind::Function && qualifiedName.size() == prefix.size() + name.size() &&
         qualifiedName.starts_with(prefix) && qualifiedName.ends_with(name);
}

} // namespace declone
