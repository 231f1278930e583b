// The override table of op effects: its line format and the embedded copy.
#include "declone/analysis/EffectOverrides.h"

#include "EffectOverridesText.h"
#include "declone/support/Lines.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace declone {
namespace {

/// Splits at " | "; the last field (the origin) keeps any further bars.
std::vector<std::string_view> fields(std::string_view line, size_t count) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < count) {
    size_t bar = line.find('|');
    if (bar == std::string_view::npos)
      break;
    out.push_back(trim(line.substr(0, bar)));
    line = line.substr(bar + 1);
  }
  out.push_back(trim(line));
  return out;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  while (!(text = trim(text)).empty()) {
    size_t end = text.find_first_of(" \t");
    out.push_back(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end);
  }
  return out;
}

bool isName(std::string_view word) {
  if (word.empty())
    return false;
  for (char c : word)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

/// `return N aliases ARG`, `writes ARG`, `writes ARG when COND`.
bool parseCorrection(std::string_view text, EffectOverride& entry) {
  std::vector<std::string_view> w = words(text);
  if (w.size() == 4 && w[0] == "return" && w[2] == "aliases" && isName(w[3])) {
    auto [end, error] = std::from_chars(w[1].data(), w[1].data() + w[1].size(), entry.returnIndex);
    if (error != std::errc() || end != w[1].data() + w[1].size())
      return false;
    entry.kind = EffectOverride::Kind::ReturnAliases;
    entry.argument = w[3];
    return true;
  }
  if ((w.size() == 2 || (w.size() == 4 && w[2] == "when" && isName(w[3]))) && w[0] == "writes" &&
      isName(w[1])) {
    entry.kind = EffectOverride::Kind::Writes;
    entry.argument = w[1];
    if (w.size() == 4)
      entry.condition = w[3];
    return true;
  }
  return false;
}

} // namespace

std::string EffectOverride::correction() const {
  if (kind == Kind::ReturnAliases)
    return "return " + std::to_string(returnIndex) + " aliases " + argument;
  return "writes " + argument + (condition.empty() ? "" : " when " + condition);
}

std::string_view EffectOverride::className() const {
  return kind == Kind::ReturnAliases ? "aliasing" : "write";
}

std::string_view EffectOverride::libtorch() const {
  std::string_view rest(origin);
  if (!rest.starts_with(kAuditOriginPrefix))
    return {};
  rest.remove_prefix(kAuditOriginPrefix.size());
  return rest.substr(0, rest.find(':'));
}

std::string EffectOverride::toString() const {
  return op + " | " + correction() + " | " + std::string(className()) + " | " + origin;
}

Result<std::vector<EffectOverride>> parseEffectOverrides(std::string_view text) {
  std::vector<EffectOverride> out;
  uint32_t lineNumber = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++lineNumber;
    if (line.empty() || line.front() == '#')
      continue;
    auto fail = [&](std::string message) -> Error { return Error{message, lineNumber, 1}; };
    std::vector<std::string_view> parts = fields(line, 4);
    if (parts.size() != 4)
      return fail("expected 'OP | CORRECTION | CLASS | ORIGIN'");
    EffectOverride entry;
    entry.op = parts[0];
    if (entry.op.find("::") == std::string::npos || words(entry.op).size() != 1)
      return fail("expected an operator such as aten::dropout, not '" + entry.op + "'");
    if (!parseCorrection(parts[1], entry))
      return fail("expected 'return N aliases ARG', 'writes ARG' or 'writes ARG when ARG', not '" +
                  std::string(parts[1]) + "'");
    if (parts[2] != entry.className())
      return fail("the class of '" + entry.correction() + "' is '" +
                  std::string(entry.className()) + "', not '" + std::string(parts[2]) + "'");
    entry.origin = parts[3];
    // A version is one word of letters, digits and . + _ - ("2.13.0", "2.6.0+debian").
    auto versionChar = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '_' ||
             c == '-';
    };
    std::string_view version = entry.libtorch();
    if (!entry.handWritten() && (version.empty() || entry.origin.find(':') == std::string::npos ||
                                 !std::all_of(version.begin(), version.end(), versionChar)))
      return fail("the origin must start with 'audit libtorch VERSION:' or 'hand:'");
    out.push_back(std::move(entry));
  }
  return out;
}

std::string builtinEffectOverridesText() {
  std::string text;
  for (std::string_view chunk : detail::effectOverrideChunks())
    text += chunk;
  return text;
}

const Result<std::vector<EffectOverride>>& builtinEffectOverrides() {
  static const Result<std::vector<EffectOverride>> table =
      []() -> Result<std::vector<EffectOverride>> {
    Result<std::vector<EffectOverride>> parsed = parseEffectOverrides(builtinEffectOverridesText());
    if (parsed.ok())
      return parsed;
    return Error{"the built-in effect override table does not parse: effect-overrides.txt:" +
                 std::to_string(parsed.error().line) + ": " + parsed.error().message};
  }();
  return table;
}

} // namespace declone
