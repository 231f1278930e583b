// An open-addressing hash table over one flat array of caller-defined slots (linear probing).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace declone {

/// A hash table whose slots are small trivially copyable values chosen by `Traits`, kept in
/// one zeroed array of power-of-two capacity, probed linearly and doubled before it is more
/// than half full. Callers pass the hash with every lookup, so that one hash serves a
/// prefetch, a find and an insert, and look up by any key type their traits can compare with a
/// slot (a string_view finds a slot that refers to a name elsewhere, without building a key).
///
/// `Traits` provides, as members of an object the table keeps (they may refer to the owner's
/// storage):
///   using Slot = ...;  // trivially copyable; all-zero bytes are an empty slot
///   bool isEmpty(const Slot&) const;
///   uint64_t hash(const Slot&) const;  // the hash the slot was inserted with, for growing
///   bool matches(const Slot&, const Key&, uint64_t hash) const;  // for each Key looked up
///
/// Slots never move except when the table grows, and entries are never removed.
template <class Traits> class OpenTable {
public:
  using Slot = typename Traits::Slot;
  static_assert(std::is_trivially_copyable_v<Slot> && std::is_trivially_destructible_v<Slot>);

  explicit OpenTable(Traits traits = Traits()) : traits_(std::move(traits)) {}
  OpenTable(const OpenTable&) = delete;
  OpenTable& operator=(const OpenTable&) = delete;
  ~OpenTable() { std::free(slots_); }

  /// Empties the table and sizes it for `expected` entries without growing.
  void reset(size_t expected) {
    size_t slots = kMinCapacity;
    while (slots < expected * 2)
      slots *= 2;
    allocate(slots);
  }

  [[nodiscard]] size_t size() const { return size_; }
  [[nodiscard]] size_t capacity() const { return mask_ + (slots_ ? 1 : 0); }
  [[nodiscard]] Traits& traits() { return traits_; }
  [[nodiscard]] const Traits& traits() const { return traits_; }

  /// Starts loading the slot a key with hash `h` is probed from. Computed in integer arithmetic
  /// and unguarded: g++ 12 drops a __builtin_prefetch behind `if (slots_)`, and a prefetch of
  /// the meaningless address an empty table gives never faults.
  void prefetch(uint64_t h) const {
    uintptr_t slot = reinterpret_cast<uintptr_t>(slots_) + (h & mask_) * sizeof(Slot);
    __builtin_prefetch(reinterpret_cast<const void*>(slot));
  }

  /// The slot matching `key` (whose hash is `h`), or nullptr.
  template <class Key> [[nodiscard]] const Slot* find(const Key& key, uint64_t h) const {
    if (!slots_)
      return nullptr;
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (traits_.isEmpty(slot))
        return nullptr;
      if (traits_.matches(slot, key, h))
        return &slot;
    }
  }
  template <class Key> [[nodiscard]] Slot* find(const Key& key, uint64_t h) {
    return const_cast<Slot*>(std::as_const(*this).find(key, h));
  }

  /// The slot matching `key` (whose hash is `h`) and false; or, if there is none, a new slot
  /// holding `make()` and true. `make` runs only when the key is absent and must return a
  /// non-empty slot that matches `key` and whose traits hash is `h`.
  template <class Key, class Make>
  std::pair<Slot*, bool> insertOrFind(const Key& key, uint64_t h, Make&& make) {
    if ((size_ + 1) * 2 > capacity())
      grow();
    size_t i = h & mask_;
    for (;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (traits_.isEmpty(slot))
        break;
      if (traits_.matches(slot, key, h))
        return {&slot, false};
    }
    // make() may use the owner's storage but never this table, so slots_ is still current.
    slots_[i] = make();
    ++size_;
    return {&slots_[i], true};
  }

  /// Calls `f(slot)` for every occupied slot, in slot order.
  template <class F> void forEach(F&& f) const {
    for (size_t i = 0, n = capacity(); i < n; ++i)
      if (!traits_.isEmpty(slots_[i]))
        f(slots_[i]);
  }

private:
  static constexpr size_t kMinCapacity = 16;

  /// `capacity` empty slots. calloc, rather than a vector's memset, lets a large table start as
  /// untouched kernel-zeroed pages.
  static Slot* emptySlots(size_t count) {
    auto* slots = static_cast<Slot*>(std::calloc(count, sizeof(Slot)));
    if (!slots)
      throw std::bad_alloc();
    return slots;
  }

  void allocate(size_t count) {
    Slot* slots = emptySlots(count);
    std::free(slots_);
    slots_ = slots;
    mask_ = count - 1;
    size_ = 0;
  }

  void grow() {
    size_t oldCapacity = capacity();
    size_t newCapacity = oldCapacity == 0 ? kMinCapacity : oldCapacity * 2;
    Slot* slots = emptySlots(newCapacity);
    size_t mask = newCapacity - 1;
    for (size_t j = 0; j < oldCapacity; ++j) {
      if (traits_.isEmpty(slots_[j]))
        continue;
      size_t i = traits_.hash(slots_[j]) & mask;
      while (!traits_.isEmpty(slots[i]))
        i = (i + 1) & mask;
      slots[i] = slots_[j];
    }
    std::free(slots_);
    slots_ = slots;
    mask_ = mask;
  }

  Traits traits_;
  Slot* slots_ = nullptr;
  size_t mask_ = 0; ///< capacity - 1, or 0 while there are no slots
  size_t size_ = 0;
};

} // namespace declone
