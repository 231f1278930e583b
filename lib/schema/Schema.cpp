// Queries and printing of operator schemas.
#include "declone/schema/Schema.h"

#include <algorithm>

namespace declone {
namespace {

bool containsWildcard(const std::vector<std::string>& sets) {
  return std::find(sets.begin(), sets.end(), AliasInfo::kWildcard) != sets.end();
}

std::string joinSets(const std::vector<std::string>& sets) {
  std::string out;
  for (const std::string& set : sets) {
    if (!out.empty())
      out += '|';
    out += set;
  }
  return out;
}

/// The annotations of an argument: on the value and on its elements.
template <class Fn> bool anyAlias(const SchemaArgument& argument, Fn fn) {
  return (argument.alias && fn(*argument.alias)) ||
         (argument.elementAlias && fn(*argument.elementAlias));
}

} // namespace

// --- AliasInfo -----------------------------------------------------------------------------------

bool AliasInfo::isWildcardBefore() const {
  return containsWildcard(beforeSets);
}
bool AliasInfo::isWildcardAfter() const {
  return containsWildcard(afterSets);
}

bool AliasInfo::sharesBeforeSetWith(const AliasInfo& other) const {
  for (const std::string& set : beforeSets)
    if (set != kWildcard &&
        std::find(other.beforeSets.begin(), other.beforeSets.end(), set) != other.beforeSets.end())
      return true;
  return false;
}

std::string AliasInfo::toString() const {
  if (isShorthand)
    return "!";
  std::string out = "(" + joinSets(beforeSets);
  if (isWrite)
    out += '!';
  if (hasArrow)
    out += " -> " + joinSets(afterSets);
  out += ')';
  return out;
}

// --- SchemaType
// ------------------------------------------------------------------------------------

std::string SchemaType::text() const {
  return element + listSuffix + (optional ? "?" : "");
}

// --- SchemaArgument
// --------------------------------------------------------------------------------

bool SchemaArgument::isWrite() const {
  return anyAlias(*this, [](const AliasInfo& info) { return info.isWrite; });
}

bool SchemaArgument::hasWildcard() const {
  return anyAlias(*this, [](const AliasInfo& info) { return info.hasWildcard(); });
}

bool SchemaArgument::sharesAliasSetWith(const SchemaArgument& other) const {
  return anyAlias(*this, [&](const AliasInfo& mine) {
    return anyAlias(other,
                    [&](const AliasInfo& theirs) { return mine.sharesBeforeSetWith(theirs); });
  });
}

// Canonical placement, as c10 prints it: element annotations right after the element's base type
// (`Tensor(a)?[]`), the value's annotation after the list suffix or the base (`Tensor[](a!)`,
// `Tensor(a!)?`), then the final `?`.
std::string SchemaArgument::toString() const {
  std::string out = type.element;
  if (elementAlias) {
    const size_t at = !out.empty() && out.back() == '?' ? out.size() - 1 : out.size();
    out.insert(at, elementAlias->toString());
  }
  out += type.listSuffix;
  if (alias)
    out += alias->toString();
  if (type.optional)
    out += '?';
  if (!name.empty())
    out += ' ' + name;
  if (defaultValue)
    out += '=' + *defaultValue;
  return out;
}

// --- OpSchema
// --------------------------------------------------------------------------------------

std::string OpSchema::qualifiedName() const {
  return opNamespace.empty() ? name : opNamespace + "::" + name;
}

std::string OpSchema::fullName() const {
  return overload.empty() ? qualifiedName() : qualifiedName() + "." + overload;
}

bool OpSchema::isMutable() const {
  return std::any_of(arguments.begin(), arguments.end(),
                     [](const SchemaArgument& argument) { return argument.isWrite(); });
}

bool OpSchema::writesArgument(size_t argIndex) const {
  return argIndex < arguments.size() && arguments[argIndex].isWrite();
}

std::optional<size_t> OpSchema::argumentIndex(std::string_view argName) const {
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].name == argName)
      return i;
  return std::nullopt;
}

std::optional<size_t> OpSchema::returnAliasesArgument(size_t returnIndex) const {
  if (returnIndex >= returns.size())
    return std::nullopt;
  for (size_t i = 0; i < arguments.size(); ++i)
    if (returns[returnIndex].sharesAliasSetWith(arguments[i]))
      return i;
  return std::nullopt;
}

bool OpSchema::returnIsFresh(size_t returnIndex) const {
  return returnIndex < returns.size() && !returns[returnIndex].alias &&
         !returns[returnIndex].elementAlias;
}

bool OpSchema::hasWildcard() const {
  auto wildcard = [](const SchemaArgument& argument) { return argument.hasWildcard(); };
  return std::any_of(arguments.begin(), arguments.end(), wildcard) ||
         std::any_of(returns.begin(), returns.end(), wildcard);
}

std::string OpSchema::toString() const {
  std::string out = fullName() + "(";
  bool first = true;
  auto separate = [&] {
    if (!first)
      out += ", ";
    first = false;
  };
  bool starPrinted = false;
  for (const SchemaArgument& argument : arguments) {
    if (argument.kwargOnly && !starPrinted) {
      separate();
      out += '*';
      starPrinted = true;
    }
    separate();
    out += argument.toString();
  }
  if (isVararg) {
    separate();
    out += "...";
  }
  out += ") -> ";

  // A lone return prints bare (`-> Tensor`, `-> Tensor Y`), as c10 prints it, unless it would
  // read as a return list (`(int, int)`).
  if (returns.size() == 1 && !isVarret && !returns[0].type.element.starts_with('(')) {
    out += returns[0].toString();
    return out;
  }
  if (returns.empty() && isVarret) {
    out += "...";
    return out;
  }
  out += '(';
  first = true;
  for (const SchemaArgument& ret : returns) {
    separate();
    out += ret.toString();
  }
  if (isVarret) {
    separate();
    out += "...";
  }
  out += ')';
  return out;
}

} // namespace declone
