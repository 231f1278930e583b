// The graph arena: alignment, growth into new chunks, large objects, and that memory is usable.
#include "declone/support/Arena.h"

#include "TestSupport.h"
#include "declone/support/HugePages.h"
#include "declone/support/PagePopulator.h"

#include <chrono>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <set>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace declone {
namespace {

bool isAligned(const void* pointer, size_t alignment) {
  return reinterpret_cast<uintptr_t>(pointer) % alignment == 0;
}

TEST(Arena, AllocationsAreAlignedDistinctAndWritable) {
  Arena arena;
  std::set<const char*> seen;
  for (size_t i = 0; i < 100000; ++i) {
    size_t alignment = size_t(1) << (i % 5); // 1 .. 16
    size_t size = 1 + i % 97;
    auto* data = static_cast<char*>(arena.allocate(size, alignment));
    ASSERT_TRUE(isAligned(data, alignment)) << i;
    std::memset(data, static_cast<int>(i), size);
    EXPECT_TRUE(seen.insert(data).second) << i;
  }
  EXPECT_GT(arena.reservedBytes(), size_t(4) << 20); // several chunks, grown past 2 MiB
}

TEST(Arena, ZeroBytesStillGivesAPointer) {
  Arena arena;
  EXPECT_NE(arena.allocate(0, 1), nullptr);
}

TEST(Arena, LargeObjectsGetAChunkOfTheirOwn) {
  Arena arena;
  (void)arena.allocate(16, 8);
  size_t large = size_t(40) << 20; // larger than any regular chunk
  auto* big = static_cast<char*>(arena.allocate(large, 64));
  ASSERT_TRUE(isAligned(big, 64));
  big[0] = 1;
  big[large - 1] = 2;
  for (int i = 0; i < 1000; ++i) {
    auto* small = static_cast<char*>(arena.allocate(16, 8));
    EXPECT_TRUE(small + 16 <= big || small >= big + large) << i;
  }
  EXPECT_GE(arena.reservedBytes(), large);
}

/// Waits up to 10 s for the populator to have populated `bytes` more than `before`.
bool populatedBeyond(size_t before, size_t bytes) {
  for (int i = 0; i < 1000; ++i) {
    if (PagePopulator::instance().populatedBytes() >= before + bytes)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(Arena, HugePageChunksArePopulatedAheadWithoutDisturbingWhatIsWritten) {
  size_t before = PagePopulator::instance().populatedBytes();
  // Allocations of every size up to a huge page and beyond, written as they come: the populator
  // works on the pages ahead of (and, racing, under) the writes, which must all survive.
  Arena arena;
  std::vector<std::pair<unsigned char*, size_t>> blocks;
  size_t total = 0;
  for (size_t i = 0; total < (size_t(96) << 20); ++i) {
    size_t size = i % 50 == 49 ? (size_t(3) << 20) : 1 + (i * 7919) % 4096;
    auto* data = static_cast<unsigned char*>(arena.allocate(size, 8));
    std::memset(data, static_cast<int>(i & 0xff), size);
    blocks.emplace_back(data, size);
    total += size;
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    auto [data, size] = blocks[i];
    ASSERT_EQ(data[0], i & 0xff) << i;
    ASSERT_EQ(data[size / 2], i & 0xff) << i;
    ASSERT_EQ(data[size - 1], i & 0xff) << i;
  }
  if (test::kernelPopulates()) {
    EXPECT_TRUE(populatedBeyond(before, kHugePage));
  }
}

TEST(PagePopulator, RequestsOfRaggedLengthArePopulatedAndLeaveItWorking) {
  if (!test::kernelPopulates())
    GTEST_SKIP() << "this kernel does not populate on request";
  // A file's length is no multiple of a page: the populator's steps must still start on page
  // boundaries, or the kernel refuses them and the populator switches itself off for good.
  size_t ragged = (size_t(5) << 20) + 12345;
  void* first = allocateHugePages(ragged);
  void* second = allocateHugePages(kHugePage);
  size_t before = PagePopulator::instance().populatedBytes();
  PagePopulator::instance().request(first, first, ragged);
  EXPECT_TRUE(populatedBeyond(before, ragged));
  PagePopulator::instance().request(second, second, kHugePage);
  EXPECT_TRUE(populatedBeyond(before, ragged + kHugePage));
  freeHugePages(first, ragged);
  freeHugePages(second, kHugePage);
}

TEST(PagePopulator, AForkedChildPopulatesAndCancelsWithoutTheParentsThread) {
  // The parent's populator thread does not exist in a child, and the parent may fork while that
  // thread holds the lock or serves a request: the child must neither hang nor lose memory.
  Arena parentArena;
  for (int i = 0; i < 40; ++i)
    (void)parentArena.allocate(size_t(256) << 10, 64); // requests in flight at the fork
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(20); // a hang ends the child with SIGALRM, which the parent reports
    int status = 0;
    for (int round = 0; round < 5; ++round) {
      Arena arena;
      for (int i = 0; i < 64; ++i) {
        auto* data = static_cast<char*>(arena.allocate(size_t(128) << 10, 64));
        data[0] = static_cast<char>(i);
        status |= data[0] != static_cast<char>(i);
      }
    }
    // And the child's own requests are served, by a thread of its own.
    if (test::kernelPopulates()) {
      void* memory = allocateHugePages(kHugePage);
      size_t before = PagePopulator::instance().populatedBytes();
      requestPopulation(memory, kHugePage);
      status |= !populatedBeyond(before, kHugePage) << 1;
      freeHugePages(memory, kHugePage);
    }
    std::_Exit(status);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status)) << "the child was killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: memory lost, 2: the child's requests were not served";
}

TEST(Arena, DestroyedWhilePopulationIsPending) {
  // Each arena asks for pages and is unmapped at once: cancel() must drop or stop its requests,
  // or the populator would work on memory that is gone, which the kernel fails (ENOMEM).
  size_t failedBefore = PagePopulator::instance().failedRequests();
  for (int i = 0; i < 50; ++i) {
    auto arena = std::make_unique<Arena>();
    for (int j = 0; j < 300; ++j)
      (void)arena->allocate(size_t(64) << 10, 64);
  }
  Arena last;
  auto* data = static_cast<char*>(last.allocate(size_t(1) << 20, 64));
  data[0] = 1;
  EXPECT_EQ(data[0], 1);
  EXPECT_EQ(PagePopulator::instance().failedRequests(), failedBefore);
}

} // namespace
} // namespace declone
