// The hash of the reader's tables: short keys hashed inline in a few instructions.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace declone::io {

namespace detail {
inline uint64_t load64(const char* p) {
  uint64_t value;
  std::memcpy(&value, p, sizeof value);
  return value;
}
inline uint64_t load32(const char* p) {
  uint32_t value;
  std::memcpy(&value, p, sizeof value);
  return value;
}
/// 64x64 -> 128-bit multiply folded to 64 bits (the wyhash mixer).
inline uint64_t mix(uint64_t a, uint64_t b) {
  unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}
} // namespace detail

/// Node names (`add_1234`) and annotation spellings are 4 to 60 bytes. std::hash (an
/// out-of-line _Hash_bytes call) was 6% of reading; this reads the key in 8-byte words, never
/// past its end, and mixes them with a multiply. Both the low bits (the slot) and the high bits
/// (the tag) depend on every byte.
inline uint64_t fastHash(std::string_view key) {
  using namespace detail;
  constexpr uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull,
                     k2 = 0x8ebc6af09c88c6e3ull;
  const char* p = key.data();
  size_t n = key.size();
  uint64_t seed = k0 ^ n;
  uint64_t a = 0, b = 0;
  if (n > 16) {
    const char* last = p + n - 16;
    for (; p < last; p += 16)
      seed = mix(load64(p) ^ k1, load64(p + 8) ^ seed);
    a = load64(last); // the last 16 bytes, overlapping the loop's when n is not a multiple
    b = load64(last + 8);
  } else if (n >= 8) {
    a = load64(p);
    b = load64(p + n - 8);
  } else if (n >= 4) {
    a = load32(p);
    b = load32(p + n - 4);
  } else if (n > 0) {
    a = (uint64_t(uint8_t(p[0])) << 16) | (uint64_t(uint8_t(p[n >> 1])) << 8) | uint8_t(p[n - 1]);
  }
  return mix(mix(a ^ k1, b ^ seed) ^ k2, key.size() ^ k1);
}

} // namespace declone::io
