// clone_preserve_strides as the generator models it: what auto_functionalized returns for each
// argument it copies (RandomWrites.cpp, RandomFunctional.cpp).
#pragma once

#include "Generator.h"

namespace declone::fuzz::detail {

/// The elements clone_preserve_strides allocates for `argument`: its storage from the start to
/// its last element (the storage offset kept); unknown without a layout.
inline std::optional<int64_t> storageExtent(const Value& argument) {
  if (!argument.layout)
    return std::nullopt;
  int64_t extent = argument.layout->offset + 1;
  for (size_t d = 0; d < argument.sizes.size(); ++d)
    extent += (argument.sizes[d] - 1) * argument.layout->strides[d];
  return extent;
}

/// The copy of `argument` named `name` in the new `storage` (of storageExtent(argument)
/// elements), a tensor object of its own (`impl`), viewed as the argument is: sizes, strides and
/// storage offset kept, stride-0 dims too.
inline Value stridedCopy(const Value& argument, std::string name, size_t storage, size_t impl) {
  Value copy;
  copy.name = std::move(name);
  copy.sizes = argument.sizes;
  copy.layout = argument.layout;
  copy.exact = argument.exact;
  copy.storage = storage;
  copy.impl = impl;
  return copy;
}

} // namespace declone::fuzz::detail
