// The registry of declone subcommands: one entry drives dispatch and the top-level --help.
#pragma once

#include "declone/ir/Graph.h"

#include <span>
#include <string_view>
#include <vector>

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
int runReport(std::span<const std::string_view> args);
int runSchemas(std::span<const std::string_view> args);
int runGenerate(std::span<const std::string_view> args);
// Both run in the verify plugin (libdeclone-verify.so beside the executable, the only part that
// links libtorch), loaded on first use; see VerifyPlugin.cpp. Without the plugin (a build
// without libtorch) they say what to install.
int runVerify(std::span<const std::string_view> args);
/// For `opt --verify`: 0 when `after` verifies against `before`, else the exit status, with
/// the difference or error reported. `schemaFiles` are opt's --schemas (already checked): their
/// ops without a kernel run as stand-ins, as in `verify --schemas`.
int verifyRewrite(const GraphFile& before, const GraphFile& after, std::string_view name,
                  const std::vector<std::vector<bool>>& donated,
                  const std::vector<std::string>& schemaFiles);

/// The plugin's C entry points, checked against kVerifyPluginAbi so that a plugin from another
/// build is refused rather than called with other types.
inline constexpr int kVerifyPluginAbi = 2;
extern "C" {
using VerifyPluginAbiFn = int();
using VerifyMainFn = int(const std::string_view* args, size_t count);
using VerifyRewriteFn = int(const GraphFile* before, const GraphFile* after,
                            const std::string_view* name,
                            const std::vector<std::vector<bool>>* donated,
                            const std::vector<std::string>* schemaFiles);
}

inline constexpr Command kCommands[] = {
    {"print", "parse a graph and write it back in canonical form", runPrint},
    {"opt", "remove redundant clones; remarks say why each clone is kept", runOpt},
    {"analyze", "show storages, layouts and accesses behind every clone decision", runAnalyze},
    {"verify", "run two graphs with libtorch on the same inputs and compare them", runVerify},
    {"report", "run clone elimination on folders of dumps and print one table", runReport},
    {"schemas", "list the op schemas declone knows, filtered by a pattern", runSchemas},
    {"generate", "write the man page or a bash/zsh completion script", runGenerate},
};

} // namespace declone::cli
