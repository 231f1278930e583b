// A bump allocator for objects that live as long as their graph.
#include "declone/support/Arena.h"

#include <algorithm>
#include <new>

namespace declone {
namespace {

constexpr size_t kMaxChunk = size_t(32) << 20;

} // namespace

Arena::~Arena() {
  for (void* chunk : chunks_)
    ::operator delete(chunk);
}

void* Arena::allocateInNewChunk(size_t size, size_t alignment) {
  size_t needed = size + alignment - 1;
  size_t chunkSize = std::max(nextChunkSize_, needed);
  chunks_.reserve(chunks_.size() + 1); // so that push_back cannot throw after the allocation
  void* data = ::operator new(chunkSize);
  chunks_.push_back(data);
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
