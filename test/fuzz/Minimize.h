// Greedy minimisation of a failing graph, shared by the clone-elimination property test and the
// defunctionalization property: each keeps its own idea of "still fails the same way".
#pragma once

#include <csignal>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace declone::fuzz {

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
