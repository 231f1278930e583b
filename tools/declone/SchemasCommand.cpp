// `declone schemas [PATTERN]`: the op schemas declone knows, filtered by a glob or a substring.
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "declone/schema/Schema.h"

#include <fnmatch.h>
#include <iostream>

namespace declone::cli {
namespace {

/// Whether `pattern` names the overload: a glob when it has glob characters, else a substring.
/// The op (`aten::clone`) and both spellings of the overload are tried, the schema's
/// (`aten::clone.default`) and FX's (`aten.clone.default`).
bool matches(std::string_view pattern, const OpSchema& schema) {
  std::string op = schema.opNamespace + "::" + schema.name;
  std::string overload = "." + (schema.overload.empty() ? std::string("default") : schema.overload);
  std::string dotted = schema.opNamespace + "." + schema.name + overload;
  bool glob = pattern.find_first_of("*?[") != std::string_view::npos;
  std::string pat(pattern);
  for (const std::string& name : {op, op + overload, dotted}) {
    if (glob ? fnmatch(pat.c_str(), name.c_str(), 0) == 0 : name.find(pattern) != name.npos)
      return true;
  }
  return false;
}

} // namespace

int runSchemas(std::span<const std::string_view> args) {
  std::vector<std::string> patterns;
  bool namesOnly = false;
  CloneFlags flags;
  ArgumentParser parser(
      "schemas",
      "List the op schemas declone knows (PyTorch 2.13's registry, the supplement, and any\n"
      "--schemas files), one per line. PATTERN is a glob ('aten::*_') or a substring ('clone'),\n"
      "matched against both 'aten::clone.default' and 'aten.clone.default'.");
  parser.positional("PATTERN", "only the schemas that match (default: all)", &patterns, 0, 1);
  parser.flag("--names", "print the op names only, one per op", &namesOnly);
  parser.repeated("--schemas", "FILE", "more op schemas, one per line (may be repeated)",
                  &flags.schemaFiles);
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  if (!flags.prepare())
    return kBadInput;
  const SchemaRegistry& registry = flags.schemas();
  std::string out;
  size_t shown = 0;
  for (const std::string& packet : registry.packetNames()) {
    size_t colon = packet.find("::");
    std::string_view ns(packet.data(), colon), name(packet.data() + colon + 2);
    bool any = false;
    for (const OpSchema* schema : registry.overloads(ns, name)) {
      if (!patterns.empty() && !matches(patterns[0], *schema))
        continue;
      any = true;
      if (!namesOnly) {
        out += schema->toString();
        out += '\n';
        ++shown;
      }
    }
    if (namesOnly && any) {
      out += packet;
      out += '\n';
      ++shown;
    }
  }
  std::cout << out << std::flush;
  if (!std::cout) {
    reportUsageError("cannot write to <stdout>");
    return kBadInput;
  }
  if (shown == 0 && !patterns.empty())
    reportUsageWarning("no schema matches '" + patterns[0] + "'");
  return kSuccess;
}

} // namespace declone::cli
