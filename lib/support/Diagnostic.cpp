// Rendering of located errors, warnings and notes with the source line and a caret.
#include "declone/support/Diagnostic.h"

#include <cstdlib>
#include <unistd.h>

namespace declone {
namespace {

constexpr std::string_view kBold = "\033[1m";
constexpr std::string_view kReset = "\033[0m";

std::string_view severityName(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::string_view severityColour(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "\033[1;31m";
  case Severity::Warning:
    return "\033[1;35m";
  case Severity::Note:
    return "\033[1;36m";
  }
  return kBold;
}

void appendOne(std::string& out, std::string_view file, Severity severity, std::string_view message,
               uint32_t line, uint32_t column, std::string_view sourceLine, DiagnosticStyle style) {
  if (!sourceLine.empty() && sourceLine.back() == '\r')
    sourceLine.remove_suffix(1);
  if (style.colour)
    out += kBold;
  out += file;
  if (line != 0) {
    out += ':' + std::to_string(line);
    if (column != 0)
      out += ':' + std::to_string(column);
  }
  out += ": ";
  if (style.colour)
    out += severityColour(severity);
  out += severityName(severity);
  out += ": ";
  if (style.colour) {
    out += kReset;
    out += kBold;
  }
  out += message;
  if (style.colour)
    out += kReset;
  out += '\n';
  if (line == 0 || sourceLine.empty())
    return;
  out += sourceLine;
  out += '\n';
  // Without a column (a whole statement), the caret marks where the statement starts.
  size_t caret = column;
  if (caret == 0) {
    size_t first = sourceLine.find_first_not_of(" \t");
    caret = first == std::string_view::npos ? 1 : first + 1;
  }
  // Tabs are copied so that the caret lines up however the terminal expands them.
  for (size_t i = 0; i + 1 < caret && i < sourceLine.size(); ++i)
    out += sourceLine[i] == '\t' ? '\t' : ' ';
  if (style.colour)
    out += "\033[1;32m";
  out += '^';
  if (style.colour)
    out += kReset;
  out += '\n';
}

} // namespace

std::string renderDiagnostic(std::string_view file, Severity severity, const Error& diagnostic,
                             DiagnosticStyle style) {
  std::string out;
  appendOne(out, file, severity, diagnostic.message, diagnostic.line, diagnostic.column,
            diagnostic.sourceLine, style);
  for (const Note& note : diagnostic.notes)
    appendOne(out, file, Severity::Note, note.message, note.line, note.column, note.sourceLine,
              style);
  return out;
}

std::string_view sourceLineAt(std::string_view source, uint32_t line) {
  if (line == 0)
    return {};
  size_t start = 0;
  for (uint32_t i = 1; i < line; ++i) {
    size_t newline = source.find('\n', start);
    if (newline == std::string_view::npos)
      return {};
    start = newline + 1;
  }
  size_t end = source.find('\n', start);
  std::string_view text =
      source.substr(start, end == std::string_view::npos ? source.size() - start : end - start);
  if (!text.empty() && text.back() == '\r')
    text.remove_suffix(1);
  return text;
}

void attachSourceLines(Error& error, std::string_view source) {
  if (error.sourceLine.empty())
    error.sourceLine = sourceLineAt(source, error.line);
  for (Note& note : error.notes)
    if (note.sourceLine.empty())
      note.sourceLine = sourceLineAt(source, note.line);
}

bool colourWanted(int fd) {
  auto set = [](const char* name) {
    const char* value = std::getenv(name);
    return value && *value && std::string_view(value) != "0";
  };
  if (set("CLICOLOR_FORCE") || set("FORCE_COLOR"))
    return true;
  const char* noColour = std::getenv("NO_COLOR");
  if (noColour && *noColour)
    return false;
  const char* term = std::getenv("TERM");
  return isatty(fd) != 0 && !(term && std::string_view(term) == "dumb");
}

} // namespace declone
