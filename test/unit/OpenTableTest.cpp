// The shared open-addressing table: lookup by other key types, growth, collisions, reset.
#include "declone/support/OpenTable.h"

#include <gtest/gtest.h>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace declone {
namespace {

/// Slots name strings kept by the test (as the reader's name table names its nodes): the
/// table holds an index, and a string_view finds it without a std::string being made.
struct NameTraits {
  struct Slot {
    uint32_t index; ///< 1 + position in names; 0 for an empty slot
  };
  const std::vector<std::string>* names;
  /// When set, every key hashes alike: all of them collide in one probe run.
  bool collide = false;

  uint64_t hashOf(std::string_view name) const {
    return collide ? 7 : std::hash<std::string_view>{}(name);
  }
  bool isEmpty(const Slot& slot) const { return slot.index == 0; }
  uint64_t hash(const Slot& slot) const { return hashOf((*names)[slot.index - 1]); }
  bool matches(const Slot& slot, std::string_view name, uint64_t) const {
    return (*names)[slot.index - 1] == name;
  }
};

class NameSet {
public:
  explicit NameSet(bool collide = false) : table_(NameTraits{&names_, collide}) {}

  /// The index of `name`, entered if new; `added` says whether it was.
  uint32_t intern(std::string_view name, bool& added) {
    auto [slot, inserted] = table_.insertOrFind(name, hashOf(name), [&] {
      names_.emplace_back(name);
      return NameTraits::Slot{static_cast<uint32_t>(names_.size())};
    });
    added = inserted;
    return slot->index;
  }
  const NameTraits::Slot* find(std::string_view name) const {
    return table_.find(name, hashOf(name));
  }
  uint64_t hashOf(std::string_view name) const { return table_.traits().hashOf(name); }

  std::vector<std::string> names_;
  OpenTable<NameTraits> table_;
};

TEST(OpenTable, EmptyTableFindsNothingAndPrefetchIsHarmless) {
  NameSet set;
  EXPECT_EQ(set.find("x"), nullptr);
  EXPECT_EQ(set.table_.size(), 0u);
  EXPECT_EQ(set.table_.capacity(), 0u);
  set.table_.prefetch(12345);
}

TEST(OpenTable, InsertOrFindMakesOnlyWhenAbsent) {
  NameSet set;
  bool added = false;
  EXPECT_EQ(set.intern("add_1", added), 1u);
  EXPECT_TRUE(added);
  EXPECT_EQ(set.intern("mul", added), 2u);
  EXPECT_TRUE(added);
  // A key built from other storage finds the entry; make() does not run again.
  std::string again = "add_1";
  EXPECT_EQ(set.intern(std::string_view(again), added), 1u);
  EXPECT_FALSE(added);
  EXPECT_EQ(set.names_.size(), 2u);
  EXPECT_EQ(set.table_.size(), 2u);
  ASSERT_NE(set.find("mul"), nullptr);
  EXPECT_EQ(set.find("mul")->index, 2u);
  EXPECT_EQ(set.find("mu"), nullptr);
}

TEST(OpenTable, GrowsKeepingEveryEntryAndStaysAtMostHalfFull) {
  NameSet set;
  bool added = false;
  for (int i = 0; i < 100000; ++i) {
    ASSERT_EQ(set.intern("n" + std::to_string(i), added), uint32_t(i + 1));
    ASSERT_TRUE(added);
    ASSERT_LE(set.table_.size() * 2, set.table_.capacity());
  }
  size_t capacity = set.table_.capacity();
  EXPECT_EQ(capacity & (capacity - 1), 0u) << "a power of two";
  for (int i = 0; i < 100000; ++i) {
    const NameTraits::Slot* slot = set.find("n" + std::to_string(i));
    ASSERT_NE(slot, nullptr);
    EXPECT_EQ(slot->index, uint32_t(i + 1));
  }
  EXPECT_EQ(set.find("n100000"), nullptr);
}

TEST(OpenTable, CollidingHashesAreToldApartByTheTraits) {
  NameSet set(/*collide=*/true);
  bool added = false;
  for (int i = 0; i < 300; ++i)
    ASSERT_EQ(set.intern("k" + std::to_string(i), added), uint32_t(i + 1));
  for (int i = 0; i < 300; ++i) {
    EXPECT_EQ(set.intern("k" + std::to_string(i), added), uint32_t(i + 1));
    EXPECT_FALSE(added);
  }
  EXPECT_EQ(set.find("k300"), nullptr);
  EXPECT_EQ(set.table_.size(), 300u);
}

TEST(OpenTable, ResetEmptiesAndPresizes) {
  NameSet set;
  bool added = false;
  for (int i = 0; i < 10; ++i)
    (void)set.intern("a" + std::to_string(i), added);
  set.table_.reset(1000);
  EXPECT_EQ(set.table_.size(), 0u);
  EXPECT_GE(set.table_.capacity(), 2000u);
  EXPECT_EQ(set.find("a0"), nullptr);
  size_t capacity = set.table_.capacity();
  set.names_.clear();
  for (int i = 0; i < 1000; ++i)
    (void)set.intern("b" + std::to_string(i), added);
  EXPECT_EQ(set.table_.capacity(), capacity) << "sized for 1000 entries without growing";
}

TEST(OpenTable, ForEachVisitsEveryEntryOnce) {
  NameSet set;
  bool added = false;
  for (int i = 0; i < 500; ++i)
    (void)set.intern("v" + std::to_string(i), added);
  std::set<uint32_t> seen;
  set.table_.forEach([&](const NameTraits::Slot& slot) { seen.insert(slot.index); });
  EXPECT_EQ(seen.size(), 500u);
  EXPECT_EQ(*seen.begin(), 1u);
  EXPECT_EQ(*seen.rbegin(), 500u);
}

/// Slots that are the entries themselves, looked up by a different key type.
struct PairTraits {
  struct Slot {
    const int* key; ///< nullptr for an empty slot
    int value;
  };
  static uint64_t hashOf(const int* key) { return reinterpret_cast<uintptr_t>(key) >> 2; }
  bool isEmpty(const Slot& slot) const { return slot.key == nullptr; }
  uint64_t hash(const Slot& slot) const { return hashOf(slot.key); }
  bool matches(const Slot& slot, const int* key, uint64_t) const { return slot.key == key; }
};

TEST(OpenTable, StatelessTraitsAndMutableSlots) {
  OpenTable<PairTraits> table;
  std::vector<int> keys(1000);
  for (int i = 0; i < 1000; ++i)
    table.insertOrFind(&keys[i], PairTraits::hashOf(&keys[i]), [&] {
      return PairTraits::Slot{&keys[i], i};
    });
  PairTraits::Slot* slot = table.find(&keys[42], PairTraits::hashOf(&keys[42]));
  ASSERT_NE(slot, nullptr);
  EXPECT_EQ(slot->value, 42);
  slot->value = -1;
  EXPECT_EQ(table.find(&keys[42], PairTraits::hashOf(&keys[42]))->value, -1);
  int other = 0;
  EXPECT_EQ(table.find(&other, PairTraits::hashOf(&other)), nullptr);
}

} // namespace
} // namespace declone
