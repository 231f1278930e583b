// Comparing two graphs on the same inputs, and annotating a graph from an execution.
#include "Execution.h"
#include "declone/runtime/Executor.h"
#include "declone/support/Bytes.h"

#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

namespace declone::runtime {
namespace {

using detail::Inputs;

std::string tuple(c10::IntArrayRef values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out += ", ";
    out += std::to_string(values[i]);
  }
  if (values.size() == 1)
    out += ',';
  return out + ")";
}

const void* storageOf(const c10::IValue& value) {
  if (!value.isTensor() || !value.toTensor().defined() || !value.toTensor().has_storage())
    return nullptr;
  return value.toTensor().storage().unsafeGetStorageImpl();
}

/// Empty when the dtype, sizes, strides, storage offset and conjugate and negative bits of two
/// tensors are equal, else `LABEL: what (after) != (before)`.
std::string compareMetadata(const std::string& label, const at::Tensor& a, const at::Tensor& b) {
  if (a.scalar_type() != b.scalar_type())
    return label + ": dtype " + std::string(c10::toString(a.scalar_type())) +
           " != " + std::string(c10::toString(b.scalar_type()));
  if (a.sizes() != b.sizes())
    return label + ": size " + tuple(a.sizes()) + " != " + tuple(b.sizes());
  if (a.strides() != b.strides())
    return label + ": stride " + tuple(a.strides()) + " != " + tuple(b.strides());
  if (a.storage_offset() != b.storage_offset())
    return label + ": storage offset " + std::to_string(a.storage_offset()) +
           " != " + std::to_string(b.storage_offset());
  // A clone resolves the conjugate and negative bits; kernels that read the data raw (custom
  // ops, view_as_real, which refuses a conjugate view) see the difference.
  auto bit = [](bool value) { return value ? std::string("true") : std::string("false"); };
  if (a.is_conj() != b.is_conj())
    return label + ": conj bit " + bit(a.is_conj()) + " != " + bit(b.is_conj());
  if (a.is_neg() != b.is_neg())
    return label + ": neg bit " + bit(a.is_neg()) + " != " + bit(b.is_neg());
  return {};
}

/// The first element (flat index) where one tensor holds 0 and the other -0, or empty; for
/// complex numbers in either part.
std::string signedZeroDifference(const std::string& label, const at::Tensor& a,
                                 const at::Tensor& b) {
  bool complex = at::isComplexType(a.scalar_type());
  at::Tensor x = a.resolve_conj().resolve_neg(), y = b.resolve_conj().resolve_neg();
  if (complex) {
    x = at::view_as_real(x);
    y = at::view_as_real(y);
  }
  // Double holds every value of the narrower types, the sign of zero included.
  x = x.to(at::kDouble).reshape({-1});
  y = y.to(at::kDouble).reshape({-1});
  at::Tensor differ = at::eq(x, 0) & at::eq(y, 0) & at::ne(at::signbit(x), at::signbit(y));
  at::Tensor where = at::nonzero(differ);
  if (where.size(0) == 0)
    return {};
  int64_t flat = where[0][0].item<int64_t>();
  auto zero = [&](const at::Tensor& values) {
    return at::signbit(values[flat]).item<bool>() ? std::string("-0") : std::string("0");
  };
  std::string part = !complex ? "" : flat % 2 ? " in the imaginary part" : " in the real part";
  return label + ": values differ (" + zero(x) + " != " + zero(y) + part + " at flat index " +
         std::to_string(complex ? flat / 2 : flat) + ")";
}

/// Empty when equal, else `LABEL: what (after) != (before)`. With `compared`, a bool tensor of
/// their sizes, only the elements it marks are compared by value.
std::string compareValues(const std::string& label, const c10::IValue& after,
                          const c10::IValue& before, const at::Tensor& compared = {}) {
  if (after.isTensor() != before.isTensor())
    return label + ": a tensor on one side only";
  if (!after.isTensor()) {
    if (after.isInt() && before.isInt() && after.toInt() != before.toInt())
      return label + ": " + std::to_string(after.toInt()) + " != " + std::to_string(before.toInt());
    return {};
  }
  at::Tensor a = after.toTensor();
  at::Tensor b = before.toTensor();
  if (a.layout() != b.layout()) {
    std::ostringstream out;
    out << label << ": layout " << a.layout() << " != " << b.layout();
    return out.str();
  }
  if (a.layout() != at::kStrided && a.sizes() == b.sizes()) {
    // A sparse tensor has no strides or offset of its own: its values are compared dense.
    a = a.to_dense();
    b = b.to_dense();
  }
  if (std::string difference = compareMetadata(label, a, b); !difference.empty())
    return difference;
  if (compared.defined()) {
    // The others become equal zeros (the bits were compared above).
    a = a.resolve_conj().resolve_neg().masked_fill(compared.logical_not(), 0);
    b = b.resolve_conj().resolve_neg().masked_fill(compared.logical_not(), 0);
  }
  bool same;
  bool floating = at::isFloatingType(a.scalar_type()) || at::isComplexType(a.scalar_type());
  if (floating) {
    // Removing a clone changes no arithmetic, so the values should be bitwise equal; the
    // tolerance only absorbs kernels that pick a different path for a different layout. A NaN
    // equals any NaN (kernels do not promise a payload); 0 and -0 are told apart below, since
    // signbit and 1/x tell them apart.
    double tolerance = a.scalar_type() == at::kDouble  ? 1e-12
                       : a.scalar_type() == at::kFloat ? 1e-5
                                                       : 1e-2;
    same = at::allclose(a, b, tolerance, tolerance, /*equal_nan=*/true);
  } else {
    same = at::equal(a, b);
  }
  if (same)
    return floating ? signedZeroDifference(label, a, b) : std::string();
  std::ostringstream out;
  // Complex values differ by the modulus of their difference (casting them to double would drop
  // the imaginary part).
  at::ScalarType wide = at::isComplexType(a.scalar_type()) ? at::kComplexDouble : at::kDouble;
  at::Tensor difference = (a.to(wide) - b.to(wide)).abs().nan_to_num(1e300);
  int64_t flat = difference.numel() ? difference.reshape({-1}).argmax().item<int64_t>() : 0;
  out << label << ": values differ (largest difference "
      << (difference.numel() ? difference.reshape({-1})[flat].item<double>() : 0.0)
      << " at flat index " << flat << ")";
  return out.str();
}

/// A value of the rewrite and of the original, from runs with the zero fill and, when either
/// graph leaves memory uninitialized, with the ones fill too.
struct Runs {
  const c10::IValue& zeros;
  const c10::IValue* ones = nullptr;
};

/// `empty, empty_1`: the allocations whose memory a value may hold.
std::string describe(const detail::UninitializedSources& sources) {
  std::string out;
  for (const Node* node : sources.nodes)
    out += (out.empty() ? "" : ", ") + std::string(node->name());
  return sources.more ? out + " and others" : out;
}

/// Names the allocations whose memory the values of one graph the caller sees may hold.
class SourceNames {
public:
  SourceNames(const Graph& graph, const GraphModule* module)
      : graph_(graph), allocations_(detail::uninitializedAllocations(graph, module)) {}

