// The reader's cache of parsed annotations, keyed by their spelling: open addressing, one array.
#pragma once

#include "FastHash.h"
#include "declone/ir/Types.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace declone::io {

/// Dumps repeat a few thousand distinct annotations over a million nodes. Parsing each spelling
/// once and sharing the TensorType (immutable once made) took a sixth of the reading time and
/// about 150 bytes per node of sizes and strides off a generated graph.
///
/// The cache keeps its own copy of every spelling in one buffer, next to the annotation and the
/// hash: a lookup that finds its slot reads one record, rather than the annotation and then its
/// spelling, which points wherever in a 100 MB dump the spelling first appeared (a cache and a
/// TLB miss each). Growing rehashes nothing.
class AnnotationCache {
public:
  /// The annotation parsed from `spelling` before, or nullptr.
  [[nodiscard]] const TypeAnnotation* find(std::string_view spelling) const {
    return find(spelling, hash(spelling));
  }
  /// find() for a spelling whose hash() the caller has.
  [[nodiscard]] const TypeAnnotation* find(std::string_view spelling, uint64_t h) const {
    if (slots_.empty())
      return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.record == kEmpty)
        return nullptr;
      // The tag settles most mismatches without touching the record.
      if (slot.tag != tag(h))
        continue;
      Record record = read(size_t(slot.record) * 8);
      if (record.spelling == spelling)
        return record.type;
    }
  }

  static uint64_t hash(std::string_view text) { return fastHash(text); }
  /// Starts loading the slot of a spelling with hash `h`: the reader looks the annotation up
  /// only after the rest of the line, so that the load overlaps that work.
  void prefetch(uint64_t h) const {
    // Integer arithmetic and no guard, as NameTable::prefetch (g++ drops a guarded prefetch).
    uintptr_t slot =
        reinterpret_cast<uintptr_t>(slots_.data()) + (h & (slots_.size() - 1)) * sizeof(Slot);
    __builtin_prefetch(reinterpret_cast<const void*>(slot));
  }

  /// Remembers `type` under its spelling. `type` must outlive the cache: nodes share the
  /// annotation rather than copy it (arena storage).
  void insert(const TypeAnnotation* type) {
    if ((count_ + 1) * 2 > slots_.size())
      grow();
    std::string_view spelling = type->spelling;
    uint64_t h = hash(spelling);
    // A record: the hash, the annotation, the spelling's size, the spelling; 8-byte aligned.
    size_t at = (records_.size() + 7) / 8 * 8;
    assert(at / 8 < kEmpty);
    uint32_t size = static_cast<uint32_t>(spelling.size());
    records_.resize(at + kHeader + size);
    char* out = records_.data() + at;
    std::memcpy(out, &h, sizeof h);
    std::memcpy(out + 8, &type, sizeof type);
    std::memcpy(out + 16, &size, sizeof size);
    std::memcpy(out + kHeader, spelling.data(), size);
    place(h, at);
    ++count_;
  }

private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static constexpr size_t kHeader = 20;
  struct Slot {
    uint32_t tag = 0;         ///< high bits of the spelling's hash
    uint32_t record = kEmpty; ///< offset of the record in records_, in 8-byte units
  };
  struct Record {
    uint64_t hash;
    const TypeAnnotation* type;
    std::string_view spelling;
  };

  Record read(size_t at) const {
    const char* in = records_.data() + at;
    Record record;
    uint32_t size;
    std::memcpy(&record.hash, in, sizeof record.hash);
    std::memcpy(&record.type, in + 8, sizeof record.type);
    std::memcpy(&size, in + 16, sizeof size);
    record.spelling = std::string_view(in + kHeader, size);
    return record;
  }

  static uint32_t tag(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

  void place(uint64_t h, size_t at) {
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    while (slots_[i].record != kEmpty)
      i = (i + 1) & mask;
    slots_[i] = Slot{tag(h), static_cast<uint32_t>(at / 8)};
  }

  void grow() {
    slots_.assign(std::max<size_t>(64, slots_.size() * 2), Slot());
    // Records in the order they were made: one sequential pass over the buffer.
    for (size_t at = 0; at < records_.size();) {
      Record record = read(at);
      place(record.hash, at);
      at = (at + kHeader + record.spelling.size() + 7) / 8 * 8;
    }
  }

  std::vector<Slot> slots_;
  std::vector<char> records_;
  size_t count_ = 0;
};

} // namespace declone::io
