// The schema registry: lookup by namespace, name and overload; loading of schema files.
#include "declone/schema/SchemaRegistry.h"

#include "BuiltinSchemas.h"
#include "declone/support/Diagnostic.h"
#include "declone/support/Lines.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <fstream>
#include <optional>
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

/// One packet's built-in schema lines in merge order (libtorch, then the supplement, whose
/// schemas replace libtorch's of the same overload) and, from its first lookup on, their
/// schemas. The built-in registry is shared (report looks schemas up on several threads), so a
/// packet is published once: lookups that parse it at the same time all return the schemas the
/// first of them published, and the others drop theirs. No lock: a lookup never waits.
struct SchemaRegistry::PendingPacket {
  struct Line {
    std::string_view overload; ///< "" for the default overload
    std::string_view text;
  };
  std::vector<Line> lines;
  std::atomic<const Packet*> parsed{nullptr};

  PendingPacket() = default;
  PendingPacket(const PendingPacket&) = delete;
  PendingPacket& operator=(const PendingPacket&) = delete;
  ~PendingPacket() { delete parsed.load(std::memory_order_acquire); }
};

/// The built-in packets by namespace and name. Every key and line is a view of the texts
/// embedded in the program: indexing copies no string. Only the parsed packets change after.
struct SchemaRegistry::Pending {
  template <class V>
  using ViewMap = std::unordered_map<std::string_view, V, StringHash, std::equal_to<>>;

  ViewMap<ViewMap<PendingPacket>> packets;
};

SchemaRegistry::SchemaRegistry() = default;
SchemaRegistry::SchemaRegistry(const SchemaRegistry* fallback) : fallback_(fallback) {}

SchemaRegistry::SchemaRegistry(const SchemaRegistry& other)
    : packets_(other.packets_), size_(other.size_), fallback_(other.fallback_) {
  if (!other.pending_)
    return;
  // The copy holds every schema: the packets not looked up yet are parsed now.
  for (auto& [ns, byName] : other.pending_->packets)
    for (auto& [name, pending] : byName) {
      Packet& packet = packets_[std::string(ns)][std::string(name)];
      for (const auto& [overload, schema] : *parsePending(pending))
        packet.insert_or_assign(overload, schema);
    }
}

SchemaRegistry::SchemaRegistry(SchemaRegistry&&) noexcept = default;
SchemaRegistry& SchemaRegistry::operator=(SchemaRegistry&&) noexcept = default;
SchemaRegistry::~SchemaRegistry() = default;

namespace {

/// `ns`, `name` and `overload` of a schema line's `ns::name.overload(`, without parsing it.
struct SchemaHead {
  std::string_view ns, name, overload;
};

std::optional<SchemaHead> schemaHead(std::string_view line) {
  size_t start = line.find_first_not_of(" \t");
  size_t open = line.find('(');
  if (start == std::string_view::npos || open == std::string_view::npos)
    return std::nullopt;
  std::string_view head = line.substr(start, open - start);
  size_t colons = head.find("::");
  if (colons == std::string_view::npos)
    return std::nullopt;
  SchemaHead parts{head.substr(0, colons), head.substr(colons + 2), {}};
  if (size_t dot = parts.name.find('.'); dot != std::string_view::npos) {
    parts.overload = parts.name.substr(dot + 1);
    parts.name = parts.name.substr(0, dot);
  }
  while (!parts.overload.empty() && (parts.overload.back() == ' ' || parts.overload.back() == '\t'))
    parts.overload.remove_suffix(1);
  return parts;
}

} // namespace

