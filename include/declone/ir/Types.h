// Tensor and symbolic-integer types as FX annotations spell them: "f32[s0, 8][8, 1]cpu@4".
#pragma once

#include "declone/support/SymExpr.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace declone {

/// PyTorch scalar types, named by the abbreviations FX prints (torch/fx/graph.py dtype_abbrs).
enum class DType : uint8_t {
  Bool,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Complex32,
  Complex64,
  Complex128,
  Float8E4M3FN,
  Float8E5M2,
  Float8E4M3FNUZ,
  Float8E5M2FNUZ,
  Float8E8M0FNU,
  Float4E2M1FNx2,
  Bits16,
  Bits1x8,
};

/// "f32" -> Float32; nullopt for anything that is not an FX dtype abbreviation.
[[nodiscard]] std::optional<DType> dtypeFromAbbreviation(std::string_view abbreviation);
/// "float32" (as in `torch.float32`) -> Float32; also accepts aliases such as "float", "half".
[[nodiscard]] std::optional<DType> dtypeFromTorchName(std::string_view name);
[[nodiscard]] std::string_view abbreviation(DType dtype);
[[nodiscard]] std::string_view torchName(DType dtype);
/// Bytes per element (sub-byte packed types report their packed unit).
[[nodiscard]] unsigned elementSize(DType dtype);

/// A tensor's static type as annotated: dtype, sizes, and what the dump adds of its layout.
struct TensorType {
  DType dtype = DType::Float32;
  std::span<const SymExpr> sizes;
  /// Present when the annotation carries a second bracket list.
  std::optional<std::span<const SymExpr>> strides;
  /// Present only when written as the `@OFFSET` suffix; absent means "infer".
  std::optional<SymExpr> storageOffset;
  /// As written, e.g. "cpu", "cuda:0"; empty when the annotation has no device.
  std::string_view device;
  /// The conjugate and negative bits, when read from a live tensor (the Python importer): the
  /// text has no syntax for them, so LayoutAnalysis infers them for what it reads.
  std::optional<bool> conj;
  std::optional<bool> neg;
};

/// The quoted (or bare) annotation of a placeholder or node.
struct TypeAnnotation {
  enum class Kind : uint8_t {
    None,   ///< no annotation at all
    Tensor, ///< "DT[SIZES][STRIDES]DEVICE@OFFSET"
    Sym,    ///< "Sym(EXPR)" with EXPR parsed
    Other,  ///< anything else, kept verbatim (`torch.Tensor`, "Sym(2.0*s0)", ...)
  };
  Kind kind = Kind::None;
  /// Quoted in the source (`x: "f32[3]"`) rather than a bare Python type (`x: torch.Tensor`).
  bool quoted = true;
  /// The text between the quotes as the source spelled it. Empty for a synthesized annotation,
  /// which the writer renders canonically from the parsed fields.
  std::string_view spelling;
  const TensorType* tensor = nullptr; ///< for Kind::Tensor
  SymExpr sym;                        ///< for Kind::Sym
};

} // namespace declone
