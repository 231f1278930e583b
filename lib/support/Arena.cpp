// A bump allocator for objects that live as long as their graph, in chunks sized for huge pages.
#include "declone/support/Arena.h"

#include "declone/support/HugePages.h"
#include "declone/support/PagePopulator.h"

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

void* Arena::allocateSlowly(size_t size, size_t alignment) {
  uintptr_t start = (next_ + alignment - 1) & ~(alignment - 1);
  if (limit_ == 0 || start + size > end_)
    return allocateInNewChunk(size, alignment);
  // Only the end of a populated chunk's current huge page (limit_ < end_) stopped the fast path.
  next_ = start + size;
  populateAhead(next_);
  return reinterpret_cast<void*>(start);
}

void Arena::bumpThrough(uintptr_t chunk, uintptr_t start, uintptr_t end, bool populated) {
  next_ = start;
  end_ = end;
  limit_ = end;
  if (populated) {
    chunkStart_ = chunk;
    requestedTo_ = start & ~(kHugePage - 1);
    populateAhead(start);
  }
}

void Arena::populateAhead(uintptr_t position) {
  // The fast path runs to the end of the huge page holding `position`; the page after it is
  // populated meanwhile. One page ahead is enough (filling 2 MiB takes milliseconds, zeroing it
  // a fraction of one) and leaves at most one unused page resident at the end of a chunk.
  uintptr_t pageEnd = (position & ~(kHugePage - 1)) + kHugePage;
  limit_ = std::min(pageEnd, end_);
  uintptr_t wanted = std::min(pageEnd + kHugePage, end_);
  if (wanted > requestedTo_) {
    // Keyed by the chunk, so that freeHugePages withdraws what is still pending.
    PagePopulator::instance().request(reinterpret_cast<void*>(chunkStart_),
                                      reinterpret_cast<void*>(requestedTo_), wanted - requestedTo_);
    requestedTo_ = wanted;
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
  if (end - (aligned + size) >= end_ - next_)
    bumpThrough(start, aligned + size, end, mapped);
  return reinterpret_cast<void*>(aligned);
}

} // namespace declone
