#include "Minimize.h"

#include "RandomGraph.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"

#include <algorithm>

namespace declone::fuzz {

std::vector<bool> randomDonation(uint64_t seed, size_t placeholders) {
  Random rng(seed * 0x2545f4914f6cdd1dULL + 0x1234567);
  std::vector<bool> donated(placeholders, false);
  if (rng.chance(0.4))
    return donated;
  for (size_t i = 0; i < placeholders; ++i)
    donated[i] = rng.chance(0.5);
  return donated;
}

std::string donatedText(const std::vector<bool>& donated) {
  std::string text;
  for (size_t i = 0; i < donated.size(); ++i)
    if (donated[i])
      text += (text.empty() ? "" : ",") + std::to_string(i);
  return text.empty() ? "none" : text;
}

std::string dropReturnElement(const std::string& text, size_t drop, size_t& elements) {
  size_t at = text.rfind("return (");
  if (at == std::string::npos)
    return {};
  size_t open = at + 8, close = text.find(')', open);
  std::string inside = text.substr(open, close - open);
  std::vector<std::string> names;
  for (size_t start = 0; start < inside.size();) {
    size_t comma = inside.find(',', start);
    if (comma == std::string::npos)
      comma = inside.size();
    std::string name = inside.substr(start, comma - start);
    name.erase(0, name.find_first_not_of(' '));
    if (!name.empty())
      names.push_back(name);
    start = comma + 1;
  }
  elements = names.size();
  if (names.size() < 2 || drop >= names.size())
    return {};
  names.erase(names.begin() + static_cast<ptrdiff_t>(drop));
  std::string list;
  for (const std::string& name : names)
    list += (list.empty() ? "" : ", ") + name;
  if (names.size() == 1)
    list += ",";
  // Re-print so that the free lists match the new return.
  auto file = readGraphFile(text.substr(0, open) + list + text.substr(close));
  return file.ok() ? writeGraphFile(**file) : std::string();
}

void minimizeGraph(std::string& text, std::vector<bool>& donated, const StillFails& stillFails,
                   const volatile std::sig_atomic_t& interrupted) {
  for (bool progress = true; progress && !interrupted;) {
    progress = false;
    size_t elements = 0;
    (void)dropReturnElement(text, 0, elements);
    for (size_t i = elements; i-- > 0 && !progress;) {
      size_t ignored = 0;
      std::string candidate = dropReturnElement(text, i, ignored);
      if (!candidate.empty() && stillFails(candidate, donated)) {
        text = candidate;
        progress = true;
      }
    }
    if (progress)
      continue;
    auto file = readGraphFile(text);
    if (!file.ok())
      break;
    std::vector<std::string> unused;
    for (Node* node : (*file)->modules.front()->graph)
      if (!node->isOutput() && !node->hasUses())
        unused.emplace_back(node->name());
    for (size_t i = unused.size(); i-- > 0 && !progress && !interrupted;) {
      auto copy = readGraphFile(text);
      Graph& graph = (*copy)->modules.front()->graph;
      std::vector<Node*> placeholders = graph.placeholders();
      std::vector<bool> fewer = donated;
      for (Node* node : graph) {
        if (node->name() != unused[i])
          continue;
        auto index = std::find(placeholders.begin(), placeholders.end(), node);
        if (index != placeholders.end() &&
            static_cast<size_t>(index - placeholders.begin()) < fewer.size())
          fewer.erase(fewer.begin() + (index - placeholders.begin()));
        graph.erase(node);
        break;
      }
      std::string candidate = writeGraphFile(**copy);
      if (stillFails(candidate, fewer)) {
        text = candidate;
        donated = fewer;
        progress = true;
      }
    }
  }
}

} // namespace declone::fuzz
