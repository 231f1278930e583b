// `declone report`: clone elimination over whole folders of dumps, summed into one table.
#pragma once

#include "declone/support/File.h"
#include "declone/transforms/CloneElimination.h"
#include "declone/transforms/Defunctionalization.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace declone {

/// One row of the report: a graph file, one graph of a structured trace log, or an input that
/// could not be read.
struct DumpStats {
  std::string name;   ///< the path, or `LOG#KEY:LINE` for a graph of a log
  std::string file;   ///< the path alone
  std::string record; ///< `KEY:LINE` of the log record, empty for a graph file
  /// The compilation stage the graph is a snapshot of: the record's key, or for a file that
  /// tlparse extracted (`inductor_post_grad_graph_12.txt`) the key in its name; empty when
  /// unknown.
  std::string stage;
  std::string compileId; ///< "0/0" when the log says
  /// What the graph is a copy of: the record's key (`graph_dump.vllm_submod_2`), or the stage a
  /// file name gives; empty when unknown.
  std::string graphKey;
  /// Hash of the graph text (0: none read). One graph in several places (a tlparse folder's
  /// raw.log and the file it extracted) counts once in a total:
  /// the same text under the same graphKey. Files without one, and different records (vLLM's
  /// pieces of one model are separate graphs, however alike), count apart.
  size_t textHash = 0;
  /// The earlier row with the same graph, which the totals count instead of this one.
  std::optional<std::string> sameAs;
  size_t graphs = 0; ///< top-level graph modules
  size_t nodes = 0;  ///< nodes of every graph and subgraph, before the pass
  CloneEliminationStats clones;
  /// The copies of functionalized mutating calls (safe mode: defunctionalization after clone
  /// elimination, as `opt --defunctionalize` runs them).
  DefunctionalizationStats copies;
  /// `FILE:LINE:COL: error: MESSAGE` when the input could not be read or parsed.
  std::optional<std::string> error;

  [[nodiscard]] size_t kept() const;
  DumpStats& operator+=(const DumpStats& other);
};

/// A file to read, or a path that could not be listed (its error is set, formatted).
struct DumpInput {
  std::string path;
  std::optional<std::string> error;
  /// Found in a folder rather than named on the command line. Either way a file that holds no
  /// graph is skipped, not an error; the report lists the named ones it skipped.
  bool inFolder = false;
};

/// Whether text read from `name` is a dump at all: a structured trace log, a `*.fx` file, or
/// graph text that begins (after comments, imports and `name: type` stub lines) with a class or
/// `def forward`.
/// PyTorch's debug folders hold other files beside the graphs (output_code.py,
/// fx_graph_runnable.py, ir_pre_fusion.txt, debug.log), which are not.
[[nodiscard]] bool looksLikeDump(std::string_view name, std::string_view text);

/// Whether a file found in a folder is taken as a dump: `*.py`, `*.fx`, `*.txt` graph text and
/// `*.log` structured traces. Files named on the command line are read whatever their name (and
/// skipped when looksLikeDump says no).
[[nodiscard]] bool isDumpFileName(std::string_view path);

/// Expands folders recursively, in argument order and each folder's files sorted by path
/// (symbolic links to folders are not followed, so there are no cycles). Never fails: a path
/// that does not exist or a folder that cannot be listed is an input with an error. "-" is
/// standard input.
/// --include / --exclude: shell globs matched against a file's path and its name.
struct DumpFilter {
  std::vector<std::string> include; ///< none: every file
  std::vector<std::string> exclude;
  [[nodiscard]] bool accepts(std::string_view path) const;
};
/// A file reached twice (named twice, or also inside a named folder) is listed once; files the
/// filter refuses are left out.
[[nodiscard]] std::vector<DumpInput> collectDumpInputs(std::span<const std::string> paths,
                                                       const DumpFilter& filter = {});

