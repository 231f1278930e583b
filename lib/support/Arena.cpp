// A bump allocator for objects that live as long as their graph, in chunks sized for huge pages.
#include "declone/support/Arena.h"

#include <algorithm>
#include <new>
#include <sys/mman.h>

namespace declone {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kMaxChunk = size_t(32) << 20;

size_t roundUpToHugePages(size_t bytes) {
  return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}

/// `size` bytes (a multiple of kHugePage) starting on a huge-page boundary, which the kernel
/// needs to back them with huge pages.
void* mapHugePageAligned(size_t size) {
  size_t span = size + kHugePage; // room to slide the start to a boundary
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    throw std::bad_alloc();
  auto start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start)
    munmap(raw, aligned - start);
  if (size_t tail = start + span - (aligned + size))
    munmap(reinterpret_cast<void*>(aligned + size), tail);
  // Advice only: where huge pages are off, or unknown to the kernel, plain pages serve.
  madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

} // namespace

Arena::~Arena() {
  for (const Chunk& chunk : chunks_) {
    if (chunk.mapped)
      munmap(chunk.data, chunk.size);
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
  void* data = mapped ? mapHugePageAligned(chunkSize) : ::operator new(chunkSize);
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
