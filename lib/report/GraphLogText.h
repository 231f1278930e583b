// What the two log readers share: glog's line prefix and cutting a graph out of a payload.
#pragma once

#include "declone/report/TraceLog.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace declone {

/// Where the text after glog's prefix `V1205 12:34:56.789000 1234 torch/_dynamo/x.py:1234] `
/// starts, or nullopt when the line does not carry it.
[[nodiscard]] std::optional<size_t> glogPrefixEnd(std::string_view line);

/// Collects one record's payload lines and keeps the graph in them: from the first line that
/// starts a `class` at column 0 on; in an artifact, up to the first later column-0 line that is
/// neither a class, a comment nor blank (fx_graph_runnable's `def load_args`).
class PayloadBuilder {
public:
  /// `mustHoldGraph`: a payload without a class is no graph (artifacts of every kind share the
  /// record); otherwise it is kept whole, so that reading it says what is wrong.
  void start(TraceGraph graph, bool mustHoldGraph);
  [[nodiscard]] bool active() const { return active_; }
  [[nodiscard]] TraceGraph& graph() { return graph_; }
  /// `text` is a payload line, found at `column` (0-based) of log line `lineNumber`.
  void add(std::string_view text, uint32_t lineNumber, uint32_t column);
  /// Appends the graph to `out` when there is one, and ends the record.
  void finish(std::vector<TraceGraph>& out);

private:
  struct Line {
    std::string_view text;
    uint32_t number;
    uint32_t column;
  };
  TraceGraph graph_;
  bool mustHoldGraph_ = false;
  bool active_ = false;
  std::vector<Line> lines_;
};

} // namespace declone
