// Work started on another thread where the system allows one, and done by the caller where not.
#pragma once

#include <future>
#include <system_error>
#include <type_traits>
#include <utility>

namespace declone {

/// `std::async(std::launch::async, fn)`, or an invalid future where no thread can be started (a
/// process limit, a stack limit no thread's stack fits in): the caller then does the work
/// itself. Before, std::system_error escaped and aborted the run.
template <class Fn> [[nodiscard]] std::future<std::invoke_result_t<Fn&>> asyncIfPossible(Fn fn) {
  try {
    return std::async(std::launch::async, std::move(fn));
  } catch (const std::system_error&) {
    return {};
  }
}

} // namespace declone
