// The random-graph generator's view families: view ops of every kind, split and its getitems,
// Python indexing of tensors, size queries feeding view sizes, ops that return an alias of their
// input although their schema says otherwise, and the conjugate and negative bits.
#include "Generator.h"

namespace declone::fuzz::detail {

bool Generator::genView() {
  std::optional<size_t> base = pickRead();
  if (!base)
    return false;
  const Value input = values_[*base]; // copied: addView grows values_
  const Shape& sizes = input.sizes;
  const std::optional<Layout>& layout = input.layout;
  size_t rank = sizes.size();
  auto dimOf = [&]() { return static_cast<size_t>(rng_.below(rank)); };
  switch (rng_.below(12)) {
  case 0: { // view.default: only of contiguous tensors
    if (!contiguous(*base))
      return false;
    Shape shape;
    int64_t total = numel(sizes);
    size_t how = rng_.below(4);
    if (how == 0 || rank == 1) {
      shape = {total};
      if (rank == 1 && total % 2 == 0 && total > 2)
        shape = {2, total / 2};
    } else if (how == 1) { // merge two adjacent dims
      size_t d = rng_.below(rank - 1);
      shape = sizes;
      shape[d] *= shape[d + 1];
      shape.erase(shape.begin() + static_cast<ptrdiff_t>(d) + 1);
    } else if (how == 2) { // split a dim
      shape = sizes;
      size_t d = dimOf();
      int64_t n = shape[d];
      int64_t factor = n % 2 == 0 ? 2 : n % 3 == 0 ? 3 : 1;
      shape[d] = n / factor;
      shape.insert(shape.begin() + static_cast<ptrdiff_t>(d), factor);
    } else { // a new size-1 dim
      shape = sizes;
      shape.insert(shape.begin() + static_cast<ptrdiff_t>(rng_.below(rank + 1)), 1);
    }
    Shape printed = shape;
    if (shape.size() > 1 && rng_.chance(0.3))
      printed[rng_.below(shape.size())] = -1;
    std::string name = fresh("view");
    emit(name, "torch.ops.aten.view.default(" + input.name + ", " + listText(printed) + ")");
    size_t index = addView(*base, name, shape, Layout{rowMajor(shape), layout->offset});
    setExact(index, canonical(*base));
    return true;
  }
  case 1:
  case 2: { // slice.Tensor / narrow
    size_t d = dimOf();
    int64_t n = sizes[d];
    int64_t start = rng_.chance(0.5) || n == 1 ? 0 : rng_.between(1, n - 1);
    int64_t step = rng_.chance(0.2) ? 2 : 1;
    int64_t end = rng_.between(start + 1, n);
    bool narrow = step == 1 && rng_.chance(0.3);
    std::string name;
    if (narrow) {
      name = fresh("narrow");
      emit(name, "torch.ops.aten.narrow.default(" + input.name + ", " + dimText(d, rank) + ", " +
                     std::to_string(start) + ", " + std::to_string(end - start) + ")");
    } else {
      name = fresh("slice");
      std::string endText =
          end == n && rng_.chance(0.5) ? std::to_string(kMaxIndex) : std::to_string(end);
      emit(name, "torch.ops.aten.slice.Tensor(" + input.name + ", " + dimText(d, rank) + ", " +
                     std::to_string(start) + ", " + endText +
                     (step != 1 ? ", " + std::to_string(step) : "") + ")");
    }
    Shape shape = sizes;
    shape[d] = (end - start + step - 1) / step;
    std::optional<Layout> result;
    if (layout) {
      result = layout;
      result->offset += start * layout->strides[d];
      result->strides[d] *= step;
    }
    addView(*base, name, shape, result);
    return true;
  }
  case 3: { // select.int
    if (rank < 2)
      return false;
    size_t d = dimOf();
    int64_t index = rng_.between(0, sizes[d] - 1);
    int64_t printed = rng_.chance(0.2) ? index - sizes[d] : index;
    std::string name = fresh("select");
    emit(name, "torch.ops.aten.select.int(" + input.name + ", " + dimText(d, rank) + ", " +
                   std::to_string(printed) + ")");
    Shape shape = sizes;
    shape.erase(shape.begin() + static_cast<ptrdiff_t>(d));
    std::optional<Layout> result;
    if (layout) {
      result = layout;
      result->offset += index * layout->strides[d];
      result->strides.erase(result->strides.begin() + static_cast<ptrdiff_t>(d));
    }
    addView(*base, name, shape, result);
    return true;
  }
  case 4:
  case 5: { // permute / transpose.int / t
    if (rank < 2)
      return false;
    std::vector<size_t> order(rank);
    std::iota(order.begin(), order.end(), 0);
    std::string name;
    size_t how = rng_.below(3);
    if (how == 0 && rank > 2) {
      while (std::is_sorted(order.begin(), order.end()))
        for (size_t j = order.size(); j > 1; --j)
          std::swap(order[j - 1], order[rng_.below(j)]);
      name = fresh("permute");
      emit(name, "torch.ops.aten.permute.default(" + input.name + ", " +
                     listText(Shape(order.begin(), order.end())) + ")");
    } else if (how == 1 || rank > 2) {
      size_t a = dimOf(), b = dimOf();
      while (b == a)
        b = dimOf();
      std::swap(order[a], order[b]);
      name = fresh("transpose");
      emit(name, "torch.ops.aten.transpose.int(" + input.name + ", " + dimText(a, rank) + ", " +
                     dimText(b, rank) + ")");
    } else {
      std::swap(order[0], order[1]);
      name = fresh("t");
      emit(name, "torch.ops.aten.t.default(" + input.name + ")");
    }
    Shape shape(rank);
    std::optional<Layout> result;
    if (layout)
      result = Layout{Shape(rank), layout->offset};
    for (size_t j = 0; j < rank; ++j) {
      shape[j] = sizes[order[j]];
      if (layout)
        result->strides[j] = layout->strides[order[j]];
    }
    addView(*base, name, shape, result);
    return true;
  }
  case 6: { // unsqueeze
    if (rank >= 4)
      return false;
    size_t d = rng_.below(rank + 1);
    std::string name = fresh("unsqueeze");
    emit(name,
         "torch.ops.aten.unsqueeze.default(" + input.name + ", " + dimText(d, rank + 1) + ")");
    Shape shape = sizes;
    shape.insert(shape.begin() + static_cast<ptrdiff_t>(d), 1);
    std::optional<Layout> result;
    if (layout) {
      result = layout;
      int64_t stride = d >= rank ? 1 : sizes[d] * layout->strides[d];
      result->strides.insert(result->strides.begin() + static_cast<ptrdiff_t>(d), stride);
    }
    addView(*base, name, shape, result);
    return true;
  }
  case 7: { // expand: size-1 dims grow, or a new leading dim
    Shape shape = sizes, printed = sizes;
    std::optional<Layout> result = layout;
    bool grown = false;
    for (size_t j = 0; j < rank; ++j) {
      if (sizes[j] == 1 && rng_.chance(0.7)) {
        shape[j] = printed[j] = rng_.between(2, 4);
        if (result)
          result->strides[j] = 0;
        grown = true;
      } else if (rng_.chance(0.3)) {
        printed[j] = -1;
      }
    }
    if (!grown || rng_.chance(0.3)) {
      if (rank >= 4)
        return false;
      int64_t lead = rng_.between(2, 3);
      shape.insert(shape.begin(), lead);
      printed.insert(printed.begin(), lead);
      if (result)
        result->strides.insert(result->strides.begin(), 0);
    }
    std::string name = fresh("expand");
    emit(name, "torch.ops.aten.expand.default(" + input.name + ", " + listText(printed) + ")");
    addView(*base, name, shape, result, /*overlapping=*/true);
    return true;
  }
  case 8: { // diagonal
    if (rank < 2)
      return false;
    size_t d1 = dimOf(), d2 = dimOf();
    while (d2 == d1)
      d2 = dimOf();
    bool defaults = rng_.chance(0.4);
    int64_t offset = 0;
    if (defaults) {
      d1 = 0;
      d2 = 1;
    } else {
      offset = rng_.between(-(sizes[d1] - 1), sizes[d2] - 1);
    }
    int64_t length = offset >= 0 ? std::min(sizes[d1], sizes[d2] - offset)
                                 : std::min(sizes[d1] + offset, sizes[d2]);
    std::string name = fresh("diagonal");
    emit(name, "torch.ops.aten.diagonal.default(" + input.name +
                   (defaults ? std::string()
                             : ", " + std::to_string(offset) + ", " + std::to_string(d1) + ", " +
                                   std::to_string(d2)) +
                   ")");
    Shape shape;
    std::optional<Layout> result;
    if (layout)
      result = Layout{{},
                      layout->offset + (offset >= 0 ? offset * layout->strides[d2]
                                                    : -offset * layout->strides[d1])};
    for (size_t j = 0; j < rank; ++j) {
      if (j == d1 || j == d2)
        continue;
      shape.push_back(sizes[j]);
      if (layout)
        result->strides.push_back(layout->strides[j]);
    }
    shape.push_back(length);
    if (layout)
      result->strides.push_back(layout->strides[d1] + layout->strides[d2]);
    addView(*base, name, shape, result);
    return true;
  }
  case 9: { // as_strided, inside a storage the graph allocated
    std::optional<int64_t> elements = storages_[input.storage].elements;
    if (!elements || *elements < 2 || storages_[input.storage].complex != input.complex)
      return false;
    int64_t offset = rng_.between(rng_.chance(0.8) ? 1 : 0, *elements - 1);
    int64_t room = *elements - offset;
    Shape shape, strides;
    if (room >= 2 && rng_.chance(0.6)) {
      int64_t inner = rng_.between(1, std::min<int64_t>(room, 4));
      int64_t rowStride = inner + rng_.between(0, 1);
      int64_t rows = rng_.between(1, std::min<int64_t>(4, 1 + (room - inner) / rowStride));
      shape = {rows, inner};
      strides = {rowStride, 1};
    } else {
      shape = {rng_.between(1, std::min<int64_t>(room, 6))};
      strides = {1};
    }
    std::string name = fresh("as_strided");
    emit(name, "torch.ops.aten.as_strided.default(" + input.name + ", " + listText(shape) + ", " +
                   listText(strides) + ", " + std::to_string(offset) + ")");
    // A window of the whole storage: it may overlap other views, but not itself.
    size_t index = addView(*base, name, shape, Layout{strides, offset});
    values_[index].overlapping = false;
    setExact(index, true);
    return true;
  }
  default:
    return genSplit();
  }
}

bool Generator::genSplit(bool unsafe) {
  // The unsafe_ variants alias only without a math bit (see genAliasingOp).
  std::optional<size_t> base =
      pick([&](size_t v) { return !unsafe || (!values_[v].conj && !values_[v].neg); },
           [&](size_t v) { return readWeight(v); });
  if (!base)
    return false;
  const Value input = values_[*base];
  size_t rank = input.sizes.size();
  if (rank < 1)
    return false;
  size_t d = rng_.below(rank);
  int64_t n = input.sizes[d];
  size_t how = rng_.below(3);
  if (how == 2 && (rank < 2 || unsafe))
    how = 0;
  int64_t pieceSize = 1;
  std::string name, rhs;
  if (how == 0) {
    pieceSize = rng_.between(1, std::max<int64_t>(1, n - 1));
    name = fresh(unsafe ? "unsafe_split" : "split");
    rhs = "torch.ops.aten." + name.substr(0, name.find("split") + 5) + ".Tensor(" + input.name +
          ", " + std::to_string(pieceSize) +
          (d != 0 || rng_.chance(0.5) ? ", " + dimText(d, rank) : "") + ")";
  } else if (how == 1) {
    int64_t chunks = rng_.between(2, 3);
    pieceSize = (n + chunks - 1) / chunks;
    name = fresh(unsafe ? "unsafe_chunk" : "chunk");
    rhs = "torch.ops.aten." + name.substr(0, name.find("chunk") + 5) + ".default(" + input.name +
          ", " + std::to_string(chunks) +
          (d != 0 || rng_.chance(0.5) ? ", " + std::to_string(d) : "") + ")";
  } else {
    name = fresh("unbind");
    rhs = "torch.ops.aten.unbind.int(" + input.name +
          (d != 0 || rng_.chance(0.5) ? ", " + std::to_string(d) : "") + ")";
  }
  emit(name, rhs);
  int64_t pieces = (n + pieceSize - 1) / pieceSize;
  bool any = false;
  for (int64_t i = 0; i < pieces; ++i) {
    if (!(rng_.chance(0.6) || (i + 1 == pieces && !any)))
      continue;
    any = true;
    std::string item = fresh("getitem");
    // Python also counts from the end: split[-1] is the last piece.
    emit(item, name + "[" + std::to_string(rng_.chance(0.2) ? i - pieces : i) + "]");
    Shape shape = input.sizes;
    std::optional<Layout> layout = input.layout;
    if (layout)
      layout->offset += i * pieceSize * layout->strides[d];
    if (how == 2) {
      shape.erase(shape.begin() + static_cast<ptrdiff_t>(d));
      if (layout)
        layout->strides.erase(layout->strides.begin() + static_cast<ptrdiff_t>(d));
    } else {
      shape[d] = std::min(pieceSize, n - i * pieceSize);
    }
    addView(*base, item, shape, layout);
  }
  return true;
}

bool Generator::genTensorIndex() {
  // Python's indexing of a tensor as FX prints it: x[1], x[-1], x[(slice(None, 3, None), 2)],
  // x[None], x[(Ellipsis, None)]. Ints, slices and None give a view.
  std::optional<size_t> base = pickRead();
  if (!base)
    return false;
  const Value input = values_[*base];
  size_t rank = input.sizes.size();
  std::vector<std::string> items;
  Shape shape;
  std::optional<Layout> layout;
  if (input.layout)
    layout = Layout{{}, input.layout->offset};
  bool inserted = false, dropped = false;
  size_t indexed = rng_.between(1, static_cast<int64_t>(rank)); // the leading dims indexed
  for (size_t d = 0; d < rank; ++d) {
    int64_t n = input.sizes[d];
    int64_t stride = input.layout ? input.layout->strides[d] : 0;
    if (d < indexed && rng_.chance(0.15) && shape.size() < 4) {
      items.push_back("None");
      shape.push_back(1);
      if (layout)
        layout->strides.push_back(1); // any stride: the generator does not predict it
      inserted = true;
    }
    if (d >= indexed) {
      shape.push_back(n);
      if (layout)
        layout->strides.push_back(stride);
      continue;
    }
    size_t kind = rng_.below(3);
    if (kind == 0 && (d + 1 < rank || !shape.empty())) { // an int drops the dim
      int64_t at = rng_.between(0, n - 1);
      items.push_back(std::to_string(rng_.chance(0.3) ? at - n : at));
      if (layout)
        layout->offset += at * stride;
      dropped = true;
      continue;
    }
    int64_t start = kind == 1 && n > 1 ? rng_.between(0, n - 1) : 0;
    int64_t stop = kind == 1 ? rng_.between(start + 1, n) : n;
    int64_t step = kind == 1 && rng_.chance(0.3) ? 2 : 1;
    auto bound = [](int64_t value, bool none) {
      return none ? std::string("None") : std::to_string(value);
    };
    items.push_back("slice(" + bound(start, start == 0) + ", " + bound(stop, stop == n) + ", " +
                    bound(step, step == 1) + ")");
    shape.push_back((stop - start + step - 1) / step);
    if (layout) {
      layout->offset += start * stride;
      layout->strides.push_back(stride * step);
    }
  }
  if (shape.empty())
    return false;
  (void)dropped;
  std::string index;
  if (items.size() == 1) {
    index = items[0];
  } else {
    index = "(";
    for (size_t i = 0; i < items.size(); ++i)
      index += (i ? ", " : "") + items[i];
    index += ")";
  }
  std::string name = fresh("getitem");
  emit(name, input.name + "[" + index + "]");
  size_t view = addView(*base, name, shape, layout);
  if (inserted)
    setExact(view, false);
  return true;
}

bool Generator::genSizeQuery() {
  // Sizes read from a tensor (sym_size, sym_numel, sym_stride, sym_storage_offset) and Python's
  // arithmetic on them, as arguments of views.
  std::optional<size_t> base =
      pick([&](size_t v) { return values_[v].layout.has_value() && !values_[v].sizes.empty(); },
           [&](size_t v) { return readWeight(v); });
  if (!base)
    return false;
  const Value input = values_[*base];
  size_t rank = input.sizes.size();
  size_t d = rng_.below(rank);
  std::string size = fresh("sym_size");
  emit(size, "torch.ops.aten.sym_size.int(" + input.name + ", " + dimText(d, rank) + ")");
  if (!contiguous(*base) || rng_.chance(0.3)) {
    // A 1-D window along dim d from the tensor's own offset: as_strided with its metadata.
    std::string stride = fresh("sym_stride");
    emit(stride, "torch.ops.aten.sym_stride.int(" + input.name + ", " + dimText(d, rank) + ")");
    std::string offset = fresh("sym_storage_offset");
    emit(offset, "torch.ops.aten.sym_storage_offset.default(" + input.name + ")");
    std::string name = fresh("as_strided");
    emit(name, "torch.ops.aten.as_strided.default(" + input.name + ", [" + size + "], [" + stride +
                   "], " + offset + ")");
    addView(*base, name, {input.sizes[d]},
            Layout{{input.layout->strides[d]}, input.layout->offset});
    return true;
  }
  // A contiguous tensor viewed as (size of dim d, the rest).
  int64_t rows = input.sizes[d];
  int64_t total = numel(input.sizes);
  std::string numelName = fresh("sym_numel");
  emit(numelName, "torch.ops.aten.sym_numel.default(" + input.name + ")");
  std::string rest = fresh("floordiv");
  emit(rest, numelName + " // " + size);
  std::string name = fresh("view");
  bool swapped = rng_.chance(0.3);
  Shape shape = swapped ? Shape{total / rows, rows} : Shape{rows, total / rows};
  emit(name, "torch.ops.aten.view.default(" + input.name + ", [" +
                 (swapped ? rest + ", " + size : size + ", " + rest) + "])");
  size_t view = addView(*base, name, shape, Layout{rowMajor(shape), input.layout->offset});
  setExact(view, canonical(*base));
  return true;
}

bool Generator::genAliasingOp() {
  // Ops whose schemas promise a fresh result while libtorch returns the input itself (or a view
  // of it): dropout when not training, type_as to the same dtype, one-tensor broadcast_tensors,
  // _unsafe_view, unsafe_split, one-operand einsum, ... Not of a tensor with a math bit: the
  // conjugate and negative fallbacks resolve it for most of these ops, giving a fresh copy.
  std::optional<size_t> base = pick([&](size_t v) { return !values_[v].conj && !values_[v].neg; },
                                    [&](size_t v) { return readWeight(v); });
  if (!base)
    return false;
  const Value input = values_[*base];
  size_t rank = input.sizes.size();
  std::string name;
  auto self = [&](const std::string& op, const std::string& rhs) {
    name = fresh(op);
    emit(name, rhs);
    addAlias(*base, name);
    return true;
  };
  switch (rng_.below(12)) {
  case 0: {
    static const char* const kOps[] = {"dropout", "feature_dropout", "alpha_dropout",
                                       "feature_alpha_dropout"};
    std::string op = kOps[rank >= 2 ? rng_.below(4) : rng_.below(2) * 2];
    bool zero = rng_.chance(0.3); // p = 0 in training returns the input too
    return self(op, "torch.ops.aten." + op + ".default(" + input.name + ", " +
                        (zero ? "0.0, True)" : "0.5, False)"));
  }
  case 1: {
    std::optional<size_t> other =
        pick([&](size_t v) { return values_[v].complex == input.complex; },
             [&](size_t v) { return readWeight(v); });
    return self("type_as",
                "torch.ops.aten.type_as.default(" + input.name + ", " + values_[*other].name + ")");
  }
  case 2: {
    name = fresh("broadcast_tensors");
    emit(name, "torch.ops.aten.broadcast_tensors.default([" + input.name + "])");
    std::string item = fresh("getitem");
    emit(item, name + "[" + (rng_.chance(0.3) ? "-1" : "0") + "]");
    addAlias(*base, item);
    return true;
  }
  case 3:
    return self("sum_to_size", "torch.ops.aten.sum_to_size.default(" + input.name + ", " +
                                   listText(input.sizes) + ")");
  case 4: {
    if (rank == 2 && rng_.chance(0.5)) { // a view with a trailing size-1 dim
      name = fresh("atleast_3d");
      emit(name, "torch.ops.aten.atleast_3d.default(" + input.name + ")");
      Shape shape = input.sizes;
      shape.push_back(1);
      std::optional<Layout> layout = input.layout;
      if (layout)
        layout->strides.push_back(1);
      size_t view = addView(*base, name, shape, layout);
      setExact(view, false);
      return true;
    }
    std::string op = rank >= 3 && rng_.chance(0.5)   ? "atleast_3d"
                     : rank >= 2 && rng_.chance(0.5) ? "atleast_2d"
                                                     : "atleast_1d";
    return self(op, "torch.ops.aten." + op + ".default(" + input.name + ")");
  }
  case 5: {
    if (input.complex)
      return false;
    static const char* const kOps[] = {"_cast_Float", "lift", "conj_physical", "to_dense"};
    std::string op = kOps[rng_.below(4)];
    return self(op, "torch.ops.aten." + op + ".default(" + input.name + ")");
  }
  case 6: {
    if (input.conj || input.neg)
      return false;
    std::string op = rng_.chance(0.5) ? "resolve_conj" : "resolve_neg";
    return self(op, "torch.ops.aten." + op + ".default(" + input.name + ")");
  }
  case 7: { // _unsafe_view: a view of a contiguous tensor
    if (!contiguous(*base))
      return false;
    Shape shape{numel(input.sizes)};
    if (shape[0] % 2 == 0 && shape[0] > 2 && rng_.chance(0.5))
      shape = {2, shape[0] / 2};
    name = fresh("_unsafe_view");
    emit(name, "torch.ops.aten._unsafe_view.default(" + input.name + ", " + listText(shape) + ")");
    size_t view = addView(*base, name, shape, Layout{rowMajor(shape), input.layout->offset});
    setExact(view, canonical(*base));
    return true;
  }
  case 8: { // one-operand einsum: a permutation of the dims, a view
    if (rank < 1 || rank > 3)
      return false;
    std::string letters = std::string("ijk").substr(0, rank);
    std::string outLetters = letters;
    if (rank >= 2 && rng_.chance(0.6))
      std::swap(outLetters[0], outLetters[1]);
    name = fresh("einsum");
    emit(name, "torch.ops.aten.einsum.default('" + letters + "->" + outLetters + "', [" +
                   input.name + "])");
    Shape shape = input.sizes;
    std::optional<Layout> layout = input.layout;
    if (outLetters != letters) {
      std::swap(shape[0], shape[1]);
      if (layout)
        std::swap(layout->strides[0], layout->strides[1]);
    }
    addView(*base, name, shape, layout);
    return true;
  }
  case 9: { // cartesian_prod of one vector is the vector itself, meshgrid's element a view of it
    if (rank != 1)
      return false;
    if (rng_.chance(0.5))
      return self("cartesian_prod", "torch.ops.aten.cartesian_prod.default([" + input.name + "])");
    name = fresh("meshgrid");
    emit(name, "torch.ops.aten.meshgrid.indexing([" + input.name + "], indexing = 'ij')");
    std::string item = fresh("getitem");
    emit(item, name + "[0]");
    addView(*base, item, input.sizes, input.layout);
    return true;
  }
  default:
    return genSplit(/*unsafe=*/true);
  }
}

bool Generator::genMathBit() {
  // The conjugate and negative bits: _conj (complex only) and _neg_view set them on a view;
  // clones resolve them; view_as_real refuses a conjugated tensor.
  std::optional<size_t> base = pickRead();
  if (!base)
    return false;
  const Value input = values_[*base];
  std::string name;
  size_t kind = rng_.below(5);
  if (kind <= 1 && input.complex) {
    std::string op = kind == 0 ? "_conj" : "conj";
    name = fresh(op);
    emit(name, "torch.ops.aten." + op + ".default(" + input.name + ")");
    size_t view = addView(*base, name, input.sizes, input.layout);
    values_[view].conj = !input.conj;
    return true;
  }
  if (kind == 2 && input.complex && !input.conj) {
    name = fresh("view_as_real");
    emit(name, "torch.ops.aten.view_as_real.default(" + input.name + ")");
    Shape shape = input.sizes;
    shape.push_back(2);
    std::optional<Layout> layout;
    if (input.layout) {
      layout = Layout{{}, input.layout->offset * 2};
      for (int64_t stride : input.layout->strides)
        layout->strides.push_back(stride * 2);
      layout->strides.push_back(1);
    }
    size_t view = addView(*base, name, shape, layout);
    values_[view].complex = false;
    return true;
  }
  if (kind == 3 && (input.conj || input.neg)) {
    std::string op =
        input.conj && (!input.neg || rng_.chance(0.5)) ? "resolve_conj" : "resolve_neg";
    name = fresh(op);
    emit(name, "torch.ops.aten." + op + ".default(" + input.name + ")");
    Value value = freshValue(name, input.sizes, false, input.complex);
    value.conj = op == "resolve_neg" && input.conj;
    value.neg = op == "resolve_conj" && input.neg;
    addValue(std::move(value));
    return true;
  }
  name = fresh("_neg_view");
  emit(name, "torch.ops.aten._neg_view.default(" + input.name + ")");
  size_t view = addView(*base, name, input.sizes, input.layout);
  values_[view].neg = !input.neg;
  return true;
}

} // namespace declone::fuzz::detail
