// The reader's cache of interned call targets, keyed by kind and spelling: one flat array.
#pragma once

#include "FastHash.h"
#include "declone/ir/Context.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace declone::io {

/// A graph calls a few hundred distinct targets a million times. Context::target hashes the
/// spelling with std::hash and walks an unordered_map node on every call (a twentieth of the
/// reading time once statements were scanned directly); this remembers what it returned in an
/// array small enough to stay in the L1 cache. The Context stays the owner of every Target.
class TargetCache {
public:
  explicit TargetCache(Context& context) : context_(context) {}

  /// The same Target as context.target(kind, name).
  const Target* get(Target::Kind kind, std::string_view name) {
    uint64_t h = fastHash(name) ^ static_cast<uint64_t>(kind);
    size_t mask = slots_.size() - 1;
    if (!slots_.empty()) {
      for (size_t i = h & mask;; i = (i + 1) & mask) {
        const Target* target = slots_[i];
        if (!target)
          break;
        if (target->kind == kind && target->qualifiedName == name)
          return target;
      }
    }
    const Target* target = context_.target(kind, name);
    if ((count_ + 1) * 2 > slots_.size())
      grow();
    place(target);
    return target;
  }

private:
  void place(const Target* target) {
    uint64_t h = fastHash(target->qualifiedName) ^ static_cast<uint64_t>(target->kind);
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    while (slots_[i])
      i = (i + 1) & mask;
    slots_[i] = target;
    ++count_;
  }

  void grow() {
    std::vector<const Target*> old = std::move(slots_);
    slots_.assign(std::max<size_t>(64, old.size() * 2), nullptr);
    count_ = 0;
    for (const Target* target : old)
      if (target)
        place(target);
  }

  Context& context_;
  std::vector<const Target*> slots_;
  size_t count_ = 0;
};

} // namespace declone::io
