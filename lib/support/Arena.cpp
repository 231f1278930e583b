// A bump allocator for objects that live as long as their graph.
#include "declone/support/Arena.h"

#include <algorithm>
#include <new>
#include <sys/mman.h>

namespace declone {
namespace {

constexpr size_t kMaxChunk = size_t(32) << 20;
constexpr uintptr_t kHugePage = uintptr_t(2) << 20;

/// Asks for transparent huge pages over the whole huge pages inside a large chunk (a hint:
/// failure is harmless): a large graph's arena is touched once, and 4 KiB pages would cost it a
/// page fault every few dozen nodes.
void adviseHugePages(void* data, size_t size) {
  auto start = reinterpret_cast<uintptr_t>(data);
  uintptr_t first = (start + kHugePage - 1) & ~(kHugePage - 1);
  uintptr_t last = (start + size) & ~(kHugePage - 1);
  if (last > first)
    (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

} // namespace

Arena::~Arena() {
  for (void* chunk : chunks_)
    ::operator delete(chunk);
}

void* Arena::allocateInNewChunk(size_t size, size_t alignment) {
  size_t needed = size + alignment - 1;
  size_t chunkSize = std::max(nextChunkSize_, needed);
  // The list grows first, so that a chunk is never allocated without a place to free it from.
  chunks_.push_back(nullptr);
  void* data = chunks_.back() = ::operator new(chunkSize);
  if (chunkSize >= 2 * kHugePage)
    adviseHugePages(data, chunkSize);
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
