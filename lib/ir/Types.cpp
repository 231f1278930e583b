// The dtype tables: FX abbreviations, torch names and element sizes.
#include "declone/ir/Types.h"

#include <array>

namespace declone {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view abbreviation; // torch/fx/graph.py dtype_abbrs
  std::string_view torchName;    // torch.<name>
  unsigned size;
};

constexpr std::array<DTypeInfo, 24> kDTypes = {{
    {DType::Bool, "b8", "bool", 1},
    {DType::UInt8, "u8", "uint8", 1},
    {DType::UInt16, "u16", "uint16", 2},
    {DType::UInt32, "u32", "uint32", 4},
    {DType::UInt64, "u64", "uint64", 8},
    {DType::Int8, "i8", "int8", 1},
    {DType::Int16, "i16", "int16", 2},
    {DType::Int32, "i32", "int32", 4},
    {DType::Int64, "i64", "int64", 8},
    {DType::Float16, "f16", "float16", 2},
    {DType::BFloat16, "bf16", "bfloat16", 2},
    {DType::Float32, "f32", "float32", 4},
    {DType::Float64, "f64", "float64", 8},
    {DType::Complex32, "c32", "complex32", 4},
    {DType::Complex64, "c64", "complex64", 8},
    {DType::Complex128, "c128", "complex128", 16},
    {DType::Float8E4M3FN, "f8e4m3fn", "float8_e4m3fn", 1},
    {DType::Float8E5M2, "f8e5m2", "float8_e5m2", 1},
    {DType::Float8E4M3FNUZ, "f8e4m3fnuz", "float8_e4m3fnuz", 1},
    {DType::Float8E5M2FNUZ, "f8e5m2fnuz", "float8_e5m2fnuz", 1},
    {DType::Float8E8M0FNU, "f8e8m0fnu", "float8_e8m0fnu", 1},
    {DType::Float4E2M1FNx2, "f4e2m1fnx2", "float4_e2m1fn_x2", 1},
    {DType::Bits16, "b16", "bits16", 2},
    {DType::Bits1x8, "b1x8", "bits1x8", 1},
}};

// torch also exports these aliases for the same dtypes.
struct Alias {
  std::string_view name;
  DType dtype;
};
constexpr std::array<Alias, 10> kAliases = {{
    {"float", DType::Float32},
    {"double", DType::Float64},
    {"half", DType::Float16},
    {"int", DType::Int32},
    {"long", DType::Int64},
    {"short", DType::Int16},
    {"cfloat", DType::Complex64},
    {"cdouble", DType::Complex128},
    {"chalf", DType::Complex32},
    {"complex128", DType::Complex128},
}};

constexpr bool tableFollowsEnumOrder() {
  for (size_t i = 0; i < kDTypes.size(); ++i)
    if (static_cast<size_t>(kDTypes[i].dtype) != i)
      return false;
  return true;
}
static_assert(tableFollowsEnumOrder(), "kDTypes is indexed by DType");

const DTypeInfo& info(DType dtype) {
  return kDTypes[static_cast<size_t>(dtype)];
}

} // namespace

std::optional<DType> dtypeFromAbbreviation(std::string_view abbreviation) {
  for (const DTypeInfo& entry : kDTypes)
    if (entry.abbreviation == abbreviation)
      return entry.dtype;
  return std::nullopt;
}

std::optional<DType> dtypeFromTorchName(std::string_view name) {
  for (const DTypeInfo& entry : kDTypes)
    if (entry.torchName == name)
      return entry.dtype;
  for (const Alias& alias : kAliases)
    if (alias.name == name)
      return alias.dtype;
  return std::nullopt;
}

std::string_view abbreviation(DType dtype) {
  return info(dtype).abbreviation;
}
std::string_view torchName(DType dtype) {
  return info(dtype).torchName;
}
unsigned elementSize(DType dtype) {
  return info(dtype).size;
}

} // namespace declone
