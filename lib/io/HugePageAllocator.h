// An allocator that asks the kernel to back large arrays with 2 MB pages.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace declone::io {

/// The reader's name table is 16 to 32 MB for a million-node graph and is probed at random:
/// with 4 KB pages nearly every probe also missed the TLB, and a prefetch that misses the TLB
/// stalls on the page walk (a third of the table's cost in a VM). Arrays of 2 MB or more are
/// allocated 2 MB-aligned and marked MADV_HUGEPAGE, which transparent huge pages honour in
/// their default `madvise` mode; smaller ones, and systems without it, get ordinary memory.
template <class T> struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHugePage = size_t(2) << 20;

  HugePageAllocator() = default;
  template <class U> HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t count) {
    size_t bytes = count * sizeof(T);
    if (bytes < kHugePage)
      return static_cast<T*>(::operator new(bytes));
    size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* memory = std::aligned_alloc(kHugePage, rounded);
    if (!memory)
      throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(memory, rounded, MADV_HUGEPAGE); // advice only: failure just means small pages
#endif
    return static_cast<T*>(memory);
  }
  void deallocate(T* memory, size_t count) {
    if (count * sizeof(T) < kHugePage)
      ::operator delete(memory);
    else
      std::free(memory);
  }

  template <class U> bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

} // namespace declone::io
