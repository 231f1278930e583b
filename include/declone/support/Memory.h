// How much memory this process may use: the machine's, capped by its control groups.
#pragma once

#include <cstdint>
#include <filesystem>

namespace declone {

/// `physical` bytes, capped by the memory limits of the control groups this process runs in
/// (cgroup v2 `memory.max` and v1 `memory.limit_in_bytes`, of its group and every ancestor): a
/// container with 4 GiB on a 64 GiB machine gets 4 GiB. `root` is where `/proc` and `/sys` are
/// found ("/" but in tests). Limits that cannot be read are no limit.
[[nodiscard]] uint64_t usableMemory(uint64_t physical, const std::filesystem::path& root = "/");

/// The machine's physical memory capped by usableMemory; 0 when it cannot be found.
[[nodiscard]] uint64_t usableMemory();

} // namespace declone
