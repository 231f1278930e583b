// Owner of everything graphs share: the arena, interned strings and targets, symbolic exprs.
#pragma once

#include "declone/ir/Target.h"
#include "declone/support/Arena.h"
#include "declone/support/SymExpr.h"

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

namespace declone {

/// Like MLIRContext: graphs allocate their nodes, argument trees and strings here, so building a
/// million-node graph costs a few large allocations rather than millions of small ones. Nothing
/// allocated here is freed before the Context.
class Context {
public:
  Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context();

  SymContext& sym() { return sym_; }
  const SymContext& sym() const { return sym_; }

  /// Copies `text` into the arena (not deduplicated); text inside the source is not copied.
  std::string_view save(std::string_view text);
  /// Copies a graph's source text into the arena once; later saves of its substrings are free.
  std::string_view saveSource(std::string_view text);
  /// Takes over a graph's source text without copying it (a large dump is read straight into
  /// memory and kept there); later saves of its substrings are free.
  std::string_view adoptSource(std::string text);
  /// The text saved by saveSource (empty for graphs built in memory).
  [[nodiscard]] std::string_view source() const { return source_; }
  /// Raw arena storage.
  void* allocateBytes(size_t size, size_t alignment) { return arena_.allocate(size, alignment); }
  /// Storage for a Node. Nodes get an arena of their own so that walking a graph in program
  /// order walks memory in order.
  void* allocateNode(size_t size, size_t alignment) { return nodeArena_.allocate(size, alignment); }
  /// Bytes the arenas took from the system (for memory statistics).
  [[nodiscard]] size_t arenaBytes() const {
    return arena_.reservedBytes() + nodeArena_.reservedBytes();
  }
  /// Arena storage for `count` default-constructed objects of a trivially destructible type.
  template <class T> std::span<T> allocate(size_t count) {
    static_assert(std::is_trivially_destructible_v<T>);
    if (count == 0)
      return {};
    T* data = static_cast<T*>(arena_.allocate(sizeof(T) * count, alignof(T)));
    for (size_t i = 0; i < count; ++i)
      new (data + i) T();
    return {data, count};
  }
  template <class T, class... Args> T* create(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>);
    return new (arena_.allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }

  /// The interned target for a dotted spelling; `kind` decides how it is split.
  const Target* target(Target::Kind kind, std::string_view qualifiedName);

private:
  Arena arena_;
  Arena nodeArena_;
  /// The text being read: save() need not copy what already lies inside it.
  std::string_view source_;
  std::string ownedSource_; ///< the text adoptSource() took over

  SymContext sym_;
  struct TargetKey {
    Target::Kind kind;
    std::string_view name;
    bool operator==(const TargetKey&) const = default;
  };
  struct TargetKeyHash {
    size_t operator()(const TargetKey& key) const {
      return std::hash<std::string_view>()(key.name) * 31 + static_cast<size_t>(key.kind);
    }
  };
  std::unordered_map<TargetKey, const Target*, TargetKeyHash> targets_;
};

} // namespace declone
