// The memory a process may use: physical memory, capped by cgroup limits.
#include "declone/support/Memory.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace declone {
namespace {

namespace fs = std::filesystem;

/// A limit file's number; "max" (cgroup v2's "none"), a missing file or junk are no limit.
std::optional<uint64_t> readLimit(const fs::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!in || !std::getline(in, text))
    return std::nullopt;
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data())
    return std::nullopt;
  return value;
}

/// The smallest limit named `file` in `group` (a path under `hierarchy`) and its ancestors up
/// to the hierarchy's root. Inside a container the group's own path may not exist (the
/// container sees its group as the root), so the root's file counts too.
uint64_t smallestLimit(const fs::path& hierarchy, std::string_view group, const char* file,
                       uint64_t limit) {
  fs::path path = fs::path(std::string(group)).relative_path();
  for (;;) {
    if (std::optional<uint64_t> value = readLimit(hierarchy / path / file))
      limit = std::min(limit, *value);
    if (path.empty())
      return limit;
    path = path.parent_path();
  }
}

} // namespace

uint64_t usableMemory(uint64_t physical, const fs::path& root) {
  std::ifstream groups(root / "proc/self/cgroup");
  uint64_t limit = physical;
  // Lines are `ID:CONTROLLERS:PATH`; v2 has ID 0 and no controllers.
  for (std::string line; std::getline(groups, line);) {
    size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == line.npos || second == line.npos)
      continue;
    std::string_view controllers = std::string_view(line).substr(first + 1, second - first - 1);
    std::string_view group = std::string_view(line).substr(second + 1);
    if (controllers.empty()) {
      limit = smallestLimit(root / "sys/fs/cgroup", group, "memory.max", limit);
      continue;
    }
    std::stringstream list{std::string(controllers)};
    for (std::string controller; std::getline(list, controller, ',');)
      if (controller == "memory")
        limit = smallestLimit(root / "sys/fs/cgroup/memory", group, "memory.limit_in_bytes", limit);
  }
  return limit;
}

uint64_t usableMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return 0;
  return usableMemory(static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize));
}

} // namespace declone
