// TORCH_LOGS output: each line `V1203 16:24:56.503000 PID FILE:LINE] [0/0] [__post_grad_graphs]
// TEXT` (glog's prefix, the compile id, the artifact channel), one logging call's lines sharing it.
#include "GraphLogText.h"
#include "declone/report/TraceLog.h"
#include "declone/support/Lines.h"

namespace declone {
namespace {

/// The parts of a TORCH_LOGS line that come from an artifact channel.
struct ArtifactLine {
  std::string_view record;    ///< everything before the text: one logging call's lines share it
  std::string_view compileId; ///< "0/0", or empty
  std::string_view channel;   ///< "post_grad_graphs"
  std::string_view text;
  uint32_t column = 0; ///< where `text` starts in the line
};

/// `[X] ` at `at`: X, and moves `at` past it.
std::optional<std::string_view> bracketed(std::string_view line, size_t& at) {
  if (at >= line.size() || line[at] != '[')
    return std::nullopt;
  size_t close = line.find(']', at);
  if (close == std::string_view::npos)
    return std::nullopt;
  std::string_view inside = line.substr(at + 1, close - at - 1);
  at = close + 1;
  if (at < line.size() && line[at] == ' ')
    ++at;
  return inside;
}

/// The default format (glog's prefix) and TORCH_LOGS_FORMAT=short's (the brackets alone).
std::optional<ArtifactLine> artifactLine(std::string_view line) {
  size_t at = glogPrefixEnd(line).value_or(0);
  std::optional<std::string_view> first = bracketed(line, at);
  if (!first)
    return std::nullopt;
  ArtifactLine parsed;
  if (!first->starts_with("__")) {
    parsed.compileId = *first;
    first = bracketed(line, at);
    if (!first || !first->starts_with("__"))
      return std::nullopt;
  }
  parsed.channel = first->substr(2);
  if (parsed.channel.empty())
    return std::nullopt;
  parsed.record = line.substr(0, at);
  parsed.text = line.substr(at);
  parsed.column = static_cast<uint32_t>(at);
  return parsed;
}

/// ` /…/torch/fx/_lazy_graph_module.py class <lambda>(torch.nn.Module):`: TORCH_LOGS prints
/// the module's file before the class; the class starts at the returned offset.
std::optional<size_t> classAfterPath(std::string_view text) {
  size_t at = text.find(".py class ");
  if (at == std::string_view::npos || text.find_first_not_of(' ') == at)
    return std::nullopt;
  return at + 4;
}

/// ` ===== AFTER POST GRAD =====` -> "AFTER POST GRAD".
std::optional<std::string_view> bannerTitle(std::string_view text) {
  text = trim(text);
  if (text.size() < 12 || !text.starts_with("===== ") || !text.ends_with(" ====="))
    return std::nullopt;
  return trim(text.substr(6, text.size() - 12));
}

} // namespace

bool looksLikeTorchLogs(std::string_view text) {
  bool found = false;
  forEachLine(text, [&](std::string_view line, uint32_t) {
    found = artifactLine(line).has_value();
    return !found;
  });
  return found;
}

Result<TraceLog> splitTorchLogs(std::string_view text) {
  TraceLog log;
  PayloadBuilder current;
  std::string_view currentRecord;
  bool titled = false; // the record's title is known (a banner, or the line before its class)
  forEachLine(text, [&](std::string_view line, uint32_t lineNumber) {
    std::optional<ArtifactLine> parsed = artifactLine(line);
    // A logging call writes its lines at once: another line ends the record. So does the start
    // of the next graph of the same call.
    if (current.active() &&
        (!parsed || parsed->record != currentRecord || parsed->text == "TRACED GRAPH"))
      current.finish(log.graphs);
    if (!parsed)
      return true;
    if (!current.active()) {
      ++log.numRecords;
      TraceGraph graph;
      graph.key = std::string(parsed->channel);
      graph.line = lineNumber;
      graph.compileId = std::string(parsed->compileId);
      current.start(std::move(graph), /*mustHoldGraph=*/true);
      currentRecord = parsed->record;
      titled = false;
    }
    std::string_view body = parsed->text;
    uint32_t column = parsed->column;
    if (std::optional<size_t> at = classAfterPath(body)) {
      body.remove_prefix(*at);
      column += static_cast<uint32_t>(*at);
    }
    if (!titled && body != "TRACED GRAPH" && !trim(body).empty() && !body.starts_with("class ")) {
      // `===== Forward graph 0 =====`, or the line `Forward graph (from cache)` of a cache hit.
      current.graph().title = std::string(bannerTitle(body).value_or(trim(body)));
      titled = true;
    }
    current.add(body, lineNumber, column);
    return true;
  });
  if (current.active())
    current.finish(log.graphs);
  if (log.numRecords == 0)
    return Error{"not a TORCH_LOGS log: no line of an artifact channel ('[__post_grad_graphs] "
                 "...')"};
  return log;
}

} // namespace declone