  [[nodiscard]] bool any() const { return !allocations_.empty(); }
  /// Output `index`, as the executor flattens the output.
  [[nodiscard]] std::string output(size_t index) {
    const Node* output = graph_.output();
    if (!output || output->args().empty())
      return of(nullptr);
    const Arg& returned = output->args()[0];
    const Arg* element = &returned;
    if (returned.kind == ArgKind::Tuple || returned.kind == ArgKind::List)
      element = index < returned.children().size() ? &returned.children()[index] : nullptr;
    return of(element && element->isNode() ? element->node() : nullptr);
  }
  [[nodiscard]] std::string input(size_t index) {
    std::vector<Node*> placeholders = graph_.placeholders();
    return of(index < placeholders.size() ? placeholders[index] : nullptr);
  }
  [[nodiscard]] std::string attribute(std::string_view path) {
    for (const Node* node : graph_)
      if (node->kind() == Node::Kind::GetAttr && node->attribute() == path)
        return of(node);
    return of(nullptr);
  }

private:
  /// What the analysis finds for `value`, or else every allocation (a flow it misses).
  std::string of(const Node* value) {
    if (!sources_)
      sources_ = detail::uninitializedSources(graph_, allocations_);
    if (value && value->order() < sources_->size() && !(*sources_)[value->order()].nodes.empty())
      return describe((*sources_)[value->order()]);
    detail::UninitializedSources all;
    for (const Node* node : allocations_) {
      if (all.nodes.size() == 3) {
        all.more = true;
        break;
      }
      all.nodes.push_back(node);
    }
    return describe(all);
  }

