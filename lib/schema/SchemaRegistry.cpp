// The schema registry: lookup by namespace, name and overload; loading of schema files.
#include "declone/schema/SchemaRegistry.h"

#include "BuiltinSchemas.h"
#include "declone/support/Lines.h"

#include <cassert>
#include <fstream>
#include <span>
#include <sstream>

namespace declone {
namespace {

/// PyTorch spells the default overload "default" in `torch.ops` and "" in schema text.
std::string_view canonicalOverload(std::string_view overload) {
  return overload == "default" ? std::string_view() : overload;
}

std::string joinChunks(std::span<const std::string_view> chunks) {
  std::string text;
  for (std::string_view chunk : chunks)
    text += chunk;
  return text;
}

bool isBlankOrComment(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#';
}

/// Calls `fn(line, lineNumber)` for every schema line of `text`; stops when `fn` returns false.
template <class Fn> void forEachSchemaLine(std::string_view text, Fn fn) {
  forEachLine(text, [&](std::string_view line, uint32_t lineNumber) {
    return isBlankOrComment(line) || fn(line, lineNumber);
  });
}

} // namespace

const SchemaRegistry& SchemaRegistry::builtin() {
  // Immutable once built, so sharing it between threads needs no locking. Never destroyed:
  // freeing its few thousand schemas at exit was a tenth of a small graph's run time.
  static const SchemaRegistry& registry = *new SchemaRegistry([] {
    SchemaRegistry built;
    for (const Source& source : builtinSources()) {
      // The embedded texts are checked by the unit tests; a line this parser cannot read (say, from
      // a newer libtorch) is skipped rather than losing the lines after it.
      forEachSchemaLine(source.text, [&](std::string_view line, uint32_t) {
        Status status = built.addSchema(line);
        assert(status.ok() && "built-in schema does not parse");
        (void)status;
        return true;
      });
    }
    return built;
  }());
  return registry;
}

std::vector<SchemaRegistry::Source> SchemaRegistry::builtinSources() {
  return {
      {"libtorch", joinChunks(detail::libtorchSchemaChunks())},
      {"supplement", joinChunks(detail::supplementSchemaChunks())},
  };
}

Status SchemaRegistry::addSchema(std::string_view text) {
  Result<OpSchema> schema = parseSchema(text);
  if (!schema)
    return schema.error();
  if (schema->opNamespace.empty())
    return Error{"schema of '" + schema->name + "' has no namespace (write 'ns::" + schema->name +
                     "')",
                 1, 1};
  add(std::move(schema).value());
  return ok();
}

void SchemaRegistry::add(OpSchema schema) {
  assert(!schema.opNamespace.empty() && "registry schemas need a namespace");
  if (schema.overload == "default")
    schema.overload.clear();
  auto nsIt = packets_.find(schema.opNamespace);
  if (nsIt == packets_.end())
    nsIt = packets_.emplace(schema.opNamespace, StringMap<Packet>()).first;
  auto nameIt = nsIt->second.find(schema.name);
  if (nameIt == nsIt->second.end())
    nameIt = nsIt->second.emplace(schema.name, Packet()).first;
  Packet& packet = nameIt->second;
  auto it = packet.find(schema.overload);
  if (it != packet.end()) {
    it->second = std::move(schema); // replaced in place: pointers to it stay valid
    return;
  }
  std::string overload = schema.overload;
  packet.emplace(std::move(overload), std::move(schema));
  ++size_;
}

Status SchemaRegistry::loadText(std::string_view text) {
  Status result = ok();
  forEachSchemaLine(text, [&](std::string_view line, uint32_t lineNumber) {
    Status status = addSchema(line);
    if (status)
      return true;
    Error error = status.error();
    error.line = lineNumber;
    result = std::move(error);
    return false;
  });
  return result;
}

Status SchemaRegistry::loadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{"cannot open schema file '" + path + "'"};
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad())
    return Error{"cannot read schema file '" + path + "'"};
  return loadText(contents.str());
}

const SchemaRegistry::Packet* SchemaRegistry::findPacket(std::string_view ns,
                                                         std::string_view name) const {
  auto nsIt = packets_.find(ns);
  if (nsIt == packets_.end())
    return nullptr;
  auto nameIt = nsIt->second.find(name);
  return nameIt == nsIt->second.end() ? nullptr : &nameIt->second;
}

const OpSchema* SchemaRegistry::lookup(std::string_view ns, std::string_view name,
                                       std::string_view overload) const {
  const Packet* packet = findPacket(ns, name);
  if (packet) {
    auto it = packet->find(canonicalOverload(overload));
    if (it != packet->end())
      return &it->second;
  }
  return fallback_ ? fallback_->lookup(ns, name, overload) : nullptr;
}

std::vector<const OpSchema*> SchemaRegistry::overloads(std::string_view ns,
                                                       std::string_view name) const {
  std::vector<const OpSchema*> result;
  if (const Packet* packet = findPacket(ns, name))
    for (const auto& [overload, schema] : *packet)
      result.push_back(&schema);
  return result;
}

bool SchemaRegistry::hasPacket(std::string_view ns, std::string_view name) const {
  return findPacket(ns, name) != nullptr;
}

} // namespace declone
