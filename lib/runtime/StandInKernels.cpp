// Stand-in CPU kernels for the custom ops real dumps call (vLLM's _C and vllm ops, ...) that
// this libtorch has no kernel for, so that graphs using them can still be verified.
//
// A stand-in follows the op's schema, not its mathematics: it writes every mutable tensor
// argument, and each tensor it returns, with a deterministic function of the op's tensor inputs,
// read the way CUDA kernels read them, as contiguous memory from the tensor's storage offset.
// Two graphs that differ only in the layout they hand such an op (the vLLM Mamba bug) therefore
// produce different results. Mutable arguments named out/result/output are treated as
// write-only, as vLLM's kernels do; other mutable arguments are read too (in-place updates). A
// returned alias (`Tensor(a)`) is the argument it aliases; a new returned tensor has the shape
// and dtype of the first tensor argument (all_reduce, weak_ref_tensor), the shape most such ops
// return, since a stand-in cannot know the others'.
#include "Execution.h"
#include "declone/runtime/Executor.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/Lines.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <memory>
#include <torch/library.h>
#include <unordered_set>

namespace declone::runtime {

/// What a MissingKernels added to the dispatcher: its registrations last as long as their
/// libraries do.
struct detail::KernelRegistrations {
  std::vector<std::unique_ptr<torch::Library>> libraries;
  /// The ops defined with a stand-in, for isStandIn.
  std::unordered_set<c10::OperatorName> ops;
};

namespace detail {
namespace {

bool isWriteOnlyName(const std::string& name) {
  return name == "out" || name == "result" || name == "output";
}

/// The elements a contiguous-assuming kernel reads for `tensor`, as float64.
at::Tensor contiguousRead(const at::Tensor& tensor) {
  int64_t available = static_cast<int64_t>(tensor.storage().nbytes() / tensor.element_size()) -
                      tensor.storage_offset();
  int64_t count = std::min<int64_t>(tensor.numel(), std::max<int64_t>(available, 0));
  at::Tensor raw = at::empty({0}, tensor.options());
  raw.set_(tensor.storage(), tensor.storage_offset(), {count}, {1});
  return raw.to(at::kDouble);
}

void standInKernel(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const std::vector<c10::Argument>& arguments = op.schema().arguments();
  size_t count = arguments.size();
  std::vector<c10::IValue> values(stack->end() - count, stack->end());
  stack->erase(stack->end() - count, stack->end());
  std::vector<at::Tensor> reads;
  for (size_t i = 0; i < count; ++i) {
    bool mutableArgument = arguments[i].alias_info() && arguments[i].alias_info()->isWrite();
    if (values[i].isTensor() && !(mutableArgument && isWriteOnlyName(arguments[i].name())))
      reads.push_back(contiguousRead(values[i].toTensor()));
  }
  size_t written = 0;
  auto fill = [&](at::Tensor target) {
    int64_t numel = target.numel();
    at::Tensor result = at::full({numel}, static_cast<double>(++written), at::kDouble);
    for (const at::Tensor& read : reads) {
      if (read.numel() == 0)
        continue;
      at::Tensor index = at::arange(numel, at::kLong).remainder(read.numel());
      result.add_(read.index_select(0, index), 0.5);
    }
    target.copy_(result.view(target.sizes()));
  };
  for (size_t i = 0; i < count; ++i)
    if (arguments[i].alias_info() && arguments[i].alias_info()->isWrite() && values[i].isTensor())
      fill(values[i].toTensor());
  for (const c10::Argument& returned : op.schema().returns()) {
    const c10::AliasInfo* alias = returned.alias_info();
    std::optional<c10::IValue> result;
    for (size_t i = 0; alias && i < count && !result; ++i)
      if (arguments[i].alias_info() &&
          arguments[i].alias_info()->beforeSets() == alias->beforeSets())
        result = values[i];
    for (size_t i = 0; !result && i < count; ++i)
      if (values[i].isTensor()) {
        at::Tensor made = at::empty_like(values[i].toTensor(), at::MemoryFormat::Contiguous);
        fill(made);
        result = made;
      }
    stack->push_back(result ? *result : c10::IValue());
  }
}

/// Whether a stand-in can serve `schema`: it writes a tensor argument or returns tensors (new
/// ones made like its first tensor argument, which it must have, or aliases of arguments).
bool standInFits(const OpSchema& schema) {
  auto isTensor = [](const SchemaArgument& value) {
    return value.type.kind == SchemaType::Kind::Tensor && !value.type.optional;
  };
  bool writes = false, tensorArgument = false;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    writes = writes || (schema.writesArgument(i) && schema.isTensorLike(i));
    tensorArgument = tensorArgument || isTensor(schema.arguments[i]);
  }
  bool makesTensors = false;
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    if (!isTensor(schema.returns[i]))
      return false; // lists, scalars, strings: nothing to make them from
    makesTensors = makesTensors || !schema.returnAliasesArgument(i);
  }
  // A new tensor is made like the first tensor argument, so one must exist.
  return (writes || !schema.returns.empty()) && (!makesTensors || tensorArgument);
}

/// Defines `line`'s op with a stand-in CPU kernel when it fits one and this libtorch has no op of
/// that name; false when it was not registered.
bool registerStandIn(std::string_view line, KernelRegistrations& registrations) {
  Result<OpSchema> schema = parseSchema(line);
  if (line.empty() || line.front() == '#' || !schema.ok() || schema->opNamespace.empty() ||
      schema->opNamespace == "aten" || schema->opNamespace == "prims" || !standInFits(*schema))
    return false;
  std::string name = schema->opNamespace + "::" + schema->name;
  if (c10::Dispatcher::singleton().findSchema({name, schema->overload}))
    return false; // a real kernel exists
  try {
    auto library = std::make_unique<torch::Library>(torch::Library::FRAGMENT, schema->opNamespace,
                                                    c10::nullopt, __FILE__, __LINE__);
    std::string definition(line.substr(line.find("::") + 2));
    library->def(definition.c_str());
    std::string implName = schema->name + (schema->overload.empty() ? "" : "." + schema->overload);
    library->impl(implName.c_str(),
                  torch::dispatch(c10::DispatchKey::CPU,
                                  torch::CppFunction::makeFromBoxedFunction<&standInKernel>()));
    registrations.libraries.push_back(std::move(library));
    registrations.ops.insert(c10::OperatorName(name, schema->overload));
    return true;
  } catch (const std::exception&) {
    return false; // a schema this libtorch cannot read: the op stays without a kernel
  }
}

} // namespace

bool isStandIn(const MissingKernels* kernels, const c10::OperatorName& op) {
  return kernels && kernels->registrations().ops.contains(op);
}

} // namespace detail

MissingKernels::MissingKernels() : registrations_(std::make_unique<detail::KernelRegistrations>()) {
  registrations_->libraries.push_back(detail::registerPrimsKernels());
  for (const SchemaRegistry::Source& source : SchemaRegistry::builtinSources())
    if (source.name == "supplement")
      forEachLine(source.text, [&](std::string_view line, uint32_t) {
        (void)detail::registerStandIn(line, *registrations_);
        return true;
      });
}

MissingKernels::~MissingKernels() = default;

size_t MissingKernels::addStandIns(std::string_view schemaText) {
  size_t registered = 0;
  forEachLine(schemaText, [&](std::string_view line, uint32_t) {
    registered += detail::registerStandIn(trim(line), *registrations_) ? 1 : 0;
    return true;
  });
  return registered;
}

} // namespace declone::runtime
