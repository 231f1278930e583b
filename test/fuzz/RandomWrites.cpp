// The random-graph generator's write families: in-place and copy_ writes, out= overloads,
// auto_functionalized (one and several returns), in-place metadata ops (t_, resize_, set_,
// ...) and writes their schemas do not declare (running statistics, rrelu's noise).
#include "Generator.h"
#include "StridedCopy.h"

namespace declone::fuzz::detail {

bool Generator::genInPlace() {
  std::optional<size_t> destination = pickWritable();
  if (!destination)
    return false;
  size_t kind = rng_.below(10);
  std::string op = kind < 4 ? "add_" : kind < 8 || values_[*destination].complex ? "mul_" : "relu_";
  std::string name = fresh(op);
  std::string rhs;
  const std::string& dst = values_[*destination].name;
  if (op == "relu_") {
    rhs = "torch.ops.aten.relu_.default(" + dst + ")";
  } else {
    std::optional<size_t> other;
    if (rng_.chance(0.05))
      other = destination; // full overlap is allowed: x.add_(x)
    else if (!rng_.chance(0.35))
      other = pickOperandFor(values_[*destination].sizes, *destination);
    rhs = "torch.ops.aten." + op + ".Tensor(" + dst + ", " +
          (other ? values_[*other].name : scalarText()) + ")";
  }
  emit(name, rhs);
  writes_.push_back(addAlias(*destination, name));
  return true;
}

bool Generator::genCopy() {
  std::optional<size_t> destination, source;
  if (rng_.chance(0.4)) {
    // Functionalization's copy-back: a clone, updated, is copied into what it was cloned from.
    source = pick(
        [&](size_t v) {
          if (!values_[v].cloneOf)
            return false;
          // In-place metadata ops (t_, set_) may have changed either since the clone.
          const Value& original = values_[*values_[v].cloneOf];
          return !original.overlapping && original.storage != values_[v].storage &&
                 broadcastsTo(values_[v].sizes, original.sizes) &&
                 (!values_[v].complex || original.complex);
        },
        [&](size_t v) { return writeWeight(v); });
    if (source)
      destination = values_[*source].cloneOf;
  }
  if (!destination)
    destination = pickWritable();
  if (!destination)
    return false;
  if (!source)
    source = pickOperandFor(values_[*destination].sizes, *destination);
  if (!source)
    return false;
  std::string name = fresh("copy_");
  emit(name, "torch.ops.aten.copy_.default(" + values_[*destination].name + ", " +
                 values_[*source].name + ")");
  writes_.push_back(addAlias(*destination, name));
  return true;
}

bool Generator::genOut() {
  std::optional<size_t> destination = pickWritable();
  if (!destination)
    return false;
  const Shape shape = values_[*destination].sizes;
  std::optional<size_t> a = pickOperandFor(shape, *destination);
  if (!a)
    return false;
  std::optional<size_t> b;
  if (!rng_.chance(0.15))
    b = pickOperandFor(shape, *destination);
  // Kernels with out= want the out tensor's dtype (neg.out does not promote to it).
  bool complex = values_[*destination].complex;
  if (values_[*a].complex != complex || (b && values_[*b].complex != complex))
    return false;
  Shape result = values_[*a].sizes;
  if (rng_.chance(0.4)) {
    // One-operand out= overloads, clone.out among them: the result is the out tensor, with its
    // layout and offset, whatever memory format the clone asks for.
    if (result != shape)
      return false;
    static const char* const kOps[] = {"clone", "clone", "neg", "sin", "relu"};
    std::string op = kOps[rng_.below(std::size(kOps))];
    if (op == "relu" && values_[*a].complex)
      op = "neg";
    std::string format;
    if (op == "clone" && rng_.chance(0.5))
      format = rng_.chance(0.5) ? ", memory_format = torch.contiguous_format"
                                : ", memory_format = torch.preserve_format";
    std::string name = fresh(op);
    emit(name, "torch.ops.aten." + op + ".out(" + values_[*a].name + format +
                   ", out = " + values_[*destination].name + ")");
    writes_.push_back(addAlias(*destination, name));
    return true;
  }
  if (b)
    result = *broadcastShape(result, values_[*b].sizes);
  if (result != shape) // out= would be resized: keep shapes exact
    return false;
  std::string op = rng_.chance(0.5) ? "add" : "mul";
  std::string name = fresh(op);
  emit(name, "torch.ops.aten." + op + ".out(" + values_[*a].name + ", " +
                 (b ? values_[*b].name : scalarText()) + ", out = " + values_[*destination].name +
                 ")");
  writes_.push_back(addAlias(*destination, name));
  return true;
}

bool Generator::genAutoFunctionalized() {
  // vLLM's custom ops, functionalized: the mutated arguments come back as fresh tensors. Their
  // kernels read raw memory from the data pointer, numel elements: an expanded argument would
  // be read past the end of its storage, so every tensor argument is non-overlapping.
  auto pickRealWritable = [&] {
    return pick([&](size_t v) { return !values_[v].overlapping && !values_[v].complex; },
                [&](size_t v) { return writeWeight(v); });
  };
  std::optional<size_t> input = pickRealWritable();
  std::optional<size_t> other = pickRealWritable();
  std::optional<size_t> weight = pickRealWritable();
  if (!input || !other || !weight)
    return false;
  std::string name = fresh("auto_functionalized");
  std::vector<size_t> mutated;
  std::string rhs = "torch.ops.higher_order.auto_functionalized(torch.ops._C.";
  switch (rng_.below(3)) {
  case 0:
    rhs += "rms_norm.default, result = " + values_[*other].name +
           ", input = " + values_[*input].name + ", weight = " + values_[*weight].name +
           ", epsilon = 1e-06)";
    mutated = {*other};
    break;
  case 1:
    rhs += "silu_and_mul.default, out = " + values_[*other].name +
           ", input = " + values_[*input].name + ")";
    mutated = {*other};
    break;
  default:
    rhs += "fused_add_rms_norm.default, input = " + values_[*input].name +
           ", residual = " + values_[*other].name + ", weight = " + values_[*weight].name +
           ", epsilon = 1e-06)";
    mutated = {*input, *other};
    break;
  }
  emit(name, rhs);
  for (size_t i = 0; i < mutated.size(); ++i) {
    if (!rng_.chance(0.8) && !(i + 1 == mutated.size() && i == 0))
      continue;
    std::string item = fresh("getitem");
    // (None, *mutated): Python also counts from the end.
    auto index = static_cast<int64_t>(i + 1);
    if (rng_.chance(0.25))
      index -= static_cast<int64_t>(mutated.size() + 1);
    emit(item, name + "[" + std::to_string(index) + "]");
    const Value& argument = values_[mutated[i]];
    Value copy = stridedCopy(argument, item, newStorage(storageExtent(argument)), impls_++);
    copy.overlapping = argument.overlapping;
    addValue(std::move(copy));
  }
  return true;
}

bool Generator::genFunctionalizedMultiReturn() {
  // auto_functionalized of an op with several returns gives (*outs, *mutated):
  // _fused_moving_avg_obs_fq_helper returns (output, mask) and mutates running_min,
  // running_max, scale and zero_point, so elements 2 to 5 are their copies, which keep the
  // arguments' offsets (clone_preserve_strides). The statistics are one-element slices of a
  // real rank-1 value, at its offsets.
  std::optional<size_t> self =
      pick([&](size_t v) { return !values_[v].complex && !values_[v].sizes.empty(); },
           [&](size_t v) { return readWeight(v); });
  auto pickVector = [&] {
    return pick(
        [&](size_t v) {
          return !values_[v].complex && !values_[v].overlapping && values_[v].sizes.size() == 1 &&
                 values_[v].layout;
        },
        [&](size_t v) { return writeWeight(v); });
  };
  std::optional<size_t> minBase = pickVector(), maxBase = pickVector();
  if (!self || !minBase || !maxBase)
    return false;
  // The op reads its arguments raw; the statistics must not overlap each other.
  int64_t minAt = rng_.below(static_cast<size_t>(values_[*minBase].sizes[0]));
  int64_t maxAt = rng_.below(static_cast<size_t>(values_[*maxBase].sizes[0]));
  if (values_[*minBase].storage == values_[*maxBase].storage)
    return false;
  std::vector<size_t> statistics;
  for (auto [base, at] : {std::pair{*minBase, minAt}, std::pair{*maxBase, maxAt}}) {
    std::string slice = fresh("slice");
    emit(slice, "torch.ops.aten.slice.Tensor(" + values_[base].name + ", 0, " + std::to_string(at) +
                    ", " + std::to_string(at + 1) + ")");
    Layout layout = *values_[base].layout;
    layout.offset += at * layout.strides[0];
    statistics.push_back(addView(base, slice, {1}, layout));
  }
  // The observer updates the statistics; fake quantisation stays off, as it needs min <= max,
  // which random statistics do not promise.
  std::string on = fresh("ones");
  emit(on, "torch.ops.aten.ones.default([1], dtype = torch.int64)");
  std::string off = fresh("zeros");
  emit(off, "torch.ops.aten.zeros.default([1], dtype = torch.int64)");
  std::string scale = fresh("ones");
  emit(scale, "torch.ops.aten.ones.default([1])");
  std::string zeroPoint = fresh("zeros");
  emit(zeroPoint, "torch.ops.aten.zeros.default([1], dtype = torch.int32)");
  std::string name = fresh("auto_functionalized");
  emit(name, "torch.ops.higher_order.auto_functionalized("
             "torch.ops.aten._fused_moving_avg_obs_fq_helper.default, self = " +
                 values_[*self].name + ", observer_on = " + on + ", fake_quant_on = " + off +
                 ", running_min = " + values_[statistics[0]].name +
                 ", running_max = " + values_[statistics[1]].name + ", scale = " + scale +
                 ", zero_point = " + zeroPoint +
                 ", averaging_const = 0.01, quant_min = 0, quant_max = 255, ch_axis = 0)");
  for (int64_t element = 0; element < 5; ++element) {
    if (!rng_.chance(element >= 2 ? 0.7 : 0.3))
      continue;
    std::string item = fresh("getitem");
    int64_t printed = rng_.chance(0.3) ? element - 6 : element;
    emit(item, name + "[" + std::to_string(printed) + "]");
    if (element == 1)
      continue; // the mask is bool: not a value the generator builds on
    Value copy;
    copy.name = item;
    copy.impl = impls_++;
    if (element == 0) {
      copy.sizes = values_[*self].sizes;
      copy.storage = newStorage(numel(copy.sizes));
    } else if (element == 4) {
      copy.sizes = {1};
      copy.layout = Layout{{1}, 0};
      copy.exact = true;
      copy.storage = newStorage(1);
    } else {
      const Value& argument = values_[statistics[element - 2]];
      copy.sizes = {1};
      copy.layout = argument.layout;
      // The copy has the argument's strides, as far as the model knows them: a size-1 dim's
      // stride is known only where the argument's is.
      copy.exact = argument.exact;
      copy.storage = newStorage(argument.layout->offset + 1);
    }
    addValue(std::move(copy));
  }
  return true;
}

bool Generator::genMetadataInPlace() {
  // In-place ops that change a tensor's sizes, strides, offset or storage: every name of the
  // tensor sees the change, views taken before keep theirs.
  std::optional<size_t> target = pickWritable();
  if (!target)
    return false;
  const Value input = values_[*target];
  const Shape& sizes = input.sizes;
  size_t rank = sizes.size();
  const std::optional<Layout>& layout = input.layout;
  std::string op, args;
  Shape shape = sizes;
  std::optional<Layout> result = layout;
  bool exact = input.exact;
  switch (rng_.below(8)) {
  case 0: { // t_ / transpose_ / swapaxes_
    if (rank < 2)
      return false;
    size_t a = rng_.below(rank), b = rng_.below(rank);
    if (a == b)
      b = (a + 1) % rank;
    if (rank == 2 && rng_.chance(0.4)) {
      op = "t_";
      a = 0;
      b = 1;
    } else {
      op = rng_.chance(0.7) ? "transpose_" : rng_.chance(0.5) ? "swapaxes_" : "swapdims_";
      args = ", " + dimText(a, rank) + ", " + dimText(b, rank);
    }
    std::swap(shape[a], shape[b]);
    if (result)
      std::swap(result->strides[a], result->strides[b]);
    break;
  }
  case 1: { // unsqueeze_
    if (rank >= 4)
      return false;
    size_t d = rng_.below(rank + 1);
    op = "unsqueeze_";
    args = ", " + dimText(d, rank + 1);
    shape.insert(shape.begin() + static_cast<ptrdiff_t>(d), 1);
    if (result) {
      int64_t stride = d >= rank ? 1 : sizes[d] * layout->strides[d];
      result->strides.insert(result->strides.begin() + static_cast<ptrdiff_t>(d), stride);
    }
    break;
  }
  case 2: { // squeeze_.dim of a size-1 dim (or of another: a no-op)
    // libtorch 1.13 runs squeeze_.dim of a tensor with the conjugate or negative bit through the
    // math-bit fallback, which resizes it to contiguous strides (and rewrites its storage).
    if (rank < 2 || input.conj || input.neg)
      return false;
    size_t d = rng_.below(rank);
    op = "squeeze_";
    args = ", " + dimText(d, rank);
    if (sizes[d] == 1) {
      shape.erase(shape.begin() + static_cast<ptrdiff_t>(d));
      if (result)
        result->strides.erase(result->strides.begin() + static_cast<ptrdiff_t>(d));
    }
    break;
  }
  case 3:
  case 4: { // resize_ to at most as many elements: the storage holds them, no new memory
    if (input.overlapping || !layout)
      return false;
    int64_t total = numel(sizes);
    if (rng_.chance(0.3)) {
      shape = sizes; // same sizes: a no-op that keeps the strides
    } else {
      int64_t count = rng_.between(1, total);
      shape = count % 2 == 0 && count > 2 && rng_.chance(0.5) ? Shape{2, count / 2} : Shape{count};
      if (shape != sizes) { // the same sizes keep the strides
        result = Layout{rowMajor(shape), layout->offset};
        exact = true;
      }
    }
    op = "resize_";
    args = ", " + listText(shape);
    // resize_as_ is resize_ to another tensor's sizes (the strides of the same sizes kept too).
    if (std::optional<size_t> like =
            pick([&](size_t v) { return values_[v].sizes == shape && v != *target; },
                 [](size_t) { return 1.0; });
        like && rng_.chance(0.5)) {
      op = "resize_as_";
      args = ", " + values_[*like].name;
    }
    break;
  }
  case 5: { // as_strided_, inside a storage the graph allocated
    std::optional<int64_t> elements = storages_[input.storage].elements;
    if (!elements || *elements < 2 || storages_[input.storage].complex != input.complex)
      return false;
    int64_t offset = rng_.between(0, *elements - 1);
    int64_t room = *elements - offset;
    int64_t inner = rng_.between(1, std::min<int64_t>(room, 4));
    shape = {inner};
    result = Layout{{1}, offset};
    if (room >= 2 * inner && rng_.chance(0.5)) {
      int64_t rows = rng_.between(1, std::min<int64_t>(3, room / inner));
      shape = {rows, inner};
      result = Layout{{inner, 1}, offset};
    }
    exact = true;
    op = "as_strided_";
    args =
        ", " + listText(shape) + ", " + listText(result->strides) + ", " + std::to_string(offset);
    break;
  }
  default: { // set_: the tensor becomes a view of the source (sizes, strides, offset, storage)
    std::optional<size_t> source =
        pick([&](size_t v) { return values_[v].complex == input.complex && v != *target; },
             [&](size_t v) { return readWeight(v); });
    if (!source)
      return false;
    const Value from = values_[*source];
    std::string name = fresh("set_");
    emit(name, "torch.ops.aten.set_.source_Tensor(" + input.name + ", " + from.name + ")");
    for (Value& value : values_) {
      if (value.impl != input.impl)
        continue;
      value.sizes = from.sizes;
      value.layout = from.layout;
      value.exact = from.exact;
      value.storage = from.storage;
      value.overlapping = from.overlapping;
      value.cloneRoot = from.cloneRoot;
      value.viewOfClone = from.cloneRoot.has_value();
    }
    writes_.push_back(addAlias(*target, name));
    return true;
  }
  }
  std::string name = fresh(op);
  std::string overload = op == "squeeze_" ? "dim" : "default";
  emit(name, "torch.ops.aten." + op + "." + overload + "(" + input.name + args + ")");
  relayout(*target, shape, result, exact);
  writes_.push_back(addAlias(*target, name));
  return true;
}

bool Generator::genUndeclaredWrite() {
  // Ops that write arguments their schemas declare read-only: batch norm's running statistics
  // (in training), rrelu_with_noise_'s noise (in training).
  std::optional<size_t> input =
      pick([&](size_t v) { return !values_[v].complex && values_[v].sizes.size() >= 2; },
           [&](size_t v) { return readWeight(v); });
  if (!input)
    return false;
  const Value x = values_[*input];
  bool training = rng_.chance(0.7);
  size_t kind = rng_.below(4);
  if (kind == 3) { // rrelu_with_noise_(self, noise, lower, upper, training)
    // libtorch 2.x declares noise written too; its math-bit fallback then fails an internal
    // assertion for an op with two written arguments: neither may carry the negative bit.
    std::optional<size_t> noise = pick(
        [&](size_t v) {
          return !values_[v].complex && !values_[v].overlapping && !values_[v].neg &&
                 values_[v].sizes == x.sizes && values_[v].storage != x.storage;
        },
        [&](size_t v) { return writeWeight(v); });
    if (x.overlapping || x.neg || !noise)
      return false;
    std::string name = fresh("rrelu_with_noise_");
    emit(name, "torch.ops.aten.rrelu_with_noise_.default(" + x.name + ", " + values_[*noise].name +
                   ", 0.125, 0.3333333333333333, " + (training ? "True" : "False") + ")");
    writes_.push_back(addAlias(*input, name));
    return true;
  }
  // Running statistics: one per channel (dim 1), apart from the input and from each other.
  int64_t channels = x.sizes[1];
  auto pickStatistic = [&](std::optional<size_t> other) {
    return pick(
        [&](size_t v) {
          return !values_[v].complex && !values_[v].overlapping &&
                 values_[v].sizes == Shape{channels} && values_[v].storage != x.storage &&
                 (!other || values_[v].storage != values_[*other].storage);
        },
        [&](size_t v) { return writeWeight(v); });
  };
  std::optional<size_t> mean = pickStatistic(std::nullopt);
  if (!mean)
    return false;
  std::optional<size_t> var = pickStatistic(mean);
  std::string varText = var ? values_[*var].name : "None";
  std::string name;
  Shape resultSizes = x.sizes;
  size_t results = 3;
  if (kind == 0) {
    if (!var)
      return false;
    name = fresh("native_batch_norm");
    emit(name, "torch.ops.aten.native_batch_norm.default(" + x.name + ", None, None, " +
                   values_[*mean].name + ", " + varText + ", " + (training ? "True" : "False") +
                   ", 0.1, 1e-05)");
  } else if (kind == 1) {
    name = fresh("batch_norm_update_stats");
    emit(name, "torch.ops.aten.batch_norm_update_stats.default(" + x.name + ", " +
                   values_[*mean].name + ", " + varText + ", 0.1)");
    resultSizes = {channels};
    results = 2;
  } else {
    if (!var)
      return false;
    name = fresh("instance_norm");
    emit(name, "torch.ops.aten.instance_norm.default(" + x.name + ", None, None, " +
                   values_[*mean].name + ", " + varText + ", " + (training ? "True" : "False") +
                   ", 0.1, 1e-05, False)");
    addValue(freshValue(name, x.sizes, false));
    return true;
  }
  // The normalised input (or the batch mean): fresh, in a layout the kernel picks.
  std::string item = fresh("getitem");
  int64_t index = rng_.chance(0.2) ? -static_cast<int64_t>(results) : 0;
  emit(item, name + "[" + std::to_string(index) + "]");
  addValue(freshValue(item, resultSizes, false));
  return true;
}

} // namespace declone::fuzz::detail
