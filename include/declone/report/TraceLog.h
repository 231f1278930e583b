// Splits a TORCH_TRACE structured log (the input of tlparse) into its graph payloads.
#pragma once

#include "declone/support/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace declone {

/// One graph payload of a structured trace: the FX text a record such as
/// `{"inductor_post_grad_graph": {}, ..., "has_payload": "..."}` carries on the tab-indented
/// lines after it.
struct TraceGraph {
  /// The record's key: "inductor_post_grad_graph", ..., or "graph_dump.NAME" for `graph_dump`
  /// records (which name the graph in `{"graph_dump": {"name": NAME}}`).
  std::string key;
  uint32_t line = 0;   ///< 1-based line of the record in the log
  std::string payload; ///< the graph text, without the leading tabs
  /// Log line of each payload line, so that an error in the payload points into the log.
  std::vector<uint32_t> payloadLines;

  /// `LOG#KEY:LINE`, the name a report gives this graph.
  [[nodiscard]] std::string displayName(std::string_view logName) const;
  /// Moves an error located in the payload to the log's coordinates (the tab is column 1).
  [[nodiscard]] Error toLogPosition(Error error) const;
};

struct TraceLog {
  std::vector<TraceGraph> graphs;
  /// The first line that is neither a record nor payload, or a record whose JSON is malformed.
  /// The graphs around it are still returned.
  std::optional<Error> firstProblem;
  size_t numProblems = 0;
  size_t numRecords = 0; ///< records of every kind, graphs or not
};

/// The record keys whose payload is an FX graph.
[[nodiscard]] bool isTraceGraphKey(std::string_view key);

/// Whether the first non-blank line of `text` is a structured trace record.
[[nodiscard]] bool looksLikeTraceLog(std::string_view text);

/// Splits `text`. A log without a single structured record is an error (it is some other log).
/// Blank lines are skipped, as tlparse does: a blank line inside a payload is still `\t`.
[[nodiscard]] Result<TraceLog> splitTraceLog(std::string_view text);

} // namespace declone
