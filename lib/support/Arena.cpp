// A bump allocator for objects that live as long as their graph, in chunks sized for huge pages.
#include "declone/support/Arena.h"

#include "declone/support/HugePages.h"

#include <algorithm>
#include <new>

namespace declone {
namespace {

constexpr size_t kMaxChunk = size_t(32) << 20;

} // namespace

Arena::~Arena() {
  for (const Chunk& chunk : chunks_) {
    if (chunk.mapped)
      freeHugePages(chunk.data, chunk.size);
    else
      ::operator delete(chunk.data);
  }
}

void* Arena::allocateInNewChunk(size_t size, size_t alignment) {
  // An object larger than the next chunk gets a chunk of its own and leaves the schedule alone.
  size_t needed = size + alignment - 1;
  size_t chunkSize = std::max(nextChunkSize_, needed);
  bool mapped = chunkSize >= kHugePage;
  if (mapped)
    chunkSize = roundUpToHugePages(chunkSize);
  void* data = mapped ? allocateHugePages(chunkSize) : ::operator new(chunkSize);
  chunks_.push_back(Chunk{data, chunkSize, mapped});
  reserved_ += chunkSize;
  if (needed <= nextChunkSize_)
    nextChunkSize_ = std::min(nextChunkSize_ * 2, kMaxChunk);

  auto start = reinterpret_cast<uintptr_t>(data);
  uintptr_t aligned = (start + alignment - 1) & ~(alignment - 1);
  uintptr_t end = start + chunkSize;
  // Bump on through whichever chunk has more room left: a large object's own chunk is full.
  if (end - (aligned + size) >= end_ - next_) {
    next_ = aligned + size;
    end_ = end;
  }
  return reinterpret_cast<void*>(aligned);
}

} // namespace declone
