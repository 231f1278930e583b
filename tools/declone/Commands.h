// The registry of declone subcommands: one entry drives dispatch and the top-level --help.
#pragma once

#include <span>
#include <string_view>

namespace declone::cli {

struct Command {
  std::string_view name;
  std::string_view summary;
  /// Runs the command on its arguments (after the command name); returns the exit status.
  int (*run)(std::span<const std::string_view> args);
};

int runPrint(std::span<const std::string_view> args);
int runOpt(std::span<const std::string_view> args);
int runAnalyze(std::span<const std::string_view> args);

inline constexpr Command kCommands[] = {
    {"print", "parse a graph and write it back in canonical form", runPrint},
    {"opt", "remove redundant clones; remarks say why each clone is kept", runOpt},
    {"analyze", "show storages, layouts and accesses behind every clone decision", runAnalyze},
};

} // namespace declone::cli
