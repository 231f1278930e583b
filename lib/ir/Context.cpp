// Arena, string and target interning shared by the graphs of one file.
#include "declone/ir/Context.h"

#include <cstring>

namespace declone {

Context::Context() = default;
Context::~Context() = default;

std::string_view Context::saveSource(std::string_view text) {
  source_ = save(text);
  return source_;
}

std::string_view Context::adoptSource(std::string text) {
  ownedSource_ = std::move(text);
  source_ = ownedSource_;
  return source_;
}

std::string_view Context::save(std::string_view text) {
  if (text.empty())
    return {};
  if (text.data() >= source_.data() && text.data() + text.size() <= source_.data() + source_.size())
    return text;
  char* data = static_cast<char*>(arena_.allocate(text.size(), 1));
  std::memcpy(data, text.data(), text.size());
  return {data, text.size()};
}

const Target* Context::target(Target::Kind kind, std::string_view qualifiedName) {
  auto found = targets_.find(TargetKey{kind, qualifiedName});
  if (found != targets_.end())
    return found->second;
  Target* target = create<Target>();
  target->kind = kind;
  target->qualifiedName = save(qualifiedName);
  if (kind == Target::Kind::Op) {
    // torch.ops.NAMESPACE.NAME[.OVERLOAD]
    std::string_view rest = target->qualifiedName;
    constexpr std::string_view prefix = "torch.ops.";
    if (rest.starts_with(prefix))
      rest.remove_prefix(prefix.size());
    size_t dot = rest.find('.');
    target->opNamespace = rest.substr(0, dot);
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    dot = rest.find('.');
    target->opName = rest.substr(0, dot);
    if (dot != std::string_view::npos)
      target->overload = rest.substr(dot + 1);
  }
  targets_.emplace(TargetKey{kind, target->qualifiedName}, target);
  return target;
}

} // namespace declone
