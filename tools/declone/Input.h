// Reading graph files and standard input, and reporting errors in the compiler style.
#pragma once

#include "ArgumentParser.h"
#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/Diagnostic.h"
#include "declone/support/File.h"
#include "declone/support/Remark.h"
#include "declone/support/Result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace declone::cli {

/// Exit statuses of the CLI contract (DESIGN.md section 5).
enum ExitCode : int { kSuccess = 0, kDifference = 1, kBadInput = 2 };

/// The display name of a path: "<stdin>" for "-".
std::string displayName(std::string_view path);

/// `--max-input-size SIZE`, for every command that reads graphs.
void addInputSizeFlag(ArgumentParser& parser, std::string* out);
/// Sets the limit loadGraphFile reads with: `flag` (--max-input-size) when given, else
/// $DECLONE_MAX_INPUT_SIZE when set, else defaultInputSizeLimit(); 0 is no limit. Reports a
/// value that is not a size and returns false.
[[nodiscard]] bool setInputSizeLimit(const std::string& flag);
/// The limit setInputSizeLimit set (none before), with the hint its error gives.
[[nodiscard]] ReadLimit inputSizeLimit();
/// 1/16 of the memory this process may use (usableMemory: the machine's, or its container's;
/// less under `ulimit -v` or `-d`), 0 (no limit) when that is unknown. `opt` holds about 3.6 bytes
/// per byte of input, `analyze` 6.4, `analyze --dot` 10.6 (measured on a generated million-node
/// graph): a file under the limit fits in memory whatever the command.
[[nodiscard]] uint64_t defaultInputSizeLimit();
/// A byte count with an optional K, M, G or T suffix (binary: 4G is 4 GiB): `512M`.
[[nodiscard]] std::optional<uint64_t> parseByteSize(std::string_view text);
/// For std::bad_alloc (or std::length_error) that reached the command: prints
/// `FILE: error: out of memory` naming the graph file being worked on (the command when none)
/// and returns kBadInput. `tooLarge`: a size too large to allocate (std::length_error).
[[nodiscard]] int reportOutOfMemory(bool tooLarge);

/// Where a graph that loadGraphFile read sits in its input, for remarks.
struct InputLocation {
  /// What remarks call the graph's file: its display name, or `LOG#KEY` for a graph of a log.
  std::string name;
  /// The file diagnostics name (the log itself for a graph of a log).
  std::string file;
  /// The log line of each graph line, and the columns before its text; empty when the graph is
  /// the whole file.
  std::vector<uint32_t> logLines, logColumns;

  /// Gives remarks on the graph read from `graphText` their user source (the `# File:`
  /// comments) and moves their lines to the input's: `LOG#KEY:LINE` is then a line of the log,
  /// which addresses the same graph again.
  void locate(std::span<Remark> remarks, std::string_view graphText) const;
  /// A diagnostic located in the graph text, moved to the input's line and column.
  [[nodiscard]] Error toInput(Error error) const;
};

/// Reads and parses a graph file, or one graph of a TORCH_TRACE or TORCH_LOGS log (`LOG#KEY`,
/// `LOG#KEY:LINE`, or the log alone when it holds one graph); on failure prints
/// `FILE:LINE:COL: error: ...` to stderr. `text`, when given, receives the graph's text;
/// `where`, where it came from. Reads no more than inputSizeLimit().
[[nodiscard]] std::unique_ptr<GraphFile>
loadGraphFile(std::string_view path, std::string* text = nullptr, InputLocation* where = nullptr);
/// Warns about each op that has no schema in `schemas` and looks like a misspelling of one that
/// has (`aten.clon.default`: did you mean `aten.clone.default`?), once per op, at its first use.
/// Without a schema its effects are unknown, so the clones it touches are kept.
void warnMisspelledOps(const GraphFile& file, const SchemaRegistry& schemas,
                       const InputLocation& where);
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
