// glog's line prefix, and the graph inside a log record's payload.
#include "GraphLogText.h"

#include <cctype>

namespace declone {
namespace {

bool isDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool startsClass(std::string_view text) {
  return text.starts_with("class ");
}

} // namespace

std::optional<size_t> glogPrefixEnd(std::string_view line) {
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
  if (line[colon] != ':')
    return std::nullopt;
  return close + 2;
}

void PayloadBuilder::start(TraceGraph graph, bool mustHoldGraph) {
  graph_ = std::move(graph);
  mustHoldGraph_ = mustHoldGraph;
  active_ = true;
  lines_.clear();
}

void PayloadBuilder::add(std::string_view text, uint32_t lineNumber, uint32_t column) {
  lines_.push_back({text, lineNumber, column});
}

void PayloadBuilder::finish(std::vector<TraceGraph>& out) {
  active_ = false;
  // In an artifact of any kind, only a module's class starts a graph (not a `class` of
  // user code); a graph record's payload is read from its first class on whatever it says.
  auto starts = [&](std::string_view text) {
    return startsClass(text) && (!mustHoldGraph_ || text.ends_with("(torch.nn.Module):"));
  };
  size_t begin = 0;
  while (begin < lines_.size() && !starts(lines_[begin].text))
    ++begin;
  size_t end = lines_.size();
  if (begin == lines_.size()) {
    if (mustHoldGraph_)
      return;
    begin = 0; // no class: kept whole, so that reading it says what is wrong
  } else if (mustHoldGraph_) {
    // An artifact's text may go on after the graph (fx_graph_runnable's load_args); a graph
    // record's payload is all graph, and a damaged line in it must be read to be reported.
    for (size_t i = begin + 1; i < lines_.size(); ++i) {
      std::string_view text = lines_[i].text;
      if (!text.empty() && text[0] != ' ' && text[0] != '\t' && text[0] != '#' &&
          !startsClass(text)) {
        end = i;
        break;
      }
    }
  }
  size_t skipIndent = std::string_view::npos; // inside an `__init__`, from its indent on
  for (size_t i = begin; i < end; ++i) {
    std::string_view text = lines_[i].text;
    size_t indent = text.find_first_not_of(" \t");
    if (skipIndent != std::string_view::npos) {
      if (indent == std::string_view::npos || indent > skipIndent)
        continue;
      skipIndent = std::string_view::npos;
    }
    // fx_graph_runnable's `class Repro` sets up module state in `__init__`; the graph is
    // forward, which reads that state as attributes.
    if (indent != std::string_view::npos && indent > 0 &&
        text.substr(indent).starts_with("def __init__(")) {
      skipIndent = indent;
      continue;
    }
    if (!graph_.payloadLines.empty())
      graph_.payload += '\n';
    graph_.payload.append(lines_[i].text);
    graph_.payloadLines.push_back(lines_[i].number);
    graph_.payloadColumns.push_back(lines_[i].column);
  }
  out.push_back(std::move(graph_));
  lines_.clear();
}

} // namespace declone
