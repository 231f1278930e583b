// Remarks: one record per optimization decision, printable as compiler-style text or JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace declone {

/// Why a pass made a decision about one node, in the DESIGN.md section 4 vocabulary.
struct Remark {
  enum class Decision : uint8_t { Removed, Kept };
  std::string node;  ///< the node's name
  uint32_t line = 0; ///< its line in the input (0 if unknown)
  Decision decision = Decision::Kept;
  std::optional<std::string> reason; ///< a reason code such as "layout-changed"; none if removed
  std::string detail;                ///< for people: "strides [3, 1] != [5, 1]"
  /// The user's source line the node comes from, `model.py:68` (a dump's `# File:` comment, a
  /// live node's stack_trace); empty when unknown.
  std::string source;
  std::string code; ///< the source line's code, `q = qkv[..., :D].contiguous()`, when known
  /// For a copy a functionalized call implies (DESIGN.md section 4b), the argument (v1,
  /// triton) or `_all_bases[i]` (v2) copied; empty for a clone.
  std::string copy;
  /// For a copy: the bytes it copies, when its size is static.
  std::optional<uint64_t> bytes;

  /// `FILE:LINE: remark: clone 'clone' kept [layout-changed]: strides [3, 1] != [5, 1]`, for a
  /// copy `FILE:LINE: remark: copy of 'result' in 'auto_functionalized' kept [...]: ...`; with a
  /// source, it leads and the graph location follows:
  /// `model.py:68: remark: clone 'clone' kept [...]: ... (q = ...; graph: FILE:LINE)`.
  [[nodiscard]] std::string formatText(std::string_view file) const;
  /// One JSON object: {"node": ..., "line": ..., "decision": ..., "reason": ..., "detail": ...,
  /// "source": "model.py:68" or null, "code": ... or null}, for a copy followed by
  /// "copy": "result", "bytes": 1024 or null
  [[nodiscard]] std::string formatJson() const;
};

/// Appends `text` to `out` as a JSON string literal.
void appendJsonString(std::string_view text, std::string& out);
/// Appends `, "key": VALUE` to `out`: the string, or null when it is empty.
void appendJsonField(std::string_view key, std::string_view value, std::string& out);

} // namespace declone
