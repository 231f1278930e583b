// A deterministic random number generator for graph generators: the same numbers on every
// platform and standard library, unlike the std:: distributions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace declone {

/// xoshiro256** seeded through splitmix64.
class DeterministicRandom {
public:
  explicit DeterministicRandom(uint64_t seed) {
    for (uint64_t& word : state_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  uint64_t next() {
    uint64_t result = rotl(state_[1] * 5, 7) * 9;
    uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  /// Uniform in [0, bound) by multiply-shift; bound > 0. The bias (< bound / 2^64) does not
  /// matter for generators.
  size_t below(size_t bound) {
    return static_cast<size_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
  }
  /// Uniform in [low, high].
  int64_t between(int64_t low, int64_t high) {
    return low + static_cast<int64_t>(below(static_cast<size_t>(high - low + 1)));
  }
  bool chance(double probability) {
    return static_cast<double>(next() >> 11) * 0x1.0p-53 < probability;
  }
  template <class T> const T& choose(std::span<const T> items) {
    return items[below(items.size())];
  }

private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

} // namespace declone
