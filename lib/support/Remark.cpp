// Text and JSON forms of remarks (the CLI contract in DESIGN.md section 5).
#include "declone/support/Remark.h"

#include <cstdio>

namespace declone {

std::string Remark::formatText(std::string_view file) const {
  std::string location(file);
  if (line != 0)
    location += ":" + std::to_string(line);
  std::string out = source.empty() ? location : source;
  if (copy.empty())
    out += ": remark: clone '" + node + "' ";
  else
    out += ": remark: copy of '" + copy + "' in '" + node + "' ";
  out += decision == Decision::Removed ? "removed" : "kept";
  if (reason)
    out += " [" + *reason + "]";
  if (!detail.empty())
    out += ": " + detail;
  // The graph location stays on the line: it is what `declone opt FILE` and editors open.
  if (!source.empty())
    out += " (" + (code.empty() ? std::string() : code + "; ") + "graph: " + location + ")";
  return out;
}

void appendJsonString(std::string_view text, std::string& out) {
  out += '"';
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escape[8];
        std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
        out += escape;
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

void appendJsonField(std::string_view key, std::string_view value, std::string& out) {
  out += ", \"";
  out += key;
  out += "\": ";
  if (value.empty())
    out += "null";
  else
    appendJsonString(value, out);
}

std::string Remark::formatJson() const {
  std::string out = "{\"node\": ";
  appendJsonString(node, out);
  out += ", \"line\": " + std::to_string(line);
  out += ", \"decision\": ";
  out += decision == Decision::Removed ? "\"removed\"" : "\"kept\"";
  appendJsonField("reason", reason.value_or(""), out);
  out += ", \"detail\": ";
  appendJsonString(detail, out);
  appendJsonField("source", source, out);
  appendJsonField("code", code, out);
  if (!copy.empty()) {
    appendJsonField("copy", copy, out);
    out += ", \"bytes\": " + (bytes ? std::to_string(*bytes) : std::string("null"));
  }
  out += '}';
  return out;
}

} // namespace declone