  const Graph& graph_;
  std::vector<const Node*> allocations_;
  std::optional<std::vector<detail::UninitializedSources>> sources_; ///< made when first asked
};

/// Compares a value of the rewrite with the original's (compareValues) where the original's does
/// not come from uninitialized memory, which the runs with the two fills tell: elsewhere only its
/// metadata, and `notes` says so. An element the original determines and the rewrite takes from
/// uninitialized memory is a difference: the rewrite may make values determined, not undo it.
std::string compareRuns(const std::string& label, Runs after, Runs before,
                        const std::function<std::string()>& beforeSources,
                        const std::function<std::string()>& afterSources,
                        std::vector<std::string>& notes) {
  if (!after.ones || !before.ones)
    return compareValues(label, after.zeros, before.zeros);
  auto note = [&](const std::string& text) {
    for (const std::string& existing : notes)
      if (existing.starts_with(label + " ") || existing.starts_with(label + ":"))
        return; // another trial's
    notes.push_back(text);
  };
  if (!after.zeros.isTensor() || !before.zeros.isTensor() || !after.ones->isTensor() ||
      !before.ones->isTensor()) {
    bool beforeVaries = before.zeros.isInt() && before.ones->isInt() &&
                        before.zeros.toInt() != before.ones->toInt();
    bool afterVaries =
        after.zeros.isInt() && after.ones->isInt() && after.zeros.toInt() != after.ones->toInt();
    if (beforeVaries) {
      note(label + " not compared: its value comes from uninitialized memory (" + beforeSources() +
           ")");
      return {};
    }
    if (afterVaries)
      return label + ": its value comes from uninitialized memory (" + afterSources() +
             "), where the original's does not";
    return compareValues(label, after.zeros, before.zeros);
  }
  const at::Tensor& a = after.zeros.toTensor();
  const at::Tensor& b = before.zeros.toTensor();
  if (std::string difference = compareMetadata(label, a, b); !difference.empty())
    return difference;
  // Metadata computed from uninitialized values (nonzero of an empty) must agree in both fills.
  if (std::string difference =
          compareMetadata(label, after.ones->toTensor(), before.ones->toTensor());
      !difference.empty())
    return difference;
  at::Tensor determined = detail::sameInBothFills(b, before.ones->toTensor());
  at::Tensor lost = determined & detail::sameInBothFills(a, after.ones->toTensor()).logical_not();
  int64_t lostCount = lost.sum().item<int64_t>();
  if (lostCount > 0) {
    int64_t first = at::nonzero(lost.reshape({-1}))[0][0].item<int64_t>();
    return label + ": " + std::to_string(lostCount) + " of " + std::to_string(b.numel()) +
           " elements come from uninitialized memory (" + afterSources() +
           "), where the original's do not (first at flat index " + std::to_string(first) + ")";
  }
  int64_t comparedCount = determined.sum().item<int64_t>();
  if (comparedCount == b.numel())
    return compareValues(label, after.zeros, before.zeros);
  if (comparedCount == 0)
    note(label + " compared by metadata only: its values come from uninitialized memory (" +
         beforeSources() + ")");
  else
    note(label + ": values compared at " + std::to_string(comparedCount) + " of " +
         std::to_string(b.numel()) + " elements; the others come from uninitialized memory (" +
         beforeSources() + ")");
  return compareValues(label, after.zeros, before.zeros, determined);
}

/// The indices of `candidates` that share storage with `value`.
std::vector<size_t> aliases(const c10::IValue& value, const std::vector<const void*>& candidates,
                            size_t skip = SIZE_MAX) {
  std::vector<size_t> out;
  const void* storage = storageOf(value);
  if (!storage)
    return out;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (i != skip && candidates[i] == storage)
      out.push_back(i);
  return out;
}

/// Which outputs alias which inputs or each other. Donated inputs are left out: the caller gave
/// them up, so an output may well live in one.
std::string compareAliasing(const std::vector<c10::IValue>& afterOutputs,
                            const std::vector<c10::IValue>& beforeOutputs, const Inputs& after,
                            const Inputs& before, const std::vector<bool>& donated) {
  auto storages = [](const std::vector<c10::IValue>& values) {
    std::vector<const void*> out;
    for (const c10::IValue& value : values)
      out.push_back(storageOf(value));
    return out;
  };
  // Inputs by index, then module state (attributes, which the caller also keeps).
  std::vector<c10::IValue> afterInputs, beforeInputs;
  std::vector<std::string> inputNames;
  for (size_t i = 0; i < after.values.size(); ++i) {
    bool isDonated = i < donated.size() && donated[i];
    afterInputs.push_back(isDonated ? c10::IValue() : after.values[i].value);
    beforeInputs.push_back(isDonated ? c10::IValue() : before.values[i].value);
    inputNames.push_back("input " + std::to_string(i));
  }
  for (const auto& [path, attribute] : before.attributes) {
    afterInputs.push_back(after.attributes.at(path).value);
    beforeInputs.push_back(attribute.value);
    inputNames.push_back("attribute self." + path);
  }
  std::vector<const void*> afterInputStorages = storages(afterInputs);
  std::vector<const void*> beforeInputStorages = storages(beforeInputs);
  std::vector<const void*> afterOutputStorages = storages(afterOutputs);
  std::vector<const void*> beforeOutputStorages = storages(beforeOutputs);
  auto describe = [&](const std::vector<size_t>& indices, const char* what) {
    std::string out;
    for (size_t index : indices)
      out += (out.empty() ? "" : ", ") +
             (what ? std::string(what) + " " + std::to_string(index) : inputNames[index]);
    return out.empty() ? std::string("nothing") : out;
  };
  for (size_t i = 0; i < afterOutputs.size(); ++i) {
    std::vector<size_t> a = aliases(afterOutputs[i], afterInputStorages);
    std::vector<size_t> b = aliases(beforeOutputs[i], beforeInputStorages);
    if (a != b)
      return "output " + std::to_string(i) + ": aliases " + describe(a, nullptr) +
             " != " + describe(b, nullptr);
    a = aliases(afterOutputs[i], afterOutputStorages, i);
    b = aliases(beforeOutputs[i], beforeOutputStorages, i);
    if (a != b)
      return "output " + std::to_string(i) + ": aliases " + describe(a, "output") +
             " != " + describe(b, "output");
  }
  return {};
}

std::optional<DType> dtypeOf(at::ScalarType type) {
  switch (type) {
  case at::kBool:
    return DType::Bool;
  case at::kByte:
    return DType::UInt8;
  case at::kChar:
    return DType::Int8;
  case at::kShort:
    return DType::Int16;
  case at::kInt:
    return DType::Int32;
  case at::kLong:
    return DType::Int64;
  case at::kHalf:
    return DType::Float16;
  case at::kBFloat16:
    return DType::BFloat16;
  case at::kFloat:
    return DType::Float32;
  case at::kDouble:
    return DType::Float64;
  case at::kComplexFloat:
    return DType::Complex64;
  case at::kComplexDouble:
    return DType::Complex128;
  default:
    return std::nullopt;
  }
}

/// One run of a graph: its outputs, and its copy of the inputs as it left them; or the error of
/// an op that raised.
struct Run {
  std::vector<c10::IValue> outputs;
  Inputs inputs;
  std::optional<Error> raised;
};

/// Runs the graph, or the graph of `module` with its nested subgraphs when there is one, on a
/// copy of `inputs`, with `fill` in the memory kernels leave uninitialized. An error when the
/// graph cannot run here; a Run with `raised` when a kernel refused its arguments.
Result<Run> run(const Graph& graph, const GraphModule* module, const Inputs& inputs, uint64_t seed,
                detail::UninitializedFill fill, const MissingKernels* kernels) {
  Run out{{}, detail::copyInputs(inputs), std::nullopt};
  out.inputs.uninitialized = fill;
  // Random ops (dropout's bernoulli_) draw the same numbers in every run: removing a clone does
  // not change the order in which they run.
  at::manual_seed(seed);
  Result<std::vector<c10::IValue>> outputs = module ? detail::execute(*module, out.inputs, kernels)
                                                    : detail::execute(graph, out.inputs, kernels);
  if (!outputs.ok() && !out.inputs.kernelRaised)
    return outputs.error();
  if (!outputs.ok())
    out.raised = outputs.error();
  else
    out.outputs = std::move(outputs).value();
  return out;
}

/// `running the graph needs ...` with the sizes that account for most of it, and how to run
/// anyway.
Error tooLarge(const Error& error, const Graph& graph, const GraphModule* module, bool shrunk,
               const std::vector<std::string>& notes) {
  std::vector<const Graph*> graphs = module ? graphsOf(*module) : std::vector<const Graph*>{&graph};
  std::string sizes;
  for (const auto& [size, bytes] : SizeShrinker(graphs).dominantSizes(3))
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(size) + " (" + formatBytes(bytes) + ")";
  Error out = error;
  if (!sizes.empty())
    out.message += "; the sizes that account for most of it: " + sizes;
  std::string why;
  for (const std::string& note : notes)
    if (note.starts_with("sizes not shrunk: "))
      why = " (" + note.substr(18) + ")";
  out.message += shrunk ? "; they could not shrink" + why + ", so run with a larger --memory-limit"
                        : "; run without --full-size to shrink them";
  return out;
}

/// The graphs run at the sizes they print, `verdict` holding the notes so far.
Result<Verdict> verifyAsPrinted(const Graph& before, const GraphModule* beforeModule,
                                const Graph& after, const GraphModule* afterModule,
                                const VerifyOptions& options, Verdict verdict) {
  // Graphs that leave memory uninitialized run twice, with two fills of it, to tell which values
  // come from it; the others once, their values depending on the inputs alone.
  SourceNames beforeSources(before, beforeModule), afterSources(after, afterModule);
  bool twoFills = beforeSources.any() || afterSources.any();
  std::set<std::string> standIns;
  for (unsigned trial = 0; trial < std::max(1u, options.trials); ++trial) {
    detail::InputOptions inputOptions{options.symbolHints,
                                      {options.intLow, options.intHigh},
                                      options.memoryLimit,
                                      twoFills ? 4u : 2u};
    Result<Inputs> inputs = Error{""};
    try {
      inputs = detail::makeInputs(before, options.seed + trial, inputOptions);
    } catch (const std::exception& error) {
      // An allocation that fails, a range a dtype cannot hold: an error, not an abort.
      std::string message = error.what();
      return Error{"cannot make the inputs: " + message.substr(0, message.find('\n'))};
    }
    if (!inputs.ok())
      return inputs.error().message.starts_with("running the graph needs")
                 ? tooLarge(inputs.error(), before, beforeModule, options.shrink, verdict.notes)
                 : inputs.error();
    // Attributes only the rewrite reads get values too (the same ones a graph reading them
    // would get).
    Status attributes = detail::addAttributes(after, options.seed + trial, *inputs);
    if (!attributes.ok())
      return attributes.error();
    uint64_t seed = options.seed + trial;
    // Both graphs with one fill: the original, then the rewrite.
    auto runBoth = [&](detail::UninitializedFill fill) -> Result<std::pair<Run, Run>> {
      Result<Run> original = run(before, beforeModule, *inputs, seed, fill, options.kernels);
      if (!original.ok())
        return original.error();
      if (original->raised)
        return *original->raised;
      Result<Run> rewrite = run(after, afterModule, *inputs, seed, fill, options.kernels);
      if (!rewrite.ok())
        return rewrite.error();
      return std::pair(std::move(original).value(), std::move(rewrite).value());
    };
    Result<std::pair<Run, Run>> zeros = runBoth(detail::UninitializedFill::Zeros);
    if (!zeros.ok())
      return zeros.error();
    const Run& beforeRun = zeros->first;
    const Run& afterRun = zeros->second;
    std::optional<std::pair<Run, Run>> ones;
    if (twoFills) {
      Result<std::pair<Run, Run>> onesRuns = runBoth(detail::UninitializedFill::Ones);
      if (!onesRuns.ok())
        return onesRuns.error();
      ones = std::move(onesRuns).value();
    }
    const Run* beforeOnes = ones ? &ones->first : nullptr;
    const Run* afterOnes = ones ? &ones->second : nullptr;
    // Before any comparison: a difference returns the verdict at once, and says them too.
    for (const Run* graphRun : {&beforeRun, &afterRun, beforeOnes, afterOnes})
      if (graphRun)
        standIns.insert(graphRun->inputs.standInsRun.begin(), graphRun->inputs.standInsRun.end());
    verdict.standIns.assign(standIns.begin(), standIns.end());
    ++verdict.trialsRun;
    if (options.trialDone)
      options.trialDone();
    auto differ = [&](std::string difference) {
      verdict.equivalent = false;
      std::string symbols;
      for (const auto& [name, value] : inputs->symbols)
        symbols += (symbols.empty() ? "" : ", ") + name + "=" + std::to_string(value);
      verdict.difference = std::move(difference);
      if (!symbols.empty())
        verdict.difference += " (with " + symbols + ")";
      return verdict;
    };
    for (const Run* rewrite : {&afterRun, afterOnes})
      if (rewrite && rewrite->raised)
        return differ("the rewrite raises where the original does not: " +
                      rewrite->raised->message);
    const std::vector<c10::IValue>& afterOutputs = afterRun.outputs;
    const std::vector<c10::IValue>& beforeOutputs = beforeRun.outputs;
    if (afterOutputs.size() != beforeOutputs.size())
      return differ("outputs: " + std::to_string(afterOutputs.size()) +
                    " != " + std::to_string(beforeOutputs.size()));
    // `name(sources)` names the allocations the value may come from in one graph.
    auto compare = [&](const std::string& label, const c10::IValue& afterValue,
                       const c10::IValue* afterOnesValue, const c10::IValue& beforeValue,
                       const c10::IValue* beforeOnesValue, const auto& name) {
      return compareRuns(
          label, {afterValue, afterOnesValue}, {beforeValue, beforeOnesValue},
          [&] { return name(beforeSources); }, [&] { return name(afterSources); }, verdict.notes);
    };
    for (size_t i = 0; i < afterOutputs.size(); ++i) {
      std::string difference =
          compare("output " + std::to_string(i), afterOutputs[i],
                  afterOnes ? &afterOnes->outputs[i] : nullptr, beforeOutputs[i],
                  beforeOnes ? &beforeOnes->outputs[i] : nullptr,
                  [&](SourceNames& names) { return names.output(i); });
      if (!difference.empty())
        return differ(difference);
    }
    std::vector<Node*> placeholders = before.placeholders();
    for (size_t i = 0; i < placeholders.size(); ++i) {
      if (i < options.donated.size() && options.donated[i])
        continue; // the caller does not look at a donated input again
      std::string difference = compare(
          "input " + std::to_string(i) + " (" + std::string(placeholders[i]->name()) + ")",
          afterRun.inputs.values[i].value, afterOnes ? &afterOnes->inputs.values[i].value : nullptr,
          beforeRun.inputs.values[i].value,
          beforeOnes ? &beforeOnes->inputs.values[i].value : nullptr,
          [&](SourceNames& names) { return names.input(i); });
      if (!difference.empty())
        return differ(difference + " after the call");
    }
    // Module state: the caller sees its final contents, like an input it did not donate.
    for (const auto& [path, attribute] : beforeRun.inputs.attributes) {
      std::string difference = compare(
          "attribute self." + path, afterRun.inputs.attributes.at(path).value,
          afterOnes ? &afterOnes->inputs.attributes.at(path).value : nullptr, attribute.value,
          beforeOnes ? &beforeOnes->inputs.attributes.at(path).value : nullptr,
          [&, &path = path](SourceNames& names) { return names.attribute(path); });
      if (!difference.empty())
        return differ(difference + " after the call");
    }
    std::string aliasing = compareAliasing(afterOutputs, beforeOutputs, afterRun.inputs,
                                           beforeRun.inputs, options.donated);
    if (!aliasing.empty())
      return differ(aliasing);
  }
  return verdict;
}

Result<Verdict> verifyGraphs(const Graph& before, const GraphModule* beforeModule,
                             const Graph& after, const GraphModule* afterModule,
                             const VerifyOptions& options) {
  size_t beforeInputs = before.placeholders().size();
  size_t afterInputs = after.placeholders().size();
  if (beforeInputs != afterInputs)
    return Error{"the graphs take different inputs: " + std::to_string(beforeInputs) + " and " +
                 std::to_string(afterInputs) + " placeholders"};
  Verdict verdict;
  detail::ShrunkGraphs shrunk;
  if (options.shrink) {
    detail::ShrinkRequest request{
        options.budget,      options.seed,    {options.intLow, options.intHigh},
        options.symbolHints, options.kernels, options.memoryLimit};
    Result<detail::ShrunkGraphs> planned =
        detail::shrinkGraphs(before, beforeModule, after, afterModule, request);
    if (!planned.ok())
      return planned.error();
    shrunk = std::move(planned).value();
    if (!shrunk.note.empty())
      verdict.notes.push_back(shrunk.note);
  }
  if (options.estimated)
    options.estimated(shrunk.changes, shrunk.before ? shrunk.cost : shrunk.fullCost,
                      shrunk.fullCost);
  if (shrunk.before) {
    verdict.sizes = shrunk.changes;
    GraphModule& runBefore = *shrunk.before->modules[0];
    GraphModule& runAfter = *shrunk.after->modules[0];
    VerifyOptions rest = options;
    rest.shrink = false;
    rest.estimated = nullptr;
    Result<Verdict> result = verifyGraphs(runBefore.graph, beforeModule ? &runBefore : nullptr,
                                          runAfter.graph, afterModule ? &runAfter : nullptr, rest);
    if (!result.ok())
      return result;
    result->sizes = verdict.sizes;
    result->notes.insert(result->notes.begin(), verdict.notes.begin(), verdict.notes.end());
    if (!result->equivalent)
      result->difference += " (ran with " + describeSizeChanges(verdict.sizes) + ")";
    return result;
  }
  return verifyAsPrinted(before, beforeModule, after, afterModule, options, std::move(verdict));
}
} // namespace

