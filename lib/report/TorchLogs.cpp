// TORCH_LOGS output: each line `V1203 16:24:56.503000 PID FILE:LINE] [0/0] [__post_grad_graphs]
// TEXT` (glog's prefix, the compile id, the artifact channel), one logging call's lines sharing it.
#include "GraphLogText.h"
#include "declone/report/TraceLog.h"
#include "declone/support/Lines.h"

#include <algorithm>

namespace declone {
namespace {

/// The parts of a TORCH_LOGS line that come from an artifact channel.
struct ArtifactLine {
  /// Everything before the text, without the blank after the channel (editors strip it from
  /// blank payload lines): one logging call's lines share it.
  std::string_view record;
  std::string_view compileId; ///< "0/0", or empty
  std::string_view channel;   ///< "post_grad_graphs"
  std::string_view text;
  uint32_t column = 0; ///< where `text` starts in the line
  bool glog = false;   ///< behind glog's prefix (the default format)
};

/// `[X]` at `at`: X, and moves `at` past it (and one blank after it).
std::optional<std::string_view> bracketed(std::string_view line, size_t& at, size_t* end) {
  if (at >= line.size() || line[at] != '[')
    return std::nullopt;
  size_t close = line.find(']', at);
  if (close == std::string_view::npos)
    return std::nullopt;
  std::string_view inside = line.substr(at + 1, close - at - 1);
  at = close + 1;
  *end = at;
  if (at < line.size() && line[at] == ' ')
    ++at;
  return inside;
}

/// The default format (glog's prefix) and TORCH_LOGS_FORMAT=short's (the brackets alone), each
/// behind `[rank0]:` when torch.distributed is initialised.
std::optional<ArtifactLine> artifactLine(std::string_view line) {
  size_t at = 0;
  if (line.starts_with("[rank")) {
    size_t close = line.find("]:");
    if (close == std::string_view::npos)
      return std::nullopt;
    at = close + 2;
  }
  ArtifactLine parsed;
  if (std::optional<size_t> prefix = glogPrefixEnd(line.substr(at))) {
    at += *prefix;
    parsed.glog = true;
  }
  size_t end = 0;
  std::optional<std::string_view> first = bracketed(line, at, &end);
  if (!first)
    return std::nullopt;
  if (!first->starts_with("__")) {
    parsed.compileId = *first;
    first = bracketed(line, at, &end);
    if (!first || !first->starts_with("__"))
      return std::nullopt;
  }
  parsed.channel = first->substr(2);
  if (parsed.channel.empty())
    return std::nullopt;
  parsed.record = line.substr(0, end);
  parsed.text = line.substr(at);
  parsed.column = static_cast<uint32_t>(at);
  return parsed;
}

/// Where the class starts in TORCH_LOGS' first graph line, which names the module's file
/// before it: ` /…/torch/fx/_lazy_graph_module.py class <lambda>(torch.nn.Module):`,
/// ` <eval_with_key>.1 class GraphModule(torch.nn.Module):`,
/// ` <eval_with_key>.18 from /…/proxy_tensor.py:1738 in wrapped class <lambda>(…):`.
std::optional<size_t> classAfterPath(std::string_view text) {
  if (!text.ends_with("(torch.nn.Module):"))
    return std::nullopt;
  size_t at = text.rfind(" class ");
  if (at == std::string_view::npos || text.find_first_not_of(' ') == at)
    return std::nullopt;
  return at + 1;
}

} // namespace

bool looksLikeTorchLogs(std::string_view text) {
  // A graph dump may hold a line that starts with `[__x]`: the default format's glog prefix,
  // or a graph's banner in the short format, says it is a log.
  bool found = false;
  forEachLine(text, [&](std::string_view line, uint32_t) {
    std::optional<ArtifactLine> parsed = artifactLine(line);
    found = parsed && (parsed->glog || parsed->text == "TRACED GRAPH");
    return !found;
  });
  return found;
}

Result<TraceLog> splitTorchLogs(std::string_view text) {
  TraceLog log;
  // The records being read, by prefix: a warning or another process's lines may come between
  // the lines of one logging call.
  std::vector<std::pair<std::string_view, PayloadBuilder>> open;
  forEachLine(text, [&](std::string_view line, uint32_t lineNumber) {
    std::optional<ArtifactLine> parsed = artifactLine(line);
    if (!parsed)
      return true;
    auto record = std::find_if(open.begin(), open.end(),
                               [&](const auto& each) { return each.first == parsed->record; });
    // The same call's next graph starts with its own banner.
    if (record != open.end() && parsed->text == "TRACED GRAPH") {
      record->second.finish(log.graphs);
      open.erase(record);
      record = open.end();
    }
    if (record == open.end()) {
      ++log.numRecords;
      TraceGraph graph;
      graph.key = std::string(parsed->channel);
      graph.line = lineNumber;
      graph.compileId = std::string(parsed->compileId);
      open.emplace_back(parsed->record, PayloadBuilder());
      record = std::prev(open.end());
      record->second.start(std::move(graph), /*mustHoldGraph=*/true);
    }
    std::string_view body = parsed->text;
    uint32_t column = parsed->column;
    if (std::optional<size_t> at = classAfterPath(body)) {
      body.remove_prefix(*at);
      column += static_cast<uint32_t>(*at);
    }
    record->second.add(body, lineNumber, column);
    return true;
  });
  for (auto& [prefix, builder] : open)
    builder.finish(log.graphs);
  std::stable_sort(log.graphs.begin(), log.graphs.end(),
                   [](const TraceGraph& a, const TraceGraph& b) { return a.line < b.line; });
  if (log.numRecords == 0)
    return Error{"not a TORCH_LOGS log: no line of an artifact channel ('[__post_grad_graphs] "
                 "...')"};
  return log;
}

} // namespace declone
