// A small declarative command-line parser: flags, options, positionals, generated --help, and
// the description the man page and shell completions are generated from.
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
  /// Spellings of one option: "-o|--output". A one-letter spelling also takes its value attached
  /// (`-oFILE`, `-j2`); a long one takes `--name VALUE` or `--name=VALUE`.
  using Names = std::string_view;

  ArgumentParser(std::string_view command, std::string_view summary)
      : command_(command), summary_(summary) {}

  void flag(Names names, std::string_view help, bool* out);
  void option(Names names, std::string_view metavar, std::string_view help, std::string* out);
  /// `--name` alone takes `implicit`; `--name=VALUE` takes VALUE. A metavar such as "text|json"
  /// lists the values, so that `--name json` can be answered with "did you mean --name=json?".
  void optionalValue(Names names, std::string_view metavar, std::string_view help, std::string* out,
                     std::string_view implicit);
  /// May be given several times.
  void repeated(Names names, std::string_view metavar, std::string_view help,
                std::vector<std::string>* out);
  /// Positional arguments, in order; `min`/`max` bound how many this one takes.
  void positional(std::string_view metavar, std::string_view help, std::vector<std::string>* out,
                  size_t min, size_t max);

  /// Parses `args` (without the program and command names). `--help` sets helpRequested().
  [[nodiscard]] Status parse(std::span<const std::string_view> args);
  [[nodiscard]] bool helpRequested() const { return helpRequested_; }
  /// parse(), then what every command does next: on `--help` print the help, on an error report
  /// it. Returns the exit status when the command should stop there. While a description is
  /// being collected (collectDescriptions), it records this parser and stops the command.
  [[nodiscard]] std::optional<int> parseOrExit(std::span<const std::string_view> args);
  [[nodiscard]] std::string help() const;
  /// The synopsis: `declone report PATH... [options]`.
  [[nodiscard]] std::string usage() const;

  /// What the man page and completions are generated from.
  struct OptionInfo {
    std::vector<std::string_view> names;
    std::string_view metavar; ///< empty for a flag
    std::string_view help;
    bool valueOptional = false;
  };
  struct Description {
    std::string_view command;
    std::string_view summary;
    std::string usage; ///< `declone opt FILE|- [options]`
    std::vector<OptionInfo> options;
    std::vector<std::pair<std::string_view, std::string_view>> positionals; ///< metavar, help
  };
  [[nodiscard]] Description describe() const;
  /// While `sink` is set, parseOrExit appends the parser's description to it instead of parsing.
  static void collectDescriptions(std::vector<Description>* sink);

private:
  struct Spec {
    enum class Kind { Flag, Option, OptionalValue, Repeated } kind;
    std::vector<std::string_view> names;
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
  void add(Spec spec, Names names);
  /// The spec `arg` names, with the value attached to it (`--x=V`, `-xV`) when there is one.
  [[nodiscard]] const Spec* find(std::string_view arg,
                                 std::optional<std::string_view>& value) const;
  [[nodiscard]] Error unknownOption(std::string_view name) const;

  std::string_view command_;
  std::string_view summary_;
  std::vector<Spec> specs_;
  std::vector<Positional> positionals_;
  bool helpRequested_ = false;
};

/// "-o|--output" → {"-o", "--output"}; "text|json" → {"text", "json"}.
[[nodiscard]] std::vector<std::string_view> splitAlternatives(std::string_view text);

/// `-o, --output OUT`: an option's spellings and value, as --help and the man page show them.
[[nodiscard]] std::string formatOptionNames(const ArgumentParser::OptionInfo& option);

} // namespace declone::cli