const SchemaRegistry& SchemaRegistry::builtin() {
  // Never destroyed: freeing thousands of schemas at exit would only slow every run down.
  static const SchemaRegistry& registry = *[] {
    auto built = new SchemaRegistry();
    built->pending_ = std::make_unique<Pending>();
    Pending& pending = *built->pending_;
    // Every `opt` pays for this index, so it is one pass over the embedded chunks (which end at
    // line ends) that copies nothing. A packet's lines are adjacent in libtorch's sorted dump:
    // the last packet is checked before the tables.
    std::string_view lastNs, lastName;
    std::vector<PendingPacket::Line>* packet = nullptr;
    size_t schemas = 0;
    auto index = [&](std::string_view chunk) {
      forEachSchemaLine(chunk, [&](std::string_view line, uint32_t) {
        std::optional<SchemaHead> head = schemaHead(line);
        // The embedded texts are checked by the unit tests; a line without `ns::name(` is
        // skipped, as the parser would reject it.
        assert(head && "built-in schema without a namespace");
        if (!head)
          return true;
        if (!packet || head->name != lastName || head->ns != lastNs) {
          packet = &pending.packets[head->ns][head->name].lines;
          lastNs = head->ns;
          lastName = head->name;
        }
        std::string_view overload = canonicalOverload(head->overload);
        // The supplement's schema of an overload replaces libtorch's: one schema, not two.
        bool known = std::any_of(packet->begin(), packet->end(),
                                 [&](const auto& seen) { return seen.overload == overload; });
        schemas += !known;
        packet->push_back({overload, line});
        return true;
      });
    };
    for (std::string_view chunk : detail::libtorchSchemaChunks())
      index(chunk);
    for (std::string_view chunk : detail::supplementSchemaChunks())
      index(chunk);
    built->size_ = schemas;
    return built;
  }();
  return registry;
}

const SchemaRegistry::Packet* SchemaRegistry::parsePending(PendingPacket& pending) {
  if (const Packet* parsed = pending.parsed.load(std::memory_order_acquire))
    return parsed;
  auto packet = std::make_unique<Packet>();
  for (const PendingPacket::Line& line : pending.lines) {
    Result<OpSchema> schema = parseSchema(line.text);
    // The unit tests parse every embedded line; one this parser cannot read (say, from a
    // newer libtorch) is skipped rather than losing the others.
    assert(schema.ok() && "built-in schema does not parse");
    if (!schema.ok())
      continue;
    if (schema->overload == "default")
      schema->overload.clear();
    std::string overload = schema->overload;
    packet->insert_or_assign(std::move(overload), std::move(schema).value());
  }
  const Packet* published = nullptr;
  if (pending.parsed.compare_exchange_strong(published, packet.get(), std::memory_order_acq_rel,
                                             std::memory_order_acquire))
    return packet.release();
  return published; // another lookup's parse came first
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

std::vector<std::string> SchemaRegistry::packetNames() const {
  std::vector<std::string> names =
      fallback_ ? fallback_->packetNames() : std::vector<std::string>();
  for (const auto& [ns, byName] : packets_)
    for (const auto& [name, packet] : byName)
      names.push_back(ns + "::" + name);
  if (pending_)
    for (const auto& [ns, byName] : pending_->packets)
      for (const auto& [name, packet] : byName)
        names.push_back(std::string(ns) + "::" + std::string(name));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Status SchemaRegistry::loadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{"cannot open schema file '" + path + "'"};
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad())
    return Error{"cannot read schema file '" + path + "'"};
  std::string text = contents.str();
  Status loaded = loadText(text);
  if (!loaded.ok()) {
    Error error = loaded.error();
    attachSourceLines(error, text);
    return error;
  }
  return loaded;
}

const SchemaRegistry::Packet* SchemaRegistry::findPacket(std::string_view ns,
                                                         std::string_view name) const {
  if (const Packet* parsed = findParsedPacket(ns, name); parsed || !pending_)
    return parsed;
  auto nsIt = pending_->packets.find(ns);
  if (nsIt == pending_->packets.end())
    return nullptr;
  auto nameIt = nsIt->second.find(name);
  return nameIt == nsIt->second.end() ? nullptr : parsePending(nameIt->second);
}

const SchemaRegistry::Packet* SchemaRegistry::findParsedPacket(std::string_view ns,
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
  const Packet* packet = findPacket(ns, name);
  if (packet)
    for (const auto& [overload, schema] : *packet)
      result.push_back(&schema);
  // The fallback's overloads that this registry does not replace, as lookup() finds them.
  if (fallback_) {
    for (const OpSchema* schema : fallback_->overloads(ns, name))
      if (!packet || packet->find(schema->overload) == packet->end())
        result.push_back(schema);
    std::sort(result.begin(), result.end(),
              [](const OpSchema* a, const OpSchema* b) { return a->overload < b->overload; });
  }
  return result;
}

bool SchemaRegistry::hasPacket(std::string_view ns, std::string_view name) const {
  return findPacket(ns, name) != nullptr;
}

} // namespace declone
