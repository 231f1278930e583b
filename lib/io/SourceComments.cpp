// Reading the `# File:` comments FX prints above the nodes of each source line.
#include "declone/io/SourceComments.h"

#include "declone/support/Lines.h"

#include <algorithm>
#include <cctype>

namespace declone {
namespace {

/// The end of `PATH:LINE` in `head` (`PATH:LINE` or `PATH:LINE in FUNC`): the last colon
/// followed by digits that end `head` or precede " in ". npos when there is none.
size_t locationEnd(std::string_view head) {
  for (size_t colon = head.rfind(':'); colon != std::string_view::npos && colon > 0;
       colon = head.rfind(':', colon - 1)) {
    size_t end = colon + 1;
    while (end < head.size() && std::isdigit(static_cast<unsigned char>(head[end])))
      ++end;
    if (end > colon + 1 && (end == head.size() || head.substr(end).starts_with(" in ")))
      return end;
  }
  return std::string_view::npos;
}

} // namespace

std::optional<UserSource> parseFileComment(std::string_view line) {
  line = trim(line);
  // FX puts annotations before the location: `# ac_graph_id: 2 - PREFER_RECOMPUTE File: ...`.
  constexpr std::string_view kFile = "File: ";
  size_t file = line.find(kFile);
  if (!line.starts_with("#") || file == std::string_view::npos ||
      (file != 2 && line[file - 1] != ' '))
    return std::nullopt;
  line.remove_prefix(file + kFile.size());
  constexpr std::string_view kCode = ", code: ";
  size_t code = line.find(kCode);
  std::string_view head = line.substr(0, code);
  size_t end = locationEnd(head);
  if (end == std::string_view::npos)
    return std::nullopt;
  UserSource source{std::string(head.substr(0, end)), {}};
  if (code != std::string_view::npos)
    source.code = std::string(trim(line.substr(code + kCode.size())));
  return source;
}

SourceComments::SourceComments(std::string_view text) {
  int32_t current = -1;
  forEachLine(text, [&](std::string_view line, uint32_t number) {
    std::string_view content = trim(line);
    int32_t next = current;
    bool fileComment = false;
    if (content.starts_with("#") && content.find("No stacktrace found") != std::string_view::npos) {
      next = -1;
    } else if (std::optional<UserSource> source = parseFileComment(content)) {
      sources_.push_back(std::move(*source));
      next = static_cast<int32_t>(sources_.size() - 1);
      fileComment = true;
    } else if (content.starts_with("class ") || content.starts_with("def forward")) {
      next = -1;
    }
    if (next != current || fileComment) {
      changes_.push_back({number, next});
      current = next;
    }
    return true;
  });
}

const UserSource* SourceComments::at(uint32_t line) const {
  auto after =
      std::upper_bound(changes_.begin(), changes_.end(), line,
                       [](uint32_t value, const Change& change) { return value < change.line; });
  if (after == changes_.begin())
    return nullptr;
  int32_t index = std::prev(after)->index;
  return index < 0 ? nullptr : &sources_[static_cast<size_t>(index)];
}

void SourceComments::annotate(std::span<Remark> remarks) const {
  if (sources_.empty())
    return;
  for (Remark& remark : remarks)
    if (const UserSource* source = at(remark.line)) {
      remark.source = source->location;
      remark.code = source->code;
    }
}

} // namespace declone
