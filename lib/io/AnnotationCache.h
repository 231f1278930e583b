// The reader's cache of parsed annotations, keyed by their spelling, on the shared table.
#pragma once

#include "FastHash.h"
#include "declone/ir/Types.h"
#include "declone/support/OpenTable.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace declone::io {

/// Dumps repeat a few thousand distinct annotations over a million nodes: each spelling is
/// parsed once and its TensorType (immutable once made) shared.
///
/// The cache keeps its own copy of every spelling in one buffer, next to the annotation and the
/// hash: a lookup that finds its slot reads one record, rather than the annotation and then its
/// spelling, which points wherever in a 100 MB dump the spelling first appeared (a cache and a
/// TLB miss each). Growing reads the stored hashes and hashes no spelling again.
class AnnotationCache {
public:
  AnnotationCache() : table_(Traits{&records_}) {}
  /// The traits refer to records_.
  AnnotationCache(const AnnotationCache&) = delete;
  AnnotationCache& operator=(const AnnotationCache&) = delete;

  /// The annotation parsed from `spelling` before, or nullptr.
  [[nodiscard]] const TypeAnnotation* find(std::string_view spelling) const {
    return find(spelling, hash(spelling));
  }
  /// find() for a spelling whose hash() the caller has.
  [[nodiscard]] const TypeAnnotation* find(std::string_view spelling, uint64_t h) const {
    const Slot* slot = table_.find(spelling, h);
    return slot ? read(records_, slot->record).type : nullptr;
  }

  static uint64_t hash(std::string_view text) { return fastHash(text); }
  /// Starts loading the slot of a spelling with hash `h`: the reader looks the annotation up
  /// only after the rest of the line, so that the load overlaps that work.
  void prefetch(uint64_t h) const { table_.prefetch(h); }

  /// Remembers `type` under its spelling. `type` must outlive the cache: nodes share the
  /// annotation rather than copy it (arena storage).
  void insert(const TypeAnnotation* type) {
    std::string_view spelling = type->spelling;
    uint64_t h = hash(spelling);
    table_.insertOrFind(spelling, h, [&] {
      // A record: the hash, the annotation, the spelling's size, the spelling; 8-byte aligned.
      size_t at = (records_.size() + 7) / 8 * 8;
      assert(at / 8 < UINT32_MAX);
      uint32_t size = static_cast<uint32_t>(spelling.size());
      records_.resize(at + kHeader + size);
      char* out = records_.data() + at;
      std::memcpy(out, &h, sizeof h);
      std::memcpy(out + 8, &type, sizeof type);
      std::memcpy(out + 16, &size, sizeof size);
      std::memcpy(out + kHeader, spelling.data(), size);
      return Slot{tag(h), static_cast<uint32_t>(at / 8 + 1)};
    });
  }

private:
  static constexpr size_t kHeader = 20;
  struct Slot {
    uint32_t tag;    ///< high bits of the spelling's hash
    uint32_t record; ///< 1 + offset of the record in records_ in 8-byte units; 0 if empty
  };
  struct Record {
    uint64_t hash;
    const TypeAnnotation* type;
    std::string_view spelling;
  };

  static Record read(const std::vector<char>& records, uint32_t record) {
    const char* in = records.data() + size_t(record - 1) * 8;
    Record out;
    uint32_t size;
    std::memcpy(&out.hash, in, sizeof out.hash);
    std::memcpy(&out.type, in + 8, sizeof out.type);
    std::memcpy(&size, in + 16, sizeof size);
    out.spelling = std::string_view(in + kHeader, size);
    return out;
  }

  static uint32_t tag(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

  struct Traits {
    using Slot = AnnotationCache::Slot;
    const std::vector<char>* records;

    bool isEmpty(const Slot& slot) const { return slot.record == 0; }
    uint64_t hash(const Slot& slot) const { return read(*records, slot.record).hash; }
    bool matches(const Slot& slot, std::string_view spelling, uint64_t h) const {
      // The tag settles most mismatches without touching the record.
      return slot.tag == tag(h) && read(*records, slot.record).spelling == spelling;
    }
  };

  std::vector<char> records_;
  OpenTable<Traits> table_;
};

} // namespace declone::io
