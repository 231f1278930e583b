// Memory backed by transparent huge pages, for arena chunks and large random-access tables.
#pragma once

#include <cstddef>

namespace declone {

/// A million-node graph touches a few hundred MB once and probes MB-sized tables at random.
/// With 4 KiB pages a fifth of reading went to page faults, and nearly every table probe also
/// missed the TLB (a prefetch that misses the TLB stalls on the page walk). Huge pages cut both.
inline constexpr size_t kHugePage = size_t(2) << 20;

[[nodiscard]] constexpr size_t roundUpToHugePages(size_t bytes) {
  return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}

/// roundUpToHugePages(bytes) bytes of zeroed memory starting on a huge-page boundary (which the
/// kernel needs to back them with huge pages) and advised MADV_HUGEPAGE, as transparent huge
/// pages honour in their default `madvise` mode; where they are off, ordinary pages serve.
/// Throws std::bad_alloc when the system has no memory to map.
[[nodiscard]] void* allocateHugePages(size_t bytes);
/// Gives back memory from allocateHugePages(bytes), with the same `bytes`.
void freeHugePages(void* memory, size_t bytes);

/// A std::allocator for large arrays: 2 MiB and more come from allocateHugePages, smaller ones
/// from operator new.
template <class T> struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U> HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t count) {
    size_t bytes = count * sizeof(T);
    return static_cast<T*>(bytes < kHugePage ? ::operator new(bytes) : allocateHugePages(bytes));
  }
  void deallocate(T* memory, size_t count) {
    size_t bytes = count * sizeof(T);
    if (bytes < kHugePage)
      ::operator delete(memory);
    else
      freeHugePages(memory, bytes);
  }
  template <class U> bool operator==(const HugePageAllocator<U>&) const { return true; }
};

} // namespace declone
