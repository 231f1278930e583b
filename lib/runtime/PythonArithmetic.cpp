// Python's arithmetic on the numbers FX graphs compute sizes with (sym_size results and the
// operator.* functions applied to them).
#include "Execution.h"

#include <cmath>

namespace declone::runtime::detail {

std::optional<c10::IValue> pythonArithmetic(std::string_view name,
                                            const std::vector<c10::IValue>& operands) {
  auto isIntegral = [](const c10::IValue& v) { return v.isInt() || v.isBool(); };
  auto asInt = [](const c10::IValue& v) { return v.isBool() ? int64_t(v.toBool()) : v.toInt(); };
  auto asDouble = [&](const c10::IValue& v) {
    return v.isDouble() ? v.toDouble() : double(asInt(v));
  };
  auto floorDiv = [](int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  };
  constexpr std::string_view kOperator = "operator.";
  if (name.starts_with(kOperator))
    name.remove_prefix(kOperator.size());
  if (operands.size() == 1) {
    const c10::IValue& a = operands[0];
    if (name == "neg")
      return isIntegral(a) ? c10::IValue(-asInt(a)) : c10::IValue(-a.toDouble());
    if (name == "pos")
      return isIntegral(a) ? c10::IValue(asInt(a)) : a;
    if (name == "abs")
      return isIntegral(a) ? c10::IValue(std::abs(asInt(a))) : c10::IValue(std::fabs(a.toDouble()));
    if (name == "not_" || name == "torch.sym_not")
      return c10::IValue(isIntegral(a) ? asInt(a) == 0 : a.toDouble() == 0.0);
    if (name == "torch.sym_float")
      return c10::IValue(asDouble(a));
    if (name == "torch.sym_int" || name == "int" || name == "math.trunc")
      return c10::IValue(isIntegral(a) ? asInt(a) : static_cast<int64_t>(std::trunc(a.toDouble())));
    if (name == "math.floor")
      return c10::IValue(isIntegral(a) ? asInt(a) : static_cast<int64_t>(std::floor(a.toDouble())));
    if (name == "math.ceil")
      return c10::IValue(isIntegral(a) ? asInt(a) : static_cast<int64_t>(std::ceil(a.toDouble())));
    if (name == "math.sqrt" || name == "torch.sym_sqrt")
      return c10::IValue(std::sqrt(asDouble(a)));
    return std::nullopt;
  }
  if (operands.size() != 2)
    return std::nullopt;
  const c10::IValue& a = operands[0];
  const c10::IValue& b = operands[1];
  bool integral = isIntegral(a) && isIntegral(b);
  if (name == "eq" || name == "ne" || name == "lt" || name == "le" || name == "gt" ||
      name == "ge") {
    double x = asDouble(a), y = asDouble(b);
    bool integralCompare = integral; // exact for ints beyond 2^53
    int64_t i = integral ? asInt(a) : 0, j = integral ? asInt(b) : 0;
    if (name == "eq")
      return c10::IValue(integralCompare ? i == j : x == y);
    if (name == "ne")
      return c10::IValue(integralCompare ? i != j : x != y);
    if (name == "lt")
      return c10::IValue(integralCompare ? i < j : x < y);
    if (name == "le")
      return c10::IValue(integralCompare ? i <= j : x <= y);
    if (name == "gt")
      return c10::IValue(integralCompare ? i > j : x > y);
    return c10::IValue(integralCompare ? i >= j : x >= y);
  }
  if (name == "and_" && a.isBool() && b.isBool())
    return c10::IValue(a.toBool() && b.toBool());
  if (name == "or_" && a.isBool() && b.isBool())
    return c10::IValue(a.toBool() || b.toBool());
  if (name == "truediv")
    return asDouble(b) == 0.0 ? std::nullopt
                              : std::optional(c10::IValue(asDouble(a) / asDouble(b)));
  if (integral) {
    int64_t x = asInt(a), y = asInt(b);
    if (name == "add")
      return c10::IValue(x + y);
    if (name == "sub")
      return c10::IValue(x - y);
    if (name == "mul")
      return c10::IValue(x * y);
    if (name == "floordiv" && y != 0)
      return c10::IValue(floorDiv(x, y));
    if (name == "mod" && y != 0)
      return c10::IValue(x - floorDiv(x, y) * y);
    if (name == "pow" && y >= 0) {
      int64_t power = 1;
      for (int64_t i = 0; i < y; ++i)
        power *= x;
      return c10::IValue(power);
    }
    if (name == "pow")
      return c10::IValue(std::pow(double(x), double(y)));
    if (name == "torch.sym_min" || name == "min")
      return c10::IValue(std::min(x, y));
    if (name == "torch.sym_max" || name == "max")
      return c10::IValue(std::max(x, y));
    return std::nullopt;
  }
  double x = asDouble(a), y = asDouble(b);
  if (name == "add")
    return c10::IValue(x + y);
  if (name == "sub")
    return c10::IValue(x - y);
  if (name == "mul")
    return c10::IValue(x * y);
  if (name == "floordiv" && y != 0)
    return c10::IValue(std::floor(x / y));
  if (name == "mod" && y != 0)
    return c10::IValue(x - std::floor(x / y) * y);
  if (name == "pow")
    return c10::IValue(std::pow(x, y));
  if (name == "torch.sym_min" || name == "min")
    return c10::IValue(std::min(x, y));
  if (name == "torch.sym_max" || name == "max")
    return c10::IValue(std::max(x, y));
  return std::nullopt;
}

} // namespace declone::runtime::detail
