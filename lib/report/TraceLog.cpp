// TORCH_TRACE logs: glog-prefixed JSON records, each optionally followed by tab-indented payload.
#include "declone/report/TraceLog.h"

#include "declone/support/Lines.h"

#include <array>
#include <cctype>
#include <nlohmann/json.hpp>

namespace declone {
namespace {

/// The keys whose payload is `GraphModule.print_readable()` text (torch/_dynamo, _functorch and
/// _inductor log these through trace_structured).
constexpr std::array<std::string_view, 11> kGraphKeys = {
    "dynamo_output_graph",        "aot_forward_graph",
    "aot_backward_graph",         "aot_joint_graph",
    "aot_inference_graph",        "inductor_pre_grad_graph",
    "inductor_post_grad_graph",   "graph_dump",
    "optimize_ddp_split_child",   "compiled_autograd_graph",
    "aot_autograd_backward_graph"};

bool isDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

/// The JSON part of `V1205 12:34:56.789000 1234 torch/_dynamo/output_graph.py:1234] {...}`, or
/// nullopt when the line does not carry glog's prefix.
std::optional<size_t> recordJsonStart(std::string_view line) {
  if (line.size() < 8 || std::string_view("VIWEC").find(line[0]) == std::string_view::npos)
    return std::nullopt;
  for (size_t i = 1; i <= 4; ++i)
    if (!isDigit(line[i]))
      return std::nullopt;
  if (line[5] != ' ' || !isDigit(line[6]))
    return std::nullopt;
  size_t close = line.find("] ");
  if (close == std::string_view::npos || close < 8 || !isDigit(line[close - 1]))
    return std::nullopt;
  // `PATH:LINE]`: the digits before the bracket follow a colon.
  size_t colon = close - 1;
  while (colon > 0 && isDigit(line[colon]))
    --colon;
  if (line[colon] != ':' || close + 2 >= line.size() || line[close + 2] != '{')
    return std::nullopt;
  return close + 2;
}

} // namespace

bool isTraceGraphKey(std::string_view key) {
  for (std::string_view graphKey : kGraphKeys)
    if (graphKey == key)
      return true;
  return false;
}

bool looksLikeTraceLog(std::string_view text) {
  size_t start = text.find_first_not_of("\r\n");
  if (start == std::string_view::npos)
    return false;
  std::string_view line = text.substr(start, text.find('\n', start) - start);
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  return recordJsonStart(line).has_value();
}

std::string TraceGraph::displayName(std::string_view logName) const {
  return std::string(logName) + "#" + key + ":" + std::to_string(line);
}

Error TraceGraph::toLogPosition(Error error) const {
  for (Note& note : error.notes)
    note.line =
        note.line >= 1 && note.line <= payloadLines.size() ? payloadLines[note.line - 1] : 0;
  if (error.line >= 1 && error.line <= payloadLines.size()) {
    error.line = payloadLines[error.line - 1];
    if (error.column != 0)
      ++error.column; // the tab the log puts before every payload line
  } else {
    // Past the payload's end (a truncated graph): point at its last line, or at the record.
    error.line = payloadLines.empty() ? line : payloadLines.back();
    error.column = 0;
  }
  return error;
}

Result<TraceLog> splitTraceLog(std::string_view text) {
  TraceLog log;
  TraceGraph* current = nullptr; // the graph whose payload lines come next
  bool inPayload = false;        // payload lines of a record of any kind may follow
  auto problem = [&](uint32_t lineNumber, uint32_t column, std::string message) {
    if (!log.firstProblem)
      log.firstProblem = Error{std::move(message), lineNumber, column};
    ++log.numProblems;
  };
  forEachLine(text, [&](std::string_view line, uint32_t lineNumber) {
    if (line.empty())
      return true;
    if (line.front() == '\t') {
      if (current) {
        if (!current->payload.empty() || !current->payloadLines.empty())
          current->payload += '\n';
        current->payload.append(line.substr(1));
        current->payloadLines.push_back(lineNumber);
      } else if (!inPayload) {
        problem(lineNumber, 1, "payload line without a record before it");
      }
      return true;
    }
    current = nullptr;
    inPayload = false;
    std::optional<size_t> jsonStart = recordJsonStart(line);
    if (!jsonStart) {
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
    for (auto item = record.begin(); item != record.end(); ++item) {
      if (!isTraceGraphKey(item.key()))
        continue;
      TraceGraph graph;
      graph.key = item.key();
      if (graph.key == "graph_dump") {
        const nlohmann::json& name = item.value();
        if (name.is_object() && name.contains("name") && name["name"].is_string())
          graph.key += "." + name["name"].get<std::string>();
      }
      graph.line = lineNumber;
      log.graphs.push_back(std::move(graph));
      current = inPayload ? &log.graphs.back() : nullptr;
      break;
    }
    return true;
  });
  if (log.numRecords == 0) {
    if (log.firstProblem)
      return Error{"not a structured trace (TORCH_TRACE) log: " + log.firstProblem->message,
                   log.firstProblem->line, log.firstProblem->column};
    return Error{"not a structured trace (TORCH_TRACE) log: it has no records"};
  }
  return log;
}

} // namespace declone
