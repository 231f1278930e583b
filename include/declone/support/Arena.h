// A bump allocator for objects that live as long as their graph, in chunks sized for huge pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace declone {

/// Hands out memory by bumping a pointer through chunks and frees it all at once. Chunks grow
/// from 64 KiB to 32 MiB; from 2 MiB on they are whole huge pages, mapped directly and advised
/// as transparent huge pages. A million-node graph touches a few hundred MB once: with 4 KiB
/// pages a fifth of reading it went to page faults and TLB misses, and whole-page chunk sizes
/// keep a huge page from being made resident for a chunk's unused tail. In huge-page chunks the
/// PagePopulator faults in the page after the one being filled on the other core, so that the
/// kernel's zeroing of it overlaps the work instead of stalling it.
class Arena {
public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  /// `alignment` must be a power of two.
  [[nodiscard]] void* allocate(size_t size, size_t alignment) {
    uintptr_t start = (next_ + alignment - 1) & ~(alignment - 1);
    // limit_ is 0 before the first chunk, so that the first allocation (even of 0 bytes) makes
    // one.
    if (start + size > limit_ || limit_ == 0)
      return allocateSlowly(size, alignment);
    next_ = start + size;
    return reinterpret_cast<void*>(start);
  }

  /// Bytes obtained from the system so far (touched or not).
  [[nodiscard]] size_t reservedBytes() const { return reserved_; }

private:
  void* allocateSlowly(size_t size, size_t alignment);
  void* allocateInNewChunk(size_t size, size_t alignment);
  /// Bumps on through [start, end) of the chunk that begins at `chunk`; `populated` says whether
  /// its pages are to be populated ahead (then limit_ stays below end_ until the last page).
  void bumpThrough(uintptr_t chunk, uintptr_t start, uintptr_t end, bool populated);
  /// Moves limit_ past `position` (inside the chunk) and requests the page after it.
  void populateAhead(uintptr_t position);

  struct Chunk {
    void* data;
    size_t size;
    bool mapped; ///< from mmap rather than operator new
  };
  uintptr_t next_ = 0;
  /// Where the fast path stops: the chunk's end, or in a populated chunk the end of the huge page
  /// being filled, where the slow path asks for the next one.
  uintptr_t limit_ = 0;
  uintptr_t end_ = 0;         ///< the current chunk's end
  uintptr_t chunkStart_ = 0;  ///< of the current chunk, when populated
  uintptr_t requestedTo_ = 0; ///< population was requested up to here in the current chunk
  size_t nextChunkSize_ = size_t(64) << 10;
  size_t reserved_ = 0;
  std::vector<Chunk> chunks_;
};

} // namespace declone
