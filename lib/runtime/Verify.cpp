// Comparing two graphs on the same inputs, and annotating a graph from an execution.
#include "Execution.h"
#include "declone/runtime/Executor.h"

#include <sstream>

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

/// Empty when equal, else `LABEL: what (after) != (before)`.
std::string compareValues(const std::string& label, const c10::IValue& after,
                          const c10::IValue& before) {
  if (after.isTensor() != before.isTensor())
    return label + ": a tensor on one side only";
  if (!after.isTensor()) {
    if (after.isInt() && before.isInt() && after.toInt() != before.toInt())
      return label + ": " + std::to_string(after.toInt()) + " != " + std::to_string(before.toInt());
    return {};
  }
  const at::Tensor& a = after.toTensor();
  const at::Tensor& b = before.toTensor();
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
  bool same;
  if (at::isFloatingType(a.scalar_type()) || at::isComplexType(a.scalar_type())) {
    // Removing a clone changes no arithmetic, so the values should be bitwise equal; the
    // tolerance only absorbs kernels that pick a different path for a different layout.
    double tolerance = a.scalar_type() == at::kDouble  ? 1e-12
                       : a.scalar_type() == at::kFloat ? 1e-5
                                                       : 1e-2;
    same = at::allclose(a, b, tolerance, tolerance, /*equal_nan=*/true);
  } else {
    same = at::equal(a, b);
  }
  if (same)
    return {};
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

/// Runs the graph, or the graph of `module` with its nested subgraphs when there is one.
Result<std::vector<c10::IValue>> run(const Graph& graph, const GraphModule* module,
                                     Inputs& inputs) {
  return module ? detail::execute(*module, inputs) : detail::execute(graph, inputs);
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
  for (unsigned trial = 0; trial < std::max(1u, options.trials); ++trial) {
    detail::InputOptions inputOptions{
        options.symbolHints, {options.intLow, options.intHigh}, options.memoryLimit};
    Result<Inputs> inputs = Error{""};
    try {
      inputs = detail::makeInputs(before, options.seed + trial, inputOptions);
    } catch (const std::exception& error) {
      // An allocation that fails, a range a dtype cannot hold: an error, not an abort.
      std::string message = error.what();
      return Error{"cannot make the inputs: " + message.substr(0, message.find('\n'))};
    }
    if (!inputs.ok())
      return inputs.error();
    // Attributes only the rewrite reads get values too (the same ones a graph reading them
    // would get).
    Status attributes = detail::addAttributes(after, options.seed + trial, *inputs);
    if (!attributes.ok())
      return attributes.error();
    Inputs afterInputsCopy = detail::copyInputs(*inputs);
    Inputs beforeInputsCopy = detail::copyInputs(*inputs);
    // Random ops (dropout's bernoulli_) draw the same numbers in both runs: removing a clone
    // does not change the order in which they run.
    at::manual_seed(options.seed + trial);
    Result<std::vector<c10::IValue>> beforeOutputs = run(before, beforeModule, beforeInputsCopy);
    if (!beforeOutputs.ok())
      return beforeOutputs.error();
    at::manual_seed(options.seed + trial);
    Result<std::vector<c10::IValue>> afterOutputs = run(after, afterModule, afterInputsCopy);
    if (!afterOutputs.ok())
      return afterOutputs.error();
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
    if (afterOutputs->size() != beforeOutputs->size())
      return differ("outputs: " + std::to_string(afterOutputs->size()) +
                    " != " + std::to_string(beforeOutputs->size()));
    for (size_t i = 0; i < afterOutputs->size(); ++i) {
      std::string difference =
          compareValues("output " + std::to_string(i), (*afterOutputs)[i], (*beforeOutputs)[i]);
      if (!difference.empty())
        return differ(difference);
    }
    std::vector<Node*> placeholders = before.placeholders();
    for (size_t i = 0; i < placeholders.size(); ++i) {
      if (i < options.donated.size() && options.donated[i])
        continue; // the caller does not look at a donated input again
      std::string difference = compareValues(
          "input " + std::to_string(i) + " (" + std::string(placeholders[i]->name()) + ")",
          afterInputsCopy.values[i].value, beforeInputsCopy.values[i].value);
      if (!difference.empty())
        return differ(difference + " after the call");
    }
    // Module state: the caller sees its final contents, like an input it did not donate.
    for (const auto& [path, attribute] : beforeInputsCopy.attributes) {
      std::string difference = compareValues(
          "attribute self." + path, afterInputsCopy.attributes.at(path).value, attribute.value);
      if (!difference.empty())
        return differ(difference + " after the call");
    }
    std::string aliasing = compareAliasing(*afterOutputs, *beforeOutputs, afterInputsCopy,
                                           beforeInputsCopy, options.donated);
    if (!aliasing.empty())
      return differ(aliasing);
  }
  return verdict;
}

} // namespace

size_t addStandInKernels(std::string_view schemaText) {
  return detail::registerStandInKernels(schemaText);
}

Result<Verdict> verify(const Graph& before, const Graph& after, const VerifyOptions& options) {
  return verifyGraphs(before, nullptr, after, nullptr, options);
}

Result<Verdict> verify(const GraphModule& before, const GraphModule& after,
                       const VerifyOptions& options) {
  return verifyGraphs(before.graph, &before, after.graph, &after, options);
}

Status annotateFromExecution(Graph& graph, uint64_t seed, AnnotationTime when) {
  Result<Inputs> inputs = detail::makeInputs(graph, seed);
  if (!inputs.ok())
    return inputs.error();
  std::vector<c10::IValue> values;
  Result<std::vector<c10::IValue>> outputs =
      detail::execute(graph, *inputs, &values, when == AnnotationTime::WhenMade);
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
