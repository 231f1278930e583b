// Result<T>: a value or a located error, for recoverable failures (bad input).
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace declone {

/// A related place an error points to ("previous definition is here").
struct Note {
  std::string message;
  uint32_t line = 0;
  uint32_t column = 0;         ///< 0: the line's first non-blank character
  std::string sourceLine = {}; ///< the text of `line`, when known, for the caret display
};

/// A recoverable error with an optional source position (1-based; 0 = unknown).
struct Error {
  std::string message;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string sourceLine = {}; ///< the text of `line`, when known, for the caret display
  std::vector<Note> notes = {};

  /// Formats as `FILE:LINE:COL: error: MESSAGE` (the position parts are left out when unknown),
  /// on one line, notes in brackets after it. renderDiagnostic (Diagnostic.h) adds source lines and
  /// carets.
  [[nodiscard]] std::string format(std::string_view file) const;
};

template <class T> class [[nodiscard]] Result {
public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  [[nodiscard]] bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok() && "value() on an error Result");
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(ok() && "value() on an error Result");
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(ok() && "value() on an error Result");
    return std::get<0>(std::move(state_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const {
    assert(!ok() && "error() on a successful Result");
    return std::get<1>(state_);
  }

private:
  std::variant<T, Error> state_;
};

/// Result of an operation that yields nothing but may fail.
struct Success {};
using Status = Result<Success>;

inline Status ok() {
  return Success{};
}

} // namespace declone
