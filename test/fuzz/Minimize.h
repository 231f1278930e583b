// What the clone-elimination property test and the defunctionalization property share about a
// failing case: its donation (drawn alike, so both test the same graph with the same inputs
// donated) and its greedy minimisation, each property keeping its own idea of "still fails the
// same way".
#pragma once

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace declone::fuzz {

/// A random donation for the seed: none in 40% of graphs, otherwise each placeholder with
/// chance 1/2.
[[nodiscard]] std::vector<bool> randomDonation(uint64_t seed, size_t placeholders);
/// The donated placeholders' indices, as "0,2", or "none".
[[nodiscard]] std::string donatedText(const std::vector<bool>& donated);

/// The text with element `drop` of its one-line `return (...)` left out, re-printed; empty if it
/// has one element or fewer (or no such line). `elements` is set to how many it has.
[[nodiscard]] std::string dropReturnElement(const std::string& text, size_t drop, size_t& elements);

/// Whether the candidate graph (with its donation) still fails as the one being minimised; it
/// records what it needs of the failure when it does.
using StillFails = std::function<bool(const std::string& text, const std::vector<bool>& donated)>;

/// Greedy reduction: returned values, then unused nodes (placeholders with their donation), are
/// dropped from `text` while `stillFails` holds, until nothing more can go or `interrupted`.
void minimizeGraph(std::string& text, std::vector<bool>& donated, const StillFails& stillFails,
                   const volatile std::sig_atomic_t& interrupted);

} // namespace declone::fuzz
