// Memory that kernels leave uninitialized (empty's allocation, the part resize_ adds): filled
// with what the run's inputs choose, so that a run depends on its inputs alone, and verify can
// tell, by running a graph with two fills, which values come from such memory.
#include "Execution.h"
#include "declone/analysis/AliasAnalysis.h"
#include "declone/schema/SchemaRegistry.h"

#include <algorithm>

namespace declone::runtime::detail {
namespace {

using Part = PendingFill::Part;

struct UninitializedOp {
  std::string_view opNamespace, name, overload;
  Part part;
};

// The ops whose kernels return memory they did not write, and which part of it: PyTorch's empty
// family allocates without writing, the out= variants PyTorch generates copy such an allocation
// into `out` (empty.out only resizes `out`, like resize_), and resizing keeps the old bytes but
// not what it adds. Checked by running each of them on a prefilled `out` with torch 2.13.
constexpr UninitializedOp kUninitializedOps[] = {
    {"aten", "empty", "memory_format", Part::Storage},
    {"aten", "empty", "out", Part::Grown},
    {"aten", "empty_like", "default", Part::Storage},
    {"aten", "empty_like", "out", Part::Elements},
    {"aten", "new_empty", "default", Part::Storage},
    {"aten", "new_empty", "out", Part::Elements},
    {"aten", "empty_strided", "default", Part::Storage},
    {"aten", "empty_strided", "out", Part::Elements},
    {"aten", "new_empty_strided", "default", Part::Storage},
    {"aten", "new_empty_strided", "out", Part::Elements},
    {"aten", "empty_permuted", "default", Part::Storage},
    {"aten", "empty_permuted", "out", Part::Elements},
    {"prims", "empty", "default", Part::Storage},
    {"prims", "empty_strided", "default", Part::Storage},
    {"prims", "empty_permuted", "default", Part::Storage},
    {"aten", "resize_", "default", Part::Grown},
    {"aten", "resize_as_", "default", Part::Grown},
    {"aten", "_resize_output_", "default", Part::Grown},
    {"aten", "resize", "default", Part::GrownCopy},
    {"aten", "resize_as", "default", Part::GrownCopy},
    {"aten", "_resize_output", "default", Part::GrownCopy},
};

/// The entry for an op; an empty `overload` matches any (a packet call or a method).
const UninitializedOp* findOp(std::string_view opNamespace, std::string_view name,
                              std::optional<std::string_view> overload) {
  for (const UninitializedOp& op : kUninitializedOps)
    if (op.opNamespace == opNamespace && op.name == name && (!overload || op.overload == *overload))
      return &op;
  return nullptr;
}

/// The bytes of `storage`, as a 1-D uint8 tensor sharing it.
at::Tensor bytesOf(const c10::Storage& storage) {
  at::Tensor bytes = at::empty({0}, at::TensorOptions().dtype(at::kByte));
  bytes.set_(storage);
  return bytes;
}

/// The value one of `dtype` as bytes (1+1j for complex numbers, so that both parts differ from
/// the zero fill); undefined for a dtype without one (quantized, bits).
at::Tensor oneAsBytes(at::ScalarType dtype) {
  try {
    at::Tensor one = at::empty({1}, at::TensorOptions().dtype(dtype));
    if (at::isComplexType(dtype))
      one.fill_(c10::complex<double>(1, 1));
    else
      one.fill_(1);
    return one.view(at::kByte);
  } catch (const std::exception&) {
    return {};
  }
}

/// Fills bytes [begin, end) of `storage`, which holds elements of `dtype`. The ones fill writes
/// 0x01 to bytes that hold no whole element (and to every byte for a dtype without a one).
void fillBytes(const c10::Storage& storage, size_t begin, size_t end, at::ScalarType dtype,
               UninitializedFill fill) {
  if (begin >= end)
    return;
  at::Tensor bytes = bytesOf(storage);
  auto first = static_cast<int64_t>(begin), last = static_cast<int64_t>(end);
  if (fill == UninitializedFill::Zeros) {
    bytes.slice(0, first, last).zero_();
    return;
  }
  bytes.slice(0, first, last).fill_(1);
  at::Tensor one = oneAsBytes(dtype);
  if (!one.defined())
    return;
  int64_t size = one.numel();
  int64_t whole = (first + size - 1) / size * size, wholeEnd = last / size * size;
  if (whole < wholeEnd)
    bytes.slice(0, whole, wholeEnd).view({-1, size}).copy_(one);
}

/// Fills the elements of `tensor` (not the gaps between them).
void fillElements(const at::Tensor& tensor, UninitializedFill fill) {
  if (fill == UninitializedFill::Zeros)
    tensor.zero_();
  else if (at::isComplexType(tensor.scalar_type()))
    tensor.fill_(c10::complex<double>(1, 1));
  else
    tensor.fill_(1);
}

const void* storageOf(const at::Tensor& tensor) {
  return tensor.defined() && tensor.has_storage() ? tensor.storage().unsafeGetStorageImpl()
                                                  : nullptr;
}

} // namespace

std::optional<PendingFill> uninitializedBy(const c10::FunctionSchema& schema,
                                           const torch::jit::Stack& arguments) {
  const std::string& name = schema.name();
  size_t colons = name.find("::");
  if (colons == std::string::npos)
    return std::nullopt;
  std::string_view overload = schema.overload_name();
  const UninitializedOp* op =
      findOp(std::string_view(name).substr(0, colons), std::string_view(name).substr(colons + 2),
             overload.empty() ? "default" : overload);
  if (!op)
    return std::nullopt;
  PendingFill pending;
  pending.part = op->part;
  const std::vector<c10::Argument>& parameters = schema.arguments();
  for (size_t i = 0; i < parameters.size() && i < arguments.size(); ++i) {
    if (!arguments[i].isTensor())
      continue;
    const at::Tensor& tensor = arguments[i].toTensor();
    bool written = parameters[i].alias_info() && parameters[i].alias_info()->isWrite();
    if (op->part == Part::GrownCopy) {
      // The copy (clone, preserving the layout of a dense tensor, else dense) holds exactly the
      // argument's elements; resizing it adds the rest.
      pending.initializedBytes = static_cast<size_t>(tensor.numel()) * tensor.itemsize();
      break;
    }
    if (written && (pending.storage = storageOf(tensor))) {
      pending.initializedBytes = tensor.storage().nbytes();
      break;
    }
  }
  return pending;
}

void fillUninitialized(const PendingFill& pending, const torch::jit::Stack& results,
                       UninitializedFill fill) {
  for (const c10::IValue& result : results) {
    if (!result.isTensor() || !storageOf(result.toTensor()))
      continue;
    const at::Tensor& tensor = result.toTensor();
    const c10::Storage& storage = tensor.storage();
    size_t size = storage.nbytes();
    switch (pending.part) {
    case Part::Storage:
      fillBytes(storage, 0, size, tensor.scalar_type(), fill);
      break;
    case Part::Elements:
      fillElements(tensor, fill);
      [[fallthrough]];
    case Part::Grown:
      if (storageOf(tensor) == pending.storage)
        fillBytes(storage, pending.initializedBytes, size, tensor.scalar_type(), fill);
      break;
    case Part::GrownCopy:
      fillBytes(storage, std::min(pending.initializedBytes, size), size, tensor.scalar_type(),
                fill);
      break;
    }
  }
}

std::vector<const Node*> uninitializedAllocations(const Graph& graph, const GraphModule* module) {
  std::vector<const Node*> found;
  for (const Node* node : graph) {
    if (!node->isCall())
      continue;
    const Target& target = *node->target();
    if ((target.kind == Target::Kind::Op &&
         findOp(target.opNamespace, target.opName,
                target.overload.empty() ? std::nullopt
                                        : std::optional<std::string_view>(target.overload))) ||
        (target.kind == Target::Kind::Method && findOp("aten", target.qualifiedName, std::nullopt)))
      found.push_back(node);
  }
  if (module)
    for (const auto& child : module->children) {
      std::vector<const Node*> nested = uninitializedAllocations(child->graph, child.get());
      found.insert(found.end(), nested.begin(), nested.end());
    }
  return found;
}

std::vector<UninitializedSources> uninitializedSources(const Graph& graph,
                                                       std::span<const Node* const> allocations) {
  graph.numberNodes();
  EffectAnalysis effects(graph, SchemaRegistry::builtin());
  AliasAnalysis alias(graph, effects, {});
  using StorageId = AliasAnalysis::StorageId;
  auto add = [](UninitializedSources& into, const UninitializedSources& from) {
    for (const Node* node : from.nodes) {
      if (std::find(into.nodes.begin(), into.nodes.end(), node) != into.nodes.end())
        continue;
      if (into.nodes.size() == 3)
        into.more = true;
      else
        into.nodes.push_back(node);
    }
    into.more = into.more || from.more;
  };
  // Each node's reads and writes, from the storages' events.
  std::vector<std::vector<std::pair<StorageId, bool>>> accesses(graph.orderBound());
  for (StorageId storage = 0; storage < alias.numStorages(); ++storage)
    for (const AliasAnalysis::Event& event : alias.events(storage))
      if (event.kind != AliasAnalysis::Event::Kind::Return)
        accesses[event.position].push_back(
            {storage, event.kind == AliasAnalysis::Event::Kind::Write});
  std::vector<UninitializedSources> ofStorage(alias.numStorages());
  std::vector<UninitializedSources> ofNode(graph.orderBound());
  for (const Node* node : graph) {
    UninitializedSources read;
    if (std::find(allocations.begin(), allocations.end(), node) != allocations.end())
      read.nodes.push_back(node);
    for (auto [storage, write] : accesses[node->order()])
      if (!write)
        add(read, ofStorage[storage]);
    // A tuple has no storage: getitem takes its elements' sources from the node that made it.
    node->forEachInput([&](Node* input) {
      if (alias.storageOf(input) == AliasAnalysis::kNoStorage)
        add(read, ofNode[input->order()]);
    });
    for (auto [storage, write] : accesses[node->order()])
      if (write)
        add(ofStorage[storage], read);
    StorageId result = alias.storageOf(node);
    if (result != AliasAnalysis::kNoStorage)
      add(ofStorage[result], read);
    ofNode[node->order()] = std::move(read);
  }
  for (const Node* node : graph)
    if (StorageId storage = alias.storageOf(node); storage != AliasAnalysis::kNoStorage)
      ofNode[node->order()] = ofStorage[storage];
  return ofNode;
}

at::Tensor sameInBothFills(const at::Tensor& zeros, const at::Tensor& ones) {
  at::TensorOptions flags = at::TensorOptions().dtype(at::kBool);
  if (zeros.scalar_type() != ones.scalar_type() || zeros.sizes() != ones.sizes())
    return at::zeros(zeros.sizes(), flags);
  at::Tensor a = zeros.resolve_conj().resolve_neg();
  at::Tensor b = ones.resolve_conj().resolve_neg();
  at::ScalarType dtype = a.scalar_type();
  if (!at::isFloatingType(dtype) && !at::isComplexType(dtype))
    return at::eq(a, b);
  bool complex = at::isComplexType(dtype);
  if (complex) {
    a = at::view_as_real(a);
    b = at::view_as_real(b);
  }
  // In double, which holds every value of the narrower types, signed zeros and NaNs included.
  a = a.to(at::kDouble);
  b = b.to(at::kDouble);
  at::Tensor same =
      (at::eq(a, b) & at::eq(at::signbit(a), at::signbit(b))) | (at::isnan(a) & at::isnan(b));
  return complex ? same.all(-1) : same;
}

} // namespace declone::runtime::detail
