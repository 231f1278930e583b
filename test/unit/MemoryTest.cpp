// The memory a process may use: cgroup v1 and v2 limits cap the machine's.
#include "declone/support/Memory.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace declone {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kGiB = uint64_t(1) << 30;

/// A fake `/` holding /proc/self/cgroup and cgroup limit files.
class FakeRoot {
public:
  FakeRoot() : root_(fs::temp_directory_path() / ("memory." + std::to_string(::getpid()))) {
    fs::remove_all(root_);
  }
  ~FakeRoot() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  void write(const std::string& path, const std::string& text) const {
    fs::create_directories((root_ / path).parent_path());
    std::ofstream(root_ / path) << text;
  }
  [[nodiscard]] const fs::path& path() const { return root_; }

private:
  fs::path root_;
};

TEST(Memory, WithoutControlGroupsTheMachinesMemory) {
  FakeRoot root;
  EXPECT_EQ(usableMemory(64 * kGiB, root.path()), 64 * kGiB);
  root.write("proc/self/cgroup", "0::/\n");
  root.write("sys/fs/cgroup/memory.max", "max\n");
  EXPECT_EQ(usableMemory(64 * kGiB, root.path()), 64 * kGiB);
}

TEST(Memory, CgroupV2LimitOfTheGroupOrAnAncestor) {
  FakeRoot root;
  root.write("proc/self/cgroup", "0::/user.slice/job\n");
  root.write("sys/fs/cgroup/user.slice/job/memory.max", "max\n");
  root.write("sys/fs/cgroup/user.slice/memory.max", std::to_string(4 * kGiB) + "\n");
  EXPECT_EQ(usableMemory(64 * kGiB, root.path()), 4 * kGiB);
  // A limit above the machine's memory changes nothing.
  root.write("sys/fs/cgroup/user.slice/memory.max", std::to_string(128 * kGiB) + "\n");
  EXPECT_EQ(usableMemory(64 * kGiB, root.path()), 64 * kGiB);
}

TEST(Memory, CgroupV1MemoryControllerAndAContainersOwnRoot) {
  FakeRoot root;
  // As on a v1 machine: the group's path is not visible inside the container, its root is.
  root.write("proc/self/cgroup", "5:devices:/\n4:cpuacct,memory:/process_api/abc\n1:cpu:/\n");
  root.write("sys/fs/cgroup/memory/memory.limit_in_bytes", std::to_string(3 * kGiB) + "\n");
  EXPECT_EQ(usableMemory(64 * kGiB, root.path()), 3 * kGiB);
  // v1's "unlimited" is a huge number.
  root.write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_EQ(usableMemory(64 * kGiB, root.path()), 64 * kGiB);
}

TEST(Memory, TheRealMachineHasSome) {
  EXPECT_GT(usableMemory(), 0u);
}

} // namespace
} // namespace declone