/// Reads one file ("-": standard input, named `<stdin>`) and runs the pass on every graph in it:
/// one row for a graph file, one per graph record for a `*.log` structured trace (plus one for its
/// malformed lines, if any), none for a file that is not a dump (looksLikeDump; standard input
/// is taken whatever it holds). `options.donated` is ignored: donations are per graph and a report
/// has no way to give them.
/// A file larger than `limit` is a row with an error, found before it is read.
[[nodiscard]] std::vector<DumpStats> reportFile(const std::string& path,
                                                const CloneEliminationOptions& options,
                                                const ReadLimit& limit = {});
/// The same on text already read; `name` is what rows and errors call the file. The text is a
/// structured trace when `name` ends in `.log` or its first line is a trace record.
[[nodiscard]] std::vector<DumpStats> reportText(std::string_view name, std::string_view text,
                                                const CloneEliminationOptions& options);

struct ReportOptions {
  CloneEliminationOptions pass;
  /// The largest file read (ReadLimit); a larger one is a row with an error.
  ReadLimit read;
};

struct Report {
  std::vector<DumpStats> rows; ///< in input order, whatever the number of threads
  /// Every distinct graph once (rows with `sameAs` are left out); named "total", no error.
  DumpStats total;
  /// One total per stage (name: the stage), in order of first appearance, when the rows come
  /// from more than one stage: a clone lives on from stage to stage, so only a stage's total
  /// counts each clone once.
  std::vector<DumpStats> stages;
  size_t duplicates = 0; ///< rows left out of the totals as copies of an earlier row
  size_t files = 0;      ///< inputs that are files (not paths that could not be listed)
  size_t failed = 0;     ///< rows with an error
  size_t skipped = 0;    ///< files that hold no graph (no rows)
  std::vector<std::string> skippedNamed; ///< the skipped files named on the command line
  size_t notRun = 0;                     ///< inputs never started (the program was interrupted)
};

/// The rows of one input: its error row when it could not be listed, else reportFile's rows; a
/// file that runs out of memory (std::bad_alloc, or std::length_error from a size too large to
/// allocate) is a row with an error. Calls share nothing, so a program may run several at once
/// (`declone report` runs them on a pool of threads).
[[nodiscard]] std::vector<DumpStats> reportInput(const DumpInput& input,
                                                 const ReportOptions& options);
/// The indices of `inputs`, largest file first: on a pool of threads, one big file started last
/// would leave the other threads idle while it runs.
[[nodiscard]] std::vector<size_t> reportOrder(std::span<const DumpInput> inputs);
/// The report of `inputs` from their rows: results[i] holds reportInput(inputs[i]), or nothing
/// for an input never started (Ctrl-C), which is counted in `notRun`. Rows follow the inputs'
/// order, whatever order they were made in; the totals are summed.
[[nodiscard]] Report assembleReport(std::span<const DumpInput> inputs,
                                    std::vector<std::optional<std::vector<DumpStats>>> results);
/// reportInput on every input in turn, on the calling thread, assembled.
[[nodiscard]] Report buildReport(std::span<const DumpInput> inputs, const ReportOptions& options);

/// The columns `--sort` takes: "file", "graphs", "nodes", "clones", "removed", "kept", every
/// reason code, "bytes", "symbolic", "error".
[[nodiscard]] std::vector<std::string_view> reportColumns();
/// Orders rows by a column: numbers descending, file names and errors ascending (rows without
/// an error last); ties keep input order. Errors name the unknown column.
[[nodiscard]] Status sortRows(std::vector<DumpStats>& rows, std::string_view column);

struct TableOptions {
  /// Show only the first N rows (the total still counts every row); 0 shows all.
  size_t top = 0;
};
/// The human table: one line per row, a total line, kept-reason columns only for the reasons
/// that occur, bytes in binary units, errors last on their line.
[[nodiscard]] std::string formatReportTable(const Report& report, const TableOptions& options);
/// The same as one JSON document: {"rows": [...], "total": {...}}, one row object per line.
[[nodiscard]] std::string formatReportJson(const Report& report, const TableOptions& options);

} // namespace declone
