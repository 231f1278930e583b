// Reading graph files and standard input, and reporting errors in the compiler style.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/Diagnostic.h"
#include "declone/support/Remark.h"
#include "declone/support/Result.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace declone::cli {

/// Exit statuses of the CLI contract (DESIGN.md section 5).
enum ExitCode : int { kSuccess = 0, kDifference = 1, kBadInput = 2 };

/// The display name of a path: "<stdin>" for "-".
std::string displayName(std::string_view path);
/// Reads and parses a graph file; on failure prints `FILE:LINE:COL: error: ...` to stderr.
/// `text`, when given, receives the file's contents.
[[nodiscard]] std::unique_ptr<GraphFile> loadGraphFile(std::string_view path,
                                                       std::string* text = nullptr);
/// Warns about each op that has no schema in `schemas` and looks like a misspelling of one that
/// has (`aten.clon.default`: did you mean `aten.clone.default`?), once per op, at its first use.
/// Without a schema its effects are unknown, so the clones it touches are kept.
void warnMisspelledOps(const GraphFile& file, const SchemaRegistry& schemas, std::string_view name);
/// Prints the file to OUT (stdout for "" or "-"); returns the exit status.
[[nodiscard]] int writeGraph(std::string_view path, const GraphFile& file);
/// `--dot OUT`: parses `text` again (the graph as read, before any rewrite) and writes it to OUT
/// as Graphviz, clones coloured by `remarks`. Returns the exit status.
[[nodiscard]] int writeDotPicture(std::string_view out, std::string_view text,
                                  std::string_view name, std::span<const Remark> remarks,
                                  const SchemaRegistry& schemas);
/// The subcommand being run, named in usage errors (`declone opt: error: ...`).
void setCommandName(std::string_view name);
/// Prints `declone CMD: error: MESSAGE` (usage problems) to stderr.
void reportUsageError(std::string_view message);
/// Prints `declone CMD: warning: MESSAGE` to stderr.
void reportUsageWarning(std::string_view message);
/// Prints a located diagnostic about FILE to stderr, clang style: colours on a terminal (unless
/// NO_COLOR), the source line and a caret when the error carries them.
void reportDiagnostic(std::string_view file, const Error& error,
                      Severity severity = Severity::Error);

} // namespace declone::cli
