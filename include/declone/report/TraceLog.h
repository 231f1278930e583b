// Graphs inside PyTorch's logs: TORCH_TRACE structured logs (the input of tlparse) and the
// stderr of TORCH_LOGS=post_grad_graphs,aot_graphs,graph_code runs.
#pragma once

#include "declone/support/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace declone {

/// One graph of a log: the FX text a record carries, with where each of its lines sits in the log.
struct TraceGraph {
  /// What the record is: a TORCH_TRACE key ("inductor_post_grad_graph"), an artifact's name
  /// ("before_post_grad_graph", "fx_graph_runnable"), "graph_dump.NAME" for `graph_dump`
  /// records, or a TORCH_LOGS artifact ("post_grad_graphs", "aot_graphs", "graph_code").
  std::string key;
  uint32_t line = 0;     ///< 1-based line of the record in the log
  std::string compileId; ///< "0/0" (frame/compile, `_attempt` when not 0), or empty
  std::string payload;   ///< the graph text, without the log's prefixes
  /// Log line of each payload line, so that an error in the payload points into the log.
  std::vector<uint32_t> payloadLines;
  /// Columns of the log before each payload line's text (the tab of a TORCH_TRACE payload, the
  /// prefix of a TORCH_LOGS line).
  std::vector<uint32_t> payloadColumns;

  /// `LOG#KEY:LINE`, the name a report gives this graph. Any line of the record addresses it.
  [[nodiscard]] std::string displayName(std::string_view logName) const;
  /// Whether `LOG#KEY:logLine` names this graph: a line from the record's to its graph's last.
  [[nodiscard]] bool holdsLine(uint32_t logLine) const;
  /// The log line of payload line `line` (0 when it has none).
  [[nodiscard]] uint32_t logLine(uint32_t line) const;
  /// Moves an error located in the payload to the log's coordinates.
  [[nodiscard]] Error toLogPosition(Error error) const;
};

struct TraceLog {
  std::vector<TraceGraph> graphs;
  /// The first line that is neither a record nor payload, or a record whose JSON is malformed.
  /// The graphs around it are still returned. (TORCH_LOGS output mixes other lines in freely;
  /// only a graph it cannot cut out is a problem there.)
  std::optional<Error> firstProblem;
  size_t numProblems = 0;
  size_t numRecords = 0; ///< records of every kind, graphs or not
};

/// The TORCH_TRACE record keys whose payload is an FX graph (beside `artifact` records, whose
/// payload is looked at).
[[nodiscard]] bool isTraceGraphKey(std::string_view key);
/// isTraceGraphKey, or the name of an artifact torch 2.13 logs a graph under
/// (`inductor_post_grad_graph`, `before_joint_graph`, `fx_graph_runnable`, ...). The log reader
/// finds artifact graphs by their payload; tlparse names the files it extracts by these names.
[[nodiscard]] bool isTraceGraphName(std::string_view name);

/// Whether the first non-blank line of `text` is a structured trace record.
[[nodiscard]] bool looksLikeTraceLog(std::string_view text);
/// Whether `text` holds a TORCH_LOGS artifact line (`... ] [0/0] [__post_grad_graphs] ...`).
[[nodiscard]] bool looksLikeTorchLogs(std::string_view text);
/// Either of the two.
[[nodiscard]] bool looksLikeGraphLog(std::string_view text);

/// Splits a TORCH_TRACE log. A log without a single structured record is an error (it is some
/// other log). Blank lines are skipped, as tlparse does: a blank line inside a payload is `\t`.
[[nodiscard]] Result<TraceLog> splitTraceLog(std::string_view text);
/// Splits TORCH_LOGS output: each `TRACED GRAPH` (or `... graph (from cache)`) record of an
/// artifact channel is a graph. Lines of other loggers, prints and warnings are passed over.
[[nodiscard]] Result<TraceLog> splitTorchLogs(std::string_view text);
/// splitTraceLog or splitTorchLogs, as `text` looks.
[[nodiscard]] Result<TraceLog> splitGraphLog(std::string_view text);

} // namespace declone