/// verifyGraphs, with what libtorch throws while comparing (a layout or dtype it has no kernel
/// for) as an error rather than an escaped exception.
Result<Verdict> verifyOrError(const Graph& before, const GraphModule* beforeModule,
                              const Graph& after, const GraphModule* afterModule,
                              const VerifyOptions& options) {
  try {
    return verifyGraphs(before, beforeModule, after, afterModule, options);
  } catch (const std::exception& error) {
    std::string message = error.what();
    return Error{"cannot compare the graphs' values: " + message.substr(0, message.find('\n'))};
  }
}

Result<Verdict> verify(const Graph& before, const Graph& after, const VerifyOptions& options) {
  return verifyOrError(before, nullptr, after, nullptr, options);
}

Result<Verdict> verify(const GraphModule& before, const GraphModule& after,
                       const VerifyOptions& options) {
  return verifyOrError(before.graph, &before, after.graph, &after, options);
}

Status annotateFromExecution(Graph& graph, uint64_t seed, AnnotationTime when,
                             const MissingKernels* kernels) {
  Result<Inputs> inputs = detail::makeInputs(graph, seed);
  if (!inputs.ok())
    return inputs.error();
  std::vector<c10::IValue> values;
  Result<std::vector<c10::IValue>> outputs =
      detail::execute(graph, *inputs, kernels, &values, when == AnnotationTime::WhenMade);
  if (!outputs.ok())
    return outputs.error();
  Context& context = graph.context();
  for (Node* node : graph) {
    if (!node->isCall() || !values[node->order()].isTensor())
      continue;
    const at::Tensor& tensor = values[node->order()].toTensor();
    std::optional<DType> dtype = dtypeOf(tensor.scalar_type());
    if (!dtype)
      continue;
    auto* type = context.create<TensorType>();
    type->dtype = *dtype;
    auto copy = [&](c10::IntArrayRef values) {
      std::span<SymExpr> out = context.allocate<SymExpr>(values.size());
      for (size_t i = 0; i < values.size(); ++i)
        out[i] = SymExpr::constant(values[i]);
      return std::span<const SymExpr>(out);
    };
    type->sizes = copy(tensor.sizes());
    type->strides = copy(tensor.strides());
    type->device = "cpu";
    if (tensor.storage_offset() != 0)
      type->storageOffset = SymExpr::constant(tensor.storage_offset());
    TypeAnnotation annotation;
    annotation.kind = TypeAnnotation::Kind::Tensor;
    annotation.tensor = type;
    node->setType(context.create<TypeAnnotation>(annotation));
  }
  return ok();
}

} // namespace declone::runtime
