// Memory backed by transparent huge pages, for arena chunks and large random-access tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>

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
/// Gives back memory from allocateHugePages(bytes), with the same `bytes`; first withdraws any
/// requestPopulation for it.
void freeHugePages(void* memory, size_t bytes);
/// Asks the PagePopulator to fault in [memory, memory + bytes) on its thread; `memory` must be
/// what allocateHugePages returned, which is what freeHugePages withdraws the request by.
void requestPopulation(void* memory, size_t bytes);

/// An array of `size()` zero-initialised T (a type for which all-zero bytes are the value
/// T{}), for large tables that start empty: from 2 MiB on it is huge pages the kernel has
/// zeroed, faulted in by the PagePopulator on another core, where a std::vector would zero
/// them again with a memset on this one (a million-node name table: 16 MB, 4% of reading).
template <class T> class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
  ZeroedArray() = default;
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  ~ZeroedArray() { release(); }

  /// Replaces the contents with `count` zeroed elements.
  void assignZeroed(size_t count);

  [[nodiscard]] T* data() { return data_; }
  [[nodiscard]] const T* data() const { return data_; }
  [[nodiscard]] size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

private:
  void release();

  T* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

template <class T> void ZeroedArray<T>::assignZeroed(size_t count) {
  release();
  if (count > SIZE_MAX / sizeof(T))
    throw std::bad_alloc();
  size_t bytes = count * sizeof(T);
  if (bytes == 0)
    return;
  mapped_ = bytes >= kHugePage;
  void* memory = mapped_ ? allocateHugePages(bytes) : std::calloc(count, sizeof(T));
  if (!memory)
    throw std::bad_alloc();
  if (mapped_)
    requestPopulation(memory, bytes);
  data_ = static_cast<T*>(memory);
  size_ = count;
}

template <class T> void ZeroedArray<T>::release() {
  if (!data_)
    return;
  if (mapped_)
    freeHugePages(data_, size_ * sizeof(T));
  else
    std::free(data_);
  data_ = nullptr;
  size_ = 0;
}

} // namespace declone
