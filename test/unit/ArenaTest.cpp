// The graph arena: alignment, growth into new chunks, large objects, and that memory is usable.
#include "declone/support/Arena.h"

#include <cstring>
#include <gtest/gtest.h>
#include <set>
#include <utility>
#include <vector>

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

TEST(Arena, EarlierAllocationsSurviveLaterOnes) {
  // Allocations of every size up to a chunk and beyond, each written as it comes, read back at
  // the end: no chunk may overlap another or be given back early.
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
}

} // namespace
} // namespace declone
