// A bump allocator for objects that live as long as their graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace declone {

/// Hands out memory by bumping a pointer through chunks and frees it all at once. Chunks double
/// from 64 KiB up to 32 MiB; an object larger than the next chunk gets a chunk of its own.
class Arena {
public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  /// `alignment` must be a power of two.
  [[nodiscard]] void* allocate(size_t size, size_t alignment) {
    uintptr_t start = (next_ + alignment - 1) & ~(alignment - 1);
    // end_ is 0 before the first chunk, so that the first allocation (even of 0 bytes) makes one.
    if (start + size > end_ || end_ == 0)
      return allocateInNewChunk(size, alignment);
    next_ = start + size;
    return reinterpret_cast<void*>(start);
  }

  /// Bytes obtained from the system so far.
  [[nodiscard]] size_t reservedBytes() const { return reserved_; }

private:
  void* allocateInNewChunk(size_t size, size_t alignment);

  uintptr_t next_ = 0;
  uintptr_t end_ = 0; ///< the current chunk's end
  size_t nextChunkSize_ = size_t(64) << 10;
  size_t reserved_ = 0;
  std::vector<void*> chunks_;
};

} // namespace declone
