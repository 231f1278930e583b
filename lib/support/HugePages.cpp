// Memory backed by transparent huge pages, for arena chunks and large random-access tables.
#include "declone/support/HugePages.h"

#include "declone/support/PagePopulator.h"

#include <cstdint>
#include <new>
#include <sys/mman.h>

namespace declone {

void* allocateHugePages(size_t bytes) {
  size_t size = roundUpToHugePages(bytes);
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
  madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE); // advice: failure is harmless
  return reinterpret_cast<void*>(aligned);
}

void freeHugePages(void* memory, size_t bytes) {
  // Population requests are keyed by the allocation: none may touch it once it is unmapped.
  PagePopulator::instance().cancel(memory);
  munmap(memory, roundUpToHugePages(bytes));
}

void requestPopulation(void* memory, size_t bytes) {
  PagePopulator::instance().request(memory, memory, bytes);
}

} // namespace declone
