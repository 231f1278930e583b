// The random-graph generator's defunctionalization family: auto_functionalized and
// auto_functionalized_v2 calls of vLLM's _C ops built to test both ways of DESIGN.md section
// 4b's rules. What each call writes is an intermediate that only the call's results stand for
// afterwards (the copy can go), or something the copy protects: read, written or returned again
// (directly or through a view), a graph input or module state (donated or not, written back with
// `copy_(argN, getitem)` as AOTAutograd does, or not, read before the write-back), passed to the
// same call again, a view of something else. Calls chain on each other's results, results are
// taken by several getitems, returned (twice, beside their argument). v2 calls describe their
// views by `_x_base_index` and view replay, several of them on one base, as torch 2.13 prints
// them (write_view_information_to_args); `_only_clone_these_*` appear as reinplacing leaves them.
#include "Generator.h"
#include "StridedCopy.h"

namespace declone::fuzz::detail {
namespace {

/// A custom op as the family calls it: its parameters in schema order.
struct FunctionalOp {
  enum class Kind { Written, OptionalWritten, Read, NoneRead, Literal };
  struct Param {
    const char* name;
    Kind kind;
    const char* literal = "";
  };
  const char* name;
  std::vector<Param> params;
  /// The op returns a new tensor (getitem 0 of the call); otherwise element 0 is None.
  bool returnsTensor = false;
};

/// What a call writes through one parameter.
struct WrittenTarget {
  std::string param;
  std::optional<size_t> value; ///< v1: the argument; v2: the base; none: the argument is None
  std::string kwargs;          ///< v2: `_x_base_index = i` and the view replay
  Shape sizes;                 ///< the sizes of the tensor op gets
};

using Kind = FunctionalOp::Kind;

const std::vector<FunctionalOp>& functionalOps() {
  // Schemas as lib/schema/supplement.schemas gives them; the stand-in kernels
  // (lib/runtime/StandInKernels.cpp) write every written argument and read the others.
  static const std::vector<FunctionalOp> ops = {
      {"rms_norm",
       {{"result", Kind::Written},
        {"input", Kind::Read},
        {"weight", Kind::Read},
        {"epsilon", Kind::Literal, "1e-06"}}},
      {"silu_and_mul", {{"out", Kind::Written}, {"input", Kind::Read}}},
      {"fused_add_rms_norm",
       {{"input", Kind::Written},
        {"residual", Kind::Written},
        {"weight", Kind::Read},
        {"epsilon", Kind::Literal, "1e-06"}}},
      {"dynamic_scaled_fp8_quant",
       {{"result", Kind::Written}, {"input", Kind::Read}, {"scale", Kind::Written}}},
      {"rotary_embedding",
       {{"positions", Kind::Read},
        {"query", Kind::Written},
        {"key", Kind::OptionalWritten},
        {"head_size", Kind::Literal, "2"},
        {"cos_sin_cache", Kind::Read},
        {"is_neox", Kind::Literal, "True"}}},
      {"hadacore_transform", {{"x", Kind::Written}, {"inplace", Kind::Literal, "False"}}, true},
      {"rms_norm_dynamic_per_token_quant",
       {{"result", Kind::Written},
        {"input", Kind::Read},
        {"weight", Kind::Read},
        {"scale", Kind::Written},
        {"epsilon", Kind::Literal, "1e-06"},
        {"scale_ub", Kind::NoneRead},
        {"residual", Kind::OptionalWritten}}},
  };
  return ops;
}

/// A tuple as PyTorch prints torch.Size and stride tuples: `(5,)`, `(2, 8)`.
std::string tupleText(const Shape& values) {
  std::string text = "(";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + (values.size() == 1 ? ",)" : ")");
}

} // namespace

std::optional<size_t> Generator::functionalView(size_t base) {
  // Views the written argument may be (case v: a view of something else).
  const Value input = values_[base];
  size_t rank = input.sizes.size();
  if (rank == 0)
    return std::nullopt;
  size_t d = rng_.below(rank);
  int64_t n = input.sizes[d];
  switch (rng_.below(3)) {
  case 0: { // slice
    int64_t start = n > 1 && rng_.chance(0.6) ? rng_.between(1, n - 1) : 0;
    int64_t end = rng_.between(start + 1, n);
    std::string name = fresh("slice");
    emit(name, "torch.ops.aten.slice.Tensor(" + input.name + ", " + dimText(d, rank) + ", " +
                   std::to_string(start) + ", " + std::to_string(end) + ")");
    Shape shape = input.sizes;
    shape[d] = end - start;
    std::optional<Layout> layout = input.layout;
    if (layout)
      layout->offset += start * layout->strides[d];
    return addView(base, name, shape, layout);
  }
  case 1: { // select
    if (rank < 2)
      return std::nullopt;
    int64_t index = rng_.between(0, n - 1);
    std::string name = fresh("select");
    emit(name, "torch.ops.aten.select.int(" + input.name + ", " + dimText(d, rank) + ", " +
                   std::to_string(index) + ")");
    Shape shape = input.sizes;
    shape.erase(shape.begin() + static_cast<ptrdiff_t>(d));
    std::optional<Layout> layout = input.layout;
    if (layout) {
      layout->offset += index * layout->strides[d];
      layout->strides.erase(layout->strides.begin() + static_cast<ptrdiff_t>(d));
    }
    return addView(base, name, shape, layout);
  }
  default: { // transpose
    if (rank < 2)
      return std::nullopt;
    size_t e = (d + 1) % rank;
    std::string name = fresh("transpose");
    emit(name, "torch.ops.aten.transpose.int(" + input.name + ", " + dimText(d, rank) + ", " +
                   dimText(e, rank) + ")");
    Shape shape = input.sizes;
    std::swap(shape[d], shape[e]);
    std::optional<Layout> layout = input.layout;
    if (layout)
      std::swap(layout->strides[d], layout->strides[e]);
    return addView(base, name, shape, layout);
  }
  }
}

std::optional<size_t> Generator::pickFunctionalTarget(bool allowView) {
  // The stand-in kernels read and write raw memory: real, non-overlapping tensors without the
  // negative bit.
  auto fits = [&](size_t v) {
    const Value& value = values_[v];
    return !value.complex && !value.overlapping && !value.neg && !value.conj;
  };
  size_t kind = rng_.below(100);
  if (kind < 30) // something the graph already has
    return pick(fits, [&](size_t v) { return writeWeight(v); });
  if (kind < 65) { // a new intermediate
    std::optional<size_t> source = pick(fits, [&](size_t v) { return readWeight(v); });
    if (!source)
      return std::nullopt;
    size_t how = rng_.below(3);
    if (how == 0 && genClone(source))
      return values_.size() - 1;
    if (how == 1) {
      // torch.empty like vLLM's `result = torch.empty_like(input)`: the caller's write-only
      // parameters take it whole, others read it only where the copy's contents do not count.
      std::string name = fresh("empty");
      emit(name, "torch.ops.aten.empty.memory_format(" + listText(values_[*source].sizes) +
                     ", dtype = torch.float32, device = device(type='cpu'), pin_memory = False)");
      return addValue(freshValue(name, values_[*source].sizes, true));
    }
    std::string name = fresh("neg");
    emit(name, "torch.ops.aten.neg.default(" + values_[*source].name + ")");
    return addValue(freshValue(name, values_[*source].sizes, canonical(*source)));
  }
  if (kind < 78) { // a result of an earlier call: a chain
    std::vector<size_t> live;
    for (size_t v : functionalResults_)
      if (!values_[v].retired && fits(v))
        live.push_back(v);
    if (!live.empty())
      return live[rng_.below(live.size())];
    return pick(fits, [&](size_t v) { return writeWeight(v); });
  }
  if (kind < 88 || !allowView) // a graph input or module state
    return pick([&](size_t v) { return values_[v].placeholder && fits(v); },
                [](size_t) { return 1u; });
  std::optional<size_t> base = pick(fits, [&](size_t v) { return writeWeight(v); });
  return base ? functionalView(*base) : std::nullopt;
}

void Generator::afterFunctionalCall(size_t target, std::optional<size_t> result) {
  size_t storage = values_[target].storage;
  size_t what = rng_.below(100);
  if (what < 55) {
    // Case i: from now on only the call's results stand for what it wrote. A result that is the
    // argument itself (reinplacing left it out of the copies) keeps it alive.
    if (result && values_[*result].storage == storage)
      return;
    for (Value& value : values_)
      if (value.storage == storage)
        value.retired = true;
    return;
  }
  if (what >= 80)
    return; // the later statements may or may not touch it
  // Case ii: the storage is read, written or returned right after the call.
  switch (rng_.below(4)) {
  case 0: {
    std::string name = fresh("add");
    emit(name, "torch.ops.aten.add.Tensor(" + values_[target].name + ", 1)");
    addValue(freshValue(name, values_[target].sizes, canonical(target)));
    break;
  }
  case 1: {
    // Through another name of the storage (a view taken before the call), if it has one.
    std::optional<size_t> alias =
        pick([&](size_t v) { return values_[v].storage == storage && !values_[v].complex; },
             [&](size_t v) { return v == target ? 1u : 4u; });
    if (!alias)
      return;
    std::string name = fresh("sin");
    emit(name, "torch.ops.aten.sin.default(" + values_[*alias].name + ")");
    addValue(freshValue(name, values_[*alias].sizes, canonical(*alias)));
    break;
  }
  case 2: {
    if (values_[target].overlapping)
      return;
    std::string name = fresh("mul_");
    emit(name, "torch.ops.aten.mul_.Tensor(" + values_[target].name + ", 2)");
    writes_.push_back(addAlias(target, name));
    break;
  }
  default:
    forcedOutputs_.push_back(target);
    break;
  }
}

bool Generator::genDefunctionalizationCase() {
  const std::vector<FunctionalOp>& ops = functionalOps();
  const FunctionalOp& op = ops[rng_.below(ops.size())];
  bool v2 = rng_.chance(0.4);
  std::vector<WrittenTarget> written;
  std::vector<size_t> bases; // v2's _all_bases
  for (const FunctionalOp::Param& param : op.params) {
    if (param.kind != Kind::Written && param.kind != Kind::OptionalWritten)
      continue;
    WrittenTarget target;
    target.param = param.name;
    std::string prefix = "_" + target.param;
    if (param.kind == Kind::OptionalWritten && rng_.chance(0.25)) {
      if (v2)
        target.kwargs = prefix + "_base_index = None";
      written.push_back(std::move(target));
      continue;
    }
    if (!v2) {
      // Case iv: once in a while the same tensor for two written parameters.
      if (!written.empty() && written.back().value && rng_.chance(0.08))
        target.value = written.back().value;
      else
        target.value = pickFunctionalTarget(true);
      if (!target.value)
        return false;
      target.sizes = values_[*target.value].sizes;
      written.push_back(std::move(target));
      continue;
    }
    // v2: a base (shared with an earlier parameter, or new), then which view of it op gets.
    size_t slot = bases.size();
    if (!bases.empty() && rng_.chance(0.4)) {
      slot = rng_.below(bases.size());
    } else {
      // A base that is a view, or a second copy of a base already listed, is not what PyTorch
      // makes, but a graph may say it: the pass must still be right.
      std::optional<size_t> base = !bases.empty() && rng_.chance(0.04)
                                       ? std::optional<size_t>(bases[rng_.below(bases.size())])
                                       : pickFunctionalTarget(rng_.chance(0.1));
      if (!base)
        return false;
      bases.push_back(*base);
    }
    size_t base = bases[slot];
    target.value = base;
    const Value b = values_[base];
    target.kwargs = prefix + "_base_index = " + std::to_string(slot);
    size_t rank = b.sizes.size();
    size_t view = rng_.below(100);
    target.sizes = b.sizes;
    if (view < 35 || rank == 0) {
      // op gets the base itself
    } else if (view < 45) {
      target.kwargs += ", " + prefix + "_alias = True";
      if (rng_.chance(0.25)) {
        std::string name = fresh("alias");
        emit(name, "torch.ops.aten.alias.default(" + b.name + ")");
        addView(base, name, b.sizes, b.layout);
      }
    } else if (view < 75 || !b.layout) {
      size_t d = rng_.below(rank);
      int64_t n = b.sizes[d];
      int64_t start = n > 1 && rng_.chance(0.6) ? rng_.between(0, n - 1) : 0;
      int64_t end = rng_.between(start + 1, n);
      target.kwargs += ", " + prefix + "_slice_dim = " + std::to_string(d) + ", " + prefix +
                       "_slice_start = " + std::to_string(start) + ", " + prefix +
                       "_slice_end = " + std::to_string(end);
      target.sizes[d] = end - start;
      if (rng_.chance(0.25)) {
        std::string name = fresh("slice");
        emit(name, "torch.ops.aten.slice.Tensor(" + b.name + ", " + std::to_string(d) + ", " +
                       std::to_string(start) + ", " + std::to_string(end) + ")");
        Shape shape = b.sizes;
        shape[d] = end - start;
        std::optional<Layout> layout = b.layout;
        if (layout)
          layout->offset += start * layout->strides[d];
        addView(base, name, shape, layout);
      }
    } else {
      // as_strided replay: a window of one dim, the dims swapped, or a flat run of a
      // contiguous base; the storage offset counts from the storage's start.
      Shape sizes = b.sizes, strides = b.layout->strides;
      int64_t offset = b.layout->offset;
      size_t d = rng_.below(rank);
      size_t how = rng_.below(3);
      if (how == 0 && rank >= 2) {
        std::swap(sizes[d], sizes[(d + 1) % rank]);
        std::swap(strides[d], strides[(d + 1) % rank]);
      } else if (how == 1 && contiguous(base) && numel(b.sizes) > 1) {
        int64_t total = numel(b.sizes);
        int64_t start = rng_.between(0, total - 1);
        sizes = {rng_.between(1, total - start)};
        strides = {1};
        offset += start;
      } else {
        int64_t start = rng_.between(0, sizes[d] - 1);
        sizes[d] = rng_.between(1, sizes[d] - start);
        offset += start * strides[d];
      }
      target.kwargs += ", " + prefix + "_size = " + tupleText(sizes) + ", " + prefix +
                       "_stride = " + tupleText(strides) + ", " + prefix +
                       "_storage_offset = " + std::to_string(offset);
      target.sizes = sizes;
      if (rng_.chance(0.25)) {
        std::string name = fresh("as_strided");
        emit(name, "torch.ops.aten.as_strided.default(" + b.name + ", " + listText(sizes) + ", " +
                       listText(strides) + ", " + std::to_string(offset) + ")");
        size_t index = addView(base, name, sizes, Layout{strides, offset});
        setExact(index, true);
      }
    }
    written.push_back(std::move(target));
  }

  // Read parameters: anything real; now and then (case iv) a tensor the call writes, or a view
  // of one, so that writing in place would change what op reads.
  auto readArgument = [&]() -> std::optional<size_t> {
    std::vector<size_t> writtenValues;
    for (const WrittenTarget& target : written)
      if (target.value)
        writtenValues.push_back(*target.value);
    if (!writtenValues.empty() && rng_.chance(0.12)) {
      size_t target = writtenValues[rng_.below(writtenValues.size())];
      if (rng_.chance(0.3))
        if (std::optional<size_t> view = functionalView(target))
          return view;
      return target;
    }
    // Otherwise apart from what the call writes: the overlap is drawn above, not by chance.
    return pick(
        [&](size_t v) {
          const Value& value = values_[v];
          return !value.complex && !value.neg && !value.overlapping &&
                 std::none_of(writtenValues.begin(), writtenValues.end(),
                              [&](size_t w) { return values_[w].storage == value.storage; });
        },
        [&](size_t v) { return readWeight(v); });
  };

  std::string name = fresh(v2 ? "auto_functionalized_v2" : "auto_functionalized");
  std::string rhs = std::string("torch.ops.higher_order.") +
                    (v2 ? "auto_functionalized_v2" : "auto_functionalized") + "(torch.ops._C." +
                    op.name + ".default";
  size_t nextWritten = 0;
  for (const FunctionalOp::Param& param : op.params) {
    std::string text;
    switch (param.kind) {
    case Kind::Written:
    case Kind::OptionalWritten: {
      const WrittenTarget& target = written[nextWritten++];
      if (v2)
        continue; // after the other arguments, as view replay
      text = target.value ? values_[*target.value].name : "None";
      break;
    }
    case Kind::Read: {
      std::optional<size_t> value = readArgument();
      if (!value)
        return false;
      text = values_[*value].name;
      break;
    }
    case Kind::NoneRead:
      text = "None";
      break;
    case Kind::Literal:
      text = param.literal;
      break;
    }
    rhs += ", " + std::string(param.name) + " = " + text;
  }
  // Reinplacing may leave arguments (v1) or bases (v2) out of the copies: op writes those in
  // place, and the call returns them as they are.
  std::vector<bool> copied(v2 ? bases.size() : written.size(), true);
  bool listed = rng_.chance(0.25);
  if (listed && rng_.chance(0.6))
    for (size_t i = 0; i < copied.size(); ++i)
      copied[i] = rng_.chance(0.5);
  if (v2) {
    for (const WrittenTarget& target : written)
      rhs += ", " + target.kwargs;
    rhs += ", _all_bases = [";
    for (size_t i = 0; i < bases.size(); ++i)
      rhs += (i ? ", " : "") + values_[bases[i]].name;
    rhs += "]";
  }
  if (listed) { // all of them, some, or none
    std::string only;
    for (size_t i = 0; i < copied.size(); ++i)
      if (copied[i])
        only +=
            (only.empty() ? "" : ", ") + (v2 ? std::to_string(i) : "'" + written[i].param + "'");
    rhs += std::string(v2 ? ", _only_clone_these_bases = [" : ", _only_clone_these_tensors = [") +
           only + "]";
  }
  emit(name, rhs + ")");

  // The results: (out, *copies), out None unless the op returns a tensor.
  std::vector<size_t> copiedFrom; // per result element after the first: what it copies
  for (const WrittenTarget& target : written)
    if (!v2)
      copiedFrom.push_back(target.value.value_or(SIZE_MAX));
  if (v2)
    copiedFrom = bases;
  int64_t count = static_cast<int64_t>(copiedFrom.size()) + 1;
  // PyTorch's v1 result holds None for a None argument; the executor's leaves it out
  // (ExecutorHigherOrder.cpp), so counting from the end differs there: not drawn for such calls.
  bool countFromEnd = std::find(copiedFrom.begin(), copiedFrom.end(), SIZE_MAX) == copiedFrom.end();
  auto getitem = [&](int64_t element) {
    std::string item = fresh("getitem");
    int64_t printed = countFromEnd && rng_.chance(0.05) ? element - count : element;
    emit(item, name + "[" + std::to_string(printed) + "]");
    return item;
  };
  if (op.returnsTensor && rng_.chance(0.6)) {
    // A new tensor like the op's first tensor argument (the stand-in's rule), contiguous.
    std::string item = getitem(0);
    addValue(freshValue(item, written.front().sizes, true));
  }
  for (size_t j = 0; j < copiedFrom.size(); ++j) {
    if (copiedFrom[j] == SIZE_MAX)
      continue; // None: no getitem in a real graph
    size_t source = copiedFrom[j];
    size_t items = rng_.below(100) < 15 ? 0 : rng_.chance(0.8) ? 1 : 2;
    std::optional<size_t> first;
    for (size_t k = 0; k < items; ++k) {
      std::string item = getitem(static_cast<int64_t>(j) + 1);
      if (first) { // several getitems of one element: the same tensor
        addAlias(*first, item);
        continue;
      }
      if (!copied[j]) {
        first = addAlias(source, item);
      } else {
        const Value& argument = values_[source];
        first =
            addValue(stridedCopy(argument, item, newStorage(storageExtent(argument)), impls_++));
      }
      // What the call wrote into a graph input, for the write-back at the end.
      const Value& argument = values_[source];
      std::optional<size_t> input = argument.inputVersionOf;
      if (source < parameters_.size())
        input = source;
      if (input && argument.sizes == values_[*input].sizes) {
        values_[*first].inputVersionOf = input;
        if (rng_.chance(0.6))
          writeBacks_[*input] = *first;
      }
      functionalResults_.push_back(*first);
    }
    if (first && rng_.chance(0.3)) {
      // Results returned: once, twice, or beside the tensor they copy.
      forcedOutputs_.push_back(*first);
      if (rng_.chance(0.3))
        forcedOutputs_.push_back(rng_.chance(0.5) ? *first : source);
    }
    if (std::find(copiedFrom.begin(), copiedFrom.begin() + static_cast<ptrdiff_t>(j), source) ==
        copiedFrom.begin() + static_cast<ptrdiff_t>(j))
      afterFunctionalCall(source, first);
  }
  return true;
}

std::string Generator::genWriteBacks() {
  // AOTAutograd's epilogue for mutated inputs: `copy_(argN, new value)` before the return.
  std::string text;
  for (auto [input, version] : writeBacks_) {
    const Value& destination = values_[input];
    const Value& source = values_[version];
    // In-place metadata ops may have changed either since.
    if (!broadcastsTo(source.sizes, destination.sizes) || source.complex != destination.complex ||
        destination.overlapping ||
        (source.storage == destination.storage &&
         (source.sizes != destination.sizes || !source.layout || !destination.layout ||
          source.layout->strides != destination.layout->strides ||
          source.layout->offset != destination.layout->offset)))
      continue;
    text += "        " + fresh("copy_") + " = torch.ops.aten.copy_.default(" + destination.name +
            ", " + source.name + ")\n";
    values_[input].used = values_[version].used = true;
  }
  return text;
}

} // namespace declone::fuzz::detail
