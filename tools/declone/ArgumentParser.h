// A small declarative command-line parser: flags, options, positionals and generated --help.
#pragma once

#include "declone/support/Result.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace declone::cli {

class ArgumentParser {
public:
  ArgumentParser(std::string_view command, std::string_view summary)
      : command_(command), summary_(summary) {}

  void flag(std::string_view name, std::string_view help, bool* out);
  /// `--name VALUE` or `--name=VALUE`.
  void option(std::string_view name, std::string_view metavar, std::string_view help,
              std::string* out);
  /// `--name` alone takes `implicit`; `--name=VALUE` takes VALUE.
  void optionalValue(std::string_view name, std::string_view metavar, std::string_view help,
                     std::string* out, std::string_view implicit);
  /// May be given several times.
  void repeated(std::string_view name, std::string_view metavar, std::string_view help,
                std::vector<std::string>* out);
  /// Positional arguments, in order; `min`/`max` bound how many this one takes.
  void positional(std::string_view metavar, std::string_view help, std::vector<std::string>* out,
                  size_t min, size_t max);

  /// Parses `args` (without the program and command names). `--help` sets helpRequested().
  [[nodiscard]] Status parse(std::span<const std::string_view> args);
  [[nodiscard]] bool helpRequested() const { return helpRequested_; }
  /// parse(), then what every command does next: on `--help` print the help, on an error report
  /// it. Returns the exit status when the command should stop there.
  [[nodiscard]] std::optional<int> parseOrExit(std::span<const std::string_view> args);
  [[nodiscard]] std::string help() const;

private:
  struct Spec {
    enum class Kind { Flag, Option, OptionalValue, Repeated } kind;
    std::string_view name;
    std::string_view metavar;
    std::string_view help;
    bool* flag = nullptr;
    std::string* value = nullptr;
    std::vector<std::string>* values = nullptr;
    std::string_view implicit = {};
  };
  struct Positional {
    std::string_view metavar;
    std::string_view help;
    std::vector<std::string>* out;
    size_t min;
    size_t max;
  };
  std::string_view command_;
  std::string_view summary_;
  std::vector<Spec> specs_;
  std::vector<Positional> positionals_;
  bool helpRequested_ = false;
};

} // namespace declone::cli
