// Call arguments as a small tagged tree, with node references tracked as Uses.
#pragma once

#include "declone/ir/Types.h"
#include "declone/support/SymExpr.h"

#include <cassert>
#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace declone {

class Node;
struct Target;

/// One reference from an argument slot to a node. Uses of a node form an intrusive doubly
/// linked list so that erasing and replacing are O(1) per use, whatever the node's fan-out.
struct Use {
  Node* value = nullptr; ///< the node referenced
  Node* user = nullptr;  ///< the node whose argument holds the reference
  Use* prev = nullptr;
  Use* next = nullptr;
};

enum class ArgKind : uint8_t {
  None,
  Bool,
  Int,
  Float,
  String,
  Node,
  SymInt, ///< a symbolic expression not bound to a node (live graphs only)
  List,
  Tuple,
  Dict,         ///< elements alternate key, value
  Slice,        ///< three elements: start, stop, step
  DType,        ///< torch.float32
  Layout,       ///< torch.strided
  MemoryFormat, ///< torch.contiguous_format
  Device,       ///< device(type='cuda', index=0)
  OpRef,        ///< an operator passed as a value: torch.ops._C.rms_norm.default
  Complex,      ///< a Python complex literal as repr() prints it: `(1+2j)`, `2j`, `(-0-infj)`
  Ellipsis,     ///< `Ellipsis`, as FX prints `...` in an index tuple: `x[(Ellipsis, 0)]`
  Verbatim,     ///< anything else, kept as written
};

enum class MemoryFormat : uint8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };

/// A value in a node's arguments. Trivially copyable; lists and strings live in the Context's
/// arena. text() is the exact source spelling for scalars (so `1e-06` stays `1e-06`), the
/// raw quoted form for strings, the dotted name for enums, and the whole text for Verbatim.
/// 24 bytes: a generated graph holds three or four per node, so the kind shares a word with
/// the element count and the spelling is a pointer and a 32-bit length.
struct Arg {
  /// Most elements a List, Tuple or Dict can hold; readers reject longer ones.
  static constexpr uint32_t kMaxElements = (1u << 24) - 1;

  ArgKind kind : 8 = ArgKind::None;
  uint32_t count : 24 = 0; ///< number of elements for List, Tuple, Dict (keys+values), Slice
private:
  uint32_t textSize_ = 0;

public:
  union {
    bool boolean;
    int64_t integer;
    double real;
    Use* use;           ///< for ArgKind::Node
    const SymExpr* sym; ///< for ArgKind::SymInt, in the arena
    Arg* elements;
    DType dtype;
    uint8_t enumValue; ///< Layout or MemoryFormat
    const Target* op;
  };

private:
  const char* textData_ = nullptr;

public:
  Arg() : integer(0) {}

  [[nodiscard]] std::string_view text() const { return {textData_, textSize_}; }
  /// `text` must outlive the graph (source text or arena) and be shorter than 4 GiB, which the
  /// reader guarantees by refusing texts of that size.
  void setText(std::string_view text) {
    assert(text.size() <= UINT32_MAX);
    textData_ = text.data();
    textSize_ = static_cast<uint32_t>(text.size());
  }

  [[nodiscard]] bool isNode() const { return kind == ArgKind::Node; }
  [[nodiscard]] Node* node() const {
    assert(isNode());
    return use->value;
  }
  [[nodiscard]] bool isSequence() const {
    return kind == ArgKind::List || kind == ArgKind::Tuple || kind == ArgKind::Dict ||
           kind == ArgKind::Slice;
  }
  [[nodiscard]] std::span<Arg> children() {
    return isSequence() ? std::span<Arg>(elements, count) : std::span<Arg>();
  }
  [[nodiscard]] std::span<const Arg> children() const {
    return isSequence() ? std::span<const Arg>(elements, count) : std::span<const Arg>();
  }
  [[nodiscard]] MemoryFormat memoryFormat() const {
    assert(kind == ArgKind::MemoryFormat);
    return static_cast<MemoryFormat>(enumValue);
  }

  /// Calls fn(Node*) for every node referenced anywhere in this tree, in order.
  template <class Fn> void forEachNode(Fn&& fn) const {
    if (kind == ArgKind::Node)
      fn(use->value);
    else
      for (const Arg& child : children())
        child.forEachNode(fn);
  }
  template <class Fn> void forEachUse(Fn&& fn) {
    if (kind == ArgKind::Node)
      fn(*use);
    else
      for (Arg& child : children())
        child.forEachUse(fn);
  }
};

/// The value of a Python complex literal (the text of an ArgKind::Complex): `(1+2j)`, `-2j`,
/// `(nan+infj)`; nullopt if `text` is not one.
[[nodiscard]] std::optional<std::complex<double>> parseComplexLiteral(std::string_view text);
/// The length of the Python complex literal at the start of `text`, 0 if there is none: a
/// parenthesised `(REAL+IMAGj)` or `(REAL-IMAGj)` with an optional sign before REAL, or a bare
/// `IMAGj` (numbers as Python writes them, `inf` and `nan` included).
[[nodiscard]] size_t complexLiteralLength(std::string_view text);

/// A keyword argument `name = value`.
struct KwArg {
  std::string_view name;
  Arg value;
};

} // namespace declone
