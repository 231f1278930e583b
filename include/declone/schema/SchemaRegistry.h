// The set of known operator schemas: built-in (PyTorch 2.13's registry + bundled supplement) and
// user files.
#pragma once

#include "declone/schema/Schema.h"
#include "declone/support/Result.h"

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace declone {

/// Maps `ns::name.overload` to its schema. Adding a schema whose name and overload are already
/// present replaces the old one, so sources loaded later override earlier ones (libtorch <
/// supplement < `--schemas` files). Pointers returned by lookups stay valid until the registry is
/// destroyed; a replaced entry is updated in place.
class SchemaRegistry {
public:
  /// One embedded source of built-in schemas, in merge order.
  struct Source {
    std::string_view name; ///< "libtorch" or "supplement"
    std::string text;      ///< one schema per line, `#` comments
  };

  SchemaRegistry();
  /// A registry whose lookup() falls back to `fallback` (which must outlive it) for what it does
  /// not hold itself: a few schemas layered over the built-ins without copying them.
  explicit SchemaRegistry(const SchemaRegistry* fallback);
  /// A copy holds every schema of `other`, parsing first what `other` has not parsed yet.
  SchemaRegistry(const SchemaRegistry& other);
  SchemaRegistry(SchemaRegistry&&) noexcept;
  SchemaRegistry& operator=(const SchemaRegistry&) = delete;
  SchemaRegistry& operator=(SchemaRegistry&&) noexcept;
  ~SchemaRegistry();

  /// The merged built-in schemas: every operator of PyTorch 2.13's registry (lib/schema/
  /// torch.schemas, source "libtorch"), overridden by the bundled supplement. Indexed once, on
  /// first use; each packet is parsed on its first lookup (a run asks for a few dozen of several
  /// thousand) and published atomically, so the registry can be shared between threads.
  [[nodiscard]] static const SchemaRegistry& builtin();
  /// The embedded texts `builtin()` is made of, in merge order.
  [[nodiscard]] static std::vector<Source> builtinSources();

  /// Parses `text` and adds it. A schema without a namespace is an error: the registry is keyed
  /// by `ns::name.overload` as graphs spell targets.
  [[nodiscard]] Status addSchema(std::string_view text);
  /// Adds (or replaces) a parsed schema, which must have a namespace.
  void add(OpSchema schema);
  /// Adds every schema of `text`: one per line; blank lines and lines starting with `#` (after
  /// spaces) are skipped. Stops at the first bad line with an error carrying its line and column;
  /// the lines before it stay added.
  [[nodiscard]] Status loadText(std::string_view text);
  /// `loadText` on a file's contents (the CLI's `--schemas FILE`).
  [[nodiscard]] Status loadFile(const std::string& path);

  /// The schema of `ns::name.overload`. Both "" and "default" name the default overload, as
  /// PyTorch's `torch.ops.ns.name.default` does.
  [[nodiscard]] const OpSchema* lookup(std::string_view ns, std::string_view name,
                                       std::string_view overload) const;
  /// Every overload of the packet `ns::name` (the fallback's included, as lookup() finds
  /// them), ordered by overload name (default first).
  [[nodiscard]] std::vector<const OpSchema*> overloads(std::string_view ns,
                                                       std::string_view name) const;
  [[nodiscard]] bool hasPacket(std::string_view ns, std::string_view name) const;
  /// Every packet this registry and its fallback know, as `ns::name`, sorted and unique.
  [[nodiscard]] std::vector<std::string> packetNames() const;
  /// Number of schemas.
  [[nodiscard]] size_t size() const { return size_; }

private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  template <class V>
  using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;
  /// Overload name ("" for default) → schema; node-based, so entries never move.
  using Packet = std::map<std::string, OpSchema, std::less<>>;

  /// The built-in registry's schema lines by namespace and name, each packet parsed on its
  /// first lookup.
  struct Pending;
  struct PendingPacket;

  [[nodiscard]] const Packet* findPacket(std::string_view ns, std::string_view name) const;
  [[nodiscard]] const Packet* findParsedPacket(std::string_view ns, std::string_view name) const;
  /// The schemas of a pending packet, parsed on the first call.
  [[nodiscard]] static const Packet* parsePending(PendingPacket& pending);

  /// namespace → name → overloads; nested so that lookups need no string building. Entries are
  /// only ever added, and replaced in place, so pointers to packets and schemas stay valid.
  StringMap<StringMap<Packet>> packets_;
  size_t size_ = 0;
  const SchemaRegistry* fallback_ = nullptr;
  /// The built-in registry's (its packets_ stays empty); null for the others'.
  std::unique_ptr<Pending> pending_;
};

} // namespace declone
