// Byte counts for people: `512 B`, `1.5 KiB`, `12.0 MiB`.
#pragma once

#include <cstdint>
#include <string>

namespace declone {

/// `512 B` below 1 KiB, else one decimal in binary units up to PiB.
[[nodiscard]] std::string formatBytes(uint64_t bytes);

} // namespace declone
