// TORCH_TRACE logs: glog-prefixed JSON records, each optionally followed by tab-indented payload.
#include "declone/report/TraceLog.h"

#include "GraphLogText.h"
#include "declone/support/Lines.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

namespace declone {
namespace {

/// The keys whose payload is `GraphModule.print_readable()` text (torch/_dynamo, _functorch and
/// _inductor log these through trace_structured). Since torch 2.5 the post-grad graph and the
/// before/after records of each pass are `artifact` records instead, found by their payload.
constexpr std::array<std::string_view, 11> kGraphKeys = {
    "dynamo_output_graph",        "aot_forward_graph",
    "aot_backward_graph",         "aot_joint_graph",
    "aot_inference_graph",        "inductor_pre_grad_graph",
    "inductor_post_grad_graph",   "graph_dump",
    "optimize_ddp_split_child",   "compiled_autograd_graph",
    "aot_autograd_backward_graph"};

/// "0/0" from a record's frame_id and frame_compile_id ("0/0_1" for attempt 1), as tlparse
/// names compilations.
std::string compileIdOf(const nlohmann::json& record) {
  auto number = [&](const char* key) -> std::optional<int64_t> {
    auto found = record.find(key);
    if (found == record.end() || !found->is_number_integer())
      return std::nullopt;
    return found->get<int64_t>();
  };
  std::optional<int64_t> frame = number("frame_id"), compile = number("frame_compile_id");
  if (!frame || !compile)
    return {};
  std::string id = std::to_string(*frame) + "/" + std::to_string(*compile);
  if (std::optional<int64_t> attempt = number("attempt"); attempt && *attempt != 0)
    id += "_" + std::to_string(*attempt);
  return id;
}

/// The graph key of a record, or nullopt when its payload is no graph. `artifact` records of
/// string encoding are candidates: their payload decides.
std::optional<std::string> graphKeyOf(const nlohmann::json& record, bool* byPayload) {
  *byPayload = false;
  for (auto item = record.begin(); item != record.end(); ++item) {
    if (item.key() == "artifact") {
      const nlohmann::json& artifact = item.value();
      if (!artifact.is_object() || !artifact.contains("name") || !artifact["name"].is_string())
        return std::nullopt;
      auto encoding = artifact.find("encoding");
      if (encoding != artifact.end() && *encoding != "string")
        return std::nullopt;
      *byPayload = true;
      return artifact["name"].get<std::string>();
    }
    if (!isTraceGraphKey(item.key()))
      continue;
    std::string key = item.key();
    if (key == "graph_dump") {
      const nlohmann::json& name = item.value();
      if (name.is_object() && name.contains("name") && name["name"].is_string())
        key += "." + name["name"].get<std::string>();
    }
    return key;
  }
  return std::nullopt;
}

} // namespace

bool isTraceGraphKey(std::string_view key) {
  return std::find(kGraphKeys.begin(), kGraphKeys.end(), key) != kGraphKeys.end();
}

bool isTraceGraphName(std::string_view name) {
  constexpr std::array<std::string_view, 7> kArtifactGraphs = {
      "before_pre_grad_graph",  "after_pre_grad_graph",  "before_joint_graph", "after_joint_graph",
      "before_post_grad_graph", "after_post_grad_graph", "fx_graph_runnable"};
  return isTraceGraphKey(name) ||
         std::find(kArtifactGraphs.begin(), kArtifactGraphs.end(), name) != kArtifactGraphs.end();
}

bool looksLikeTraceLog(std::string_view text) {
  size_t start = text.find_first_not_of("\r\n");
  if (start == std::string_view::npos)
    return false;
  std::string_view line = text.substr(start, text.find('\n', start) - start);
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  std::optional<size_t> prefix = glogPrefixEnd(line);
  return prefix && *prefix < line.size() && line[*prefix] == '{';
}

bool looksLikeGraphLog(std::string_view text) {
  return looksLikeTraceLog(text) || looksLikeTorchLogs(text);
}

Result<TraceLog> splitGraphLog(std::string_view text) {
  // A TORCH_TRACE log cut at the front starts with payload: only TORCH_LOGS' own lines say it
  // is the other kind.
  return !looksLikeTraceLog(text) && looksLikeTorchLogs(text) ? splitTorchLogs(text)
                                                              : splitTraceLog(text);
}

std::string TraceGraph::displayName(std::string_view logName) const {
  return std::string(logName) + "#" + key + ":" + std::to_string(line);
}

bool TraceGraph::holdsLine(uint32_t logLine) const {
  return logLine == line ||
         (!payloadLines.empty() && logLine >= line && logLine <= payloadLines.back());
}

uint32_t TraceGraph::logLine(uint32_t payloadLine) const {
  return payloadLine >= 1 && payloadLine <= payloadLines.size() ? payloadLines[payloadLine - 1] : 0;
}

Error TraceGraph::toLogPosition(Error error) const {
  for (Note& note : error.notes)
    note.line = logLine(note.line);
  if (error.line >= 1 && error.line <= payloadLines.size()) {
    if (error.column != 0 && error.line <= payloadColumns.size())
      error.column += payloadColumns[error.line - 1]; // the prefix the log puts before the line
    error.line = payloadLines[error.line - 1];
  } else {
    // Past the payload's end (a truncated graph): point at its last line, or at the record.
    error.line = payloadLines.empty() ? line : payloadLines.back();
    error.column = 0;
  }
  return error;
}

Result<TraceLog> splitTraceLog(std::string_view text) {
  TraceLog log;
  PayloadBuilder current; // the graph whose payload lines come next
  bool inPayload = false; // payload lines of a record of any kind may follow
  auto problem = [&](uint32_t lineNumber, uint32_t column, std::string message) {
    if (!log.firstProblem)
      log.firstProblem = Error{std::move(message), lineNumber, column};
    ++log.numProblems;
  };
  auto finish = [&] {
    if (current.active())
      current.finish(log.graphs);
    inPayload = false;
  };
  forEachLine(text, [&](std::string_view line, uint32_t lineNumber) {
    if (line.empty())
      return true;
    if (line.front() == '\t') {
      if (current.active())
        current.add(line.substr(1), lineNumber, 1);
      else if (!inPayload)
        problem(lineNumber, 1, "payload line without a record before it");
      return true;
    }
    finish();
    std::optional<size_t> jsonStart = glogPrefixEnd(line);
    if (!jsonStart || *jsonStart >= line.size() || line[*jsonStart] != '{') {
      problem(lineNumber, 1,
              "expected a structured trace record ('V1205 12:34:56.789000 PID FILE:LINE] {...}')");
      return true;
    }
    std::string_view json = line.substr(*jsonStart);
    nlohmann::json record = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
    if (record.is_discarded() || !record.is_object()) {
      problem(lineNumber, static_cast<uint32_t>(*jsonStart + 1), "the record is not a JSON object");
      return true;
    }
    ++log.numRecords;
    inPayload = record.contains("has_payload");
    bool byPayload = false;
    if (std::optional<std::string> key = graphKeyOf(record, &byPayload)) {
      TraceGraph graph;
      graph.key = std::move(*key);
      graph.line = lineNumber;
      graph.compileId = compileIdOf(record);
      if (inPayload)
        current.start(std::move(graph), byPayload);
      else if (!byPayload)
        log.graphs.push_back(std::move(graph));
    }
    return true;
  });
  finish();
  if (log.numRecords == 0) {
    if (log.firstProblem)
      return Error{"not a structured trace (TORCH_TRACE) log: " + log.firstProblem->message,
                   log.firstProblem->line, log.firstProblem->column};
    return Error{"not a structured trace (TORCH_TRACE) log: it has no records"};
  }
  return log;
}

} // namespace declone
