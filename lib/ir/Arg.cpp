// Python literals kept as text in arguments: complex numbers.
#include "declone/ir/Arg.h"

#include <cstdlib>
#include <string>

namespace declone {
namespace {

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

/// The end of the real number Python's repr() writes at `at` (`1`, `2.5`, `1e-07`, `1e+20`,
/// `inf`, `nan`), or npos.
size_t scanReal(std::string_view text, size_t at) {
  if (text.substr(at, 3) == "inf" || text.substr(at, 3) == "nan")
    return at + 3;
  size_t start = at;
  while (at < text.size() && isDigit(text[at]))
    ++at;
  if (at == start)
    return std::string_view::npos;
  if (at < text.size() && text[at] == '.') {
    ++at;
    while (at < text.size() && isDigit(text[at]))
      ++at;
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    size_t exponent = at + 1;
    if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-'))
      ++exponent;
    size_t digits = exponent;
    while (exponent < text.size() && isDigit(text[exponent]))
      ++exponent;
    if (exponent == digits)
      return std::string_view::npos;
    at = exponent;
  }
  return at;
}

bool isSign(std::string_view text, size_t at) {
  return at < text.size() && (text[at] == '+' || text[at] == '-');
}

bool isJ(std::string_view text, size_t at) {
  return at < text.size() && (text[at] == 'j' || text[at] == 'J');
}

double parseReal(std::string_view text) {
  return std::strtod(std::string(text).c_str(), nullptr);
}

} // namespace

size_t complexLiteralLength(std::string_view text) {
  constexpr size_t npos = std::string_view::npos;
  if (text.starts_with("(")) {
    size_t at = isSign(text, 1) ? 2 : 1;
    at = scanReal(text, at);
    if (at == npos || !isSign(text, at))
      return 0;
    at = scanReal(text, at + 1);
    if (at == npos || !isJ(text, at) || at + 1 >= text.size() || text[at + 1] != ')')
      return 0;
    return at + 2;
  }
  size_t at = text.starts_with("-") ? 1 : 0;
  at = scanReal(text, at);
  if (at == npos || !isJ(text, at))
    return 0;
  ++at;
  // `2jx` is a malformed name, not a literal followed by one.
  if (at < text.size()) {
    char next = text[at];
    char lower = static_cast<char>(next | 0x20);
    if (isDigit(next) || next == '_' || (lower >= 'a' && lower <= 'z'))
      return 0;
  }
  return at;
}

std::optional<std::complex<double>> parseComplexLiteral(std::string_view text) {
  if (text.empty() || complexLiteralLength(text) != text.size())
    return std::nullopt;
  if (text.front() != '(') // `IMAGj`
    return std::complex<double>(0.0, parseReal(text.substr(0, text.size() - 1)));
  std::string_view inner = text.substr(1, text.size() - 3); // without the parentheses and `j`
  // The imaginary part starts at the last sign that is neither leading nor an exponent's.
  size_t split = inner.size();
  for (size_t i = inner.size(); i-- > 1;) {
    if ((inner[i] == '+' || inner[i] == '-') && inner[i - 1] != 'e' && inner[i - 1] != 'E') {
      split = i;
      break;
    }
  }
  if (split == inner.size())
    return std::nullopt;
  return std::complex<double>(parseReal(inner.substr(0, split)), parseReal(inner.substr(split)));
}

} // namespace declone
