// The reader's cache of interned call targets, keyed by kind and spelling.
#pragma once

#include "FastHash.h"
#include "declone/ir/Context.h"
#include "declone/support/OpenTable.h"

#include <string_view>

namespace declone::io {

/// A graph calls a few hundred distinct targets a million times. Context::target hashes the
/// spelling with std::hash and walks an unordered_map node on every call; this remembers what
/// it returned in a table small enough to stay in the L1 cache. The Context stays the owner of
/// every Target.
class TargetCache {
public:
  explicit TargetCache(Context& context) : context_(context) {}

  /// The same Target as context.target(kind, name).
  const Target* get(Target::Kind kind, std::string_view name) {
    return *table_
                .insertOrFind(Key{kind, name}, hash(kind, name),
                              [&] { return context_.target(kind, name); })
                .first;
  }

private:
  struct Key {
    Target::Kind kind;
    std::string_view name;
  };

  static uint64_t hash(Target::Kind kind, std::string_view name) {
    return fastHash(name) ^ static_cast<uint64_t>(kind);
  }

  struct Traits {
    using Slot = const Target*;
    bool isEmpty(Slot target) const { return target == nullptr; }
    uint64_t hash(Slot target) const {
      return TargetCache::hash(target->kind, target->qualifiedName);
    }
    bool matches(Slot target, const Key& key, uint64_t) const {
      return target->kind == key.kind && target->qualifiedName == key.name;
    }
  };

  Context& context_;
  OpenTable<Traits> table_;
};

} // namespace declone::io
