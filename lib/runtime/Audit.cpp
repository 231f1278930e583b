// The alias-and-write audit: each probe is a one-node FX graph, run through the executor on
// random inputs; what the op aliased and wrote is compared with its declared effects.
#include "declone/runtime/Audit.h"

#include "AuditProbe.h"
#include "Execution.h"
#include "declone/analysis/Effects.h"
#include "declone/io/Reader.h"
#include "declone/schema/SchemaRegistry.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <algorithm>
#include <c10/util/Logging.h>
#include <cstring>
#include <optional>
#include <span>
#include <torch/version.h>

namespace declone::runtime {
namespace {

std::string origin() {
  return std::string(kAuditOriginPrefix) + libtorchVersion() + ": ";
}

using namespace audit;

/// Elements of room behind each input: more than any probe tensor has.
constexpr int64_t kPadding = 1024;

/// What one probe showed.
struct Facts {
  ProbeKind kind = ProbeKind::Base;
  ProbeGraph graph;
  std::vector<std::vector<bool>> aliases; ///< [return][argument]
  std::vector<int64_t> aliasOffset;       ///< [return]: the first aliasing tensor's offset
  std::vector<bool> written;              ///< [argument]
};

/// `tensor` and, for a sparse one (which has no storage of its own), the tensors it is built of:
/// sparse constructors keep their indices and values arguments.
void addTensor(const at::Tensor& tensor, std::vector<at::Tensor>& out) {
  if (!tensor.defined())
    return;
  out.push_back(tensor);
  if (tensor.is_sparse()) {
    out.push_back(tensor._indices());
    out.push_back(tensor._values());
  } else if (tensor.layout() == at::kSparseCsr || tensor.layout() == at::kSparseBsr) {
    out.push_back(tensor.crow_indices());
    out.push_back(tensor.col_indices());
    out.push_back(tensor.values());
  } else if (tensor.layout() == at::kSparseCsc || tensor.layout() == at::kSparseBsc) {
    out.push_back(tensor.ccol_indices());
    out.push_back(tensor.row_indices());
    out.push_back(tensor.values());
  }
}

std::vector<at::Tensor> tensorsOf(const c10::IValue& value) {
  std::vector<at::Tensor> out;
  if (value.isTensor()) {
    addTensor(value.toTensor(), out);
  } else if (value.isTensorList()) {
    for (const at::Tensor& tensor : value.toTensorVector())
      addTensor(tensor, out);
  } else if (value.isList()) {
    for (const c10::IValue& element : value.toListRef())
      for (const at::Tensor& tensor : tensorsOf(element))
        out.push_back(tensor);
  }
  return out;
}

/// Whether two tensors' storages share memory: the same storage, or overlapping bytes.
bool sharesStorage(const at::Tensor& a, const at::Tensor& b) {
  if (!a.has_storage() || !b.has_storage())
    return false;
  if (a.storage().unsafeGetStorageImpl() == b.storage().unsafeGetStorageImpl())
    return true;
  auto begin = [](const at::Tensor& t) { return static_cast<const char*>(t.storage().data()); };
  const char* aBegin = begin(a);
  const char* bBegin = begin(b);
  if (!aBegin || !bBegin)
    return false;
  return aBegin < bBegin + b.storage().nbytes() && bBegin < aBegin + a.storage().nbytes();
}

class Auditor {
public:
  Auditor(const OpSchema& schema, const AuditOptions& options)
      : schema_(schema), options_(options), seed_(options.seed) {}

  OverloadAudit run();

private:
  /// What of the schema's arguments decides which probes to try.
  struct Shape {
    bool hasList = false;          ///< a list of tensors
    bool hasOptional = false;      ///< an optional tensor
    bool guessesString = false;    ///< a string without a default (einsum's equation)
    bool hasOptionalValue = false; ///< an optional non-tensor defaulting to None
    bool hasScalar = false;        ///< a Scalar (not a list)
    size_t tensors = 0;            ///< tensor and optional tensor arguments
  };
  [[nodiscard]] Shape shape() const;
  /// Tries probes until one runs (kept in facts_) and returns it; nullopt when none ran, with
  /// the first probe's error in `firstError`.
  std::optional<Probe> findBase(const Shape& shape, std::string& firstError);
  /// The probes that vary the base in every way the audit tries, for each of `plans`.
  [[nodiscard]] std::vector<Probe> variations(const Probe& base, const Shape& shape,
                                              std::span<const size_t> plans) const;
  /// Marks the writes seen only when a bool argument is true as conditional on it.
  void findConditions();
  /// Runs one probe; the error message when libtorch refused it.
  Result<Facts> runProbe(const Probe& probe);
  Result<Facts> runProbeUnchecked(const Probe& probe);
  void compare(const Facts& facts);
  void addLie(EffectOverride lie) {
    if (std::none_of(out_.lies.begin(), out_.lies.end(),
                     [&](const EffectOverride& known) { return known.key() == lie.key(); }))
      out_.lies.push_back(std::move(lie));
  }

  const OpSchema& schema_;
  const AuditOptions& options_;
  uint64_t seed_;
  unsigned ordinal_ = 0;   ///< of the next probe
  TargetEffects declared_; ///< what the schema says, from the first probe's call
  bool haveDeclared_ = false;
  OverloadAudit out_;
  std::vector<Facts> facts_;
};

Result<Facts> Auditor::runProbe(const Probe& probe) {
  // libtorch throws where a probe's inputs do not fit (a shape tensor into overlapping memory):
  // that probe fails, as one the kernel refused.
  try {
    return runProbeUnchecked(probe);
  } catch (const std::exception& error) {
    std::string message = error.what();
    return Error{"the probe's inputs cannot be made: " + message.substr(0, message.find('\n'))};
  }
}

Result<Facts> Auditor::runProbeUnchecked(const Probe& probe) {
  unsigned ordinal = ordinal_++;
  if (std::find(options_.skip.begin(), options_.skip.end(), ordinal) != options_.skip.end())
    return Error{"skipped: the kernel crashed on this probe"};
  auto kind = static_cast<unsigned>(probe.kind);
  if (probe.kind != ProbeKind::Base && ((options_.skipKinds >> kind) & 1))
    return Error{"skipped: the kernel crashed on this kind of probe"};
  if (options_.beforeProbe)
    options_.beforeProbe(ordinal, kind);
  Facts facts;
  facts.kind = probe.kind;
  facts.graph = buildProbe(schema_, probe);
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(facts.graph.text);
  if (!file.ok())
    return Error{"the probe does not parse: " + file.error().message};
  const Graph& graph = (*file)->modules.at(0)->graph;
  Result<detail::Inputs> inputs = detail::makeInputs(graph, seed_);
  if (!inputs.ok())
    return inputs.error();
  std::vector<at::Tensor> before;
  for (size_t k = 0; k < inputs->values.size(); ++k) {
    detail::InputValue& input = inputs->values[k];
    const Placeholder& placeholder = facts.graph.placeholders[k];
    // Integers index and count: keep them small enough to be valid indices into any probe.
    if (at::isIntegralType(input.base.scalar_type(), /*includeBool=*/false))
      input.base.remainder_(2);
    if (!placeholder.contents.empty() &&
        input.value.toTensor().numel() == static_cast<int64_t>(placeholder.contents.size()))
      input.value.toTensor().copy_(at::tensor(placeholder.contents, input.base.options()));
    // Room behind every input: kernels that trust sizes they do not check (rrelu_with_noise
    // fills `noise` as if it were as large as its input) write there instead of over the heap,
    // which counts as a write to that input.
    at::Tensor padded = at::zeros({input.base.numel() + kPadding}, input.base.options());
    padded.narrow(0, 0, input.base.numel()).copy_(input.base);
    const at::Tensor& view = input.value.toTensor();
    input.value = padded.as_strided(view.sizes(), view.strides(), view.storage_offset());
    input.base = padded;
    before.push_back(padded.clone());
    // A Storage argument gets the storage itself: torch.ops refuses a tensor there.
    if (schema_.arguments[placeholder.argument].type.element == "Storage")
      input.value = c10::IValue(padded.storage());
  }
  const Node* call = nullptr;
  for (const Node* node : graph)
    if (node->isCall())
      call = node;
  if (!haveDeclared_) {
    declared_ = declaredEffects(*call->target(), SchemaRegistry::builtin());
    haveDeclared_ = true;
  }
  at::manual_seed(seed_);
  std::vector<c10::IValue> values;
  // Without MissingKernels: the audit is of libtorch's own kernels.
  Result<std::vector<c10::IValue>> outputs = detail::execute(graph, *inputs, nullptr, &values);
  if (!outputs.ok())
    return outputs.error();
  const c10::IValue& result = values[call->order()];
  size_t returns = schema_.returns.size();
  std::vector<std::vector<at::Tensor>> returned(returns);
  if (returns == 1)
    returned[0] = tensorsOf(result);
  else if (returns > 1 && result.isTuple())
    for (size_t r = 0; r < returns && r < result.toTupleRef().elements().size(); ++r)
      returned[r] = tensorsOf(result.toTupleRef().elements()[r]);
  size_t arguments = schema_.arguments.size();
  facts.aliases.assign(returns, std::vector<bool>(arguments, false));
  facts.aliasOffset.assign(returns, 0);
  facts.written.assign(arguments, false);
  for (size_t k = 0; k < facts.graph.placeholders.size(); ++k) {
    size_t argument = facts.graph.placeholders[k].argument;
    const at::Tensor& base = inputs->values[k].base;
    size_t bytes = std::min(base.nbytes(), before[k].nbytes());
    if (std::memcmp(base.data_ptr(), before[k].data_ptr(), bytes) != 0)
      facts.written[argument] = true;
    const c10::IValue& value = inputs->values[k].value;
    const at::Tensor& input = value.isTensor() ? value.toTensor() : base;
    for (size_t r = 0; r < returns; ++r)
      for (const at::Tensor& tensor : returned[r])
        if (sharesStorage(tensor, input) && !facts.aliases[r][argument]) {
          facts.aliases[r][argument] = true;
          facts.aliasOffset[r] = tensor.storage_offset();
        }
  }
  return facts;
}

void Auditor::compare(const Facts& facts) {
  using Return = TargetEffects::Return;
  const std::string op = schema_.fullName();
  for (size_t r = 0; r < facts.aliases.size() && r < declared_.returns.size(); ++r) {
    const Return& ret = declared_.returns[r];
    for (size_t a = 0; a < facts.aliases[r].size(); ++a) {
      if (!facts.aliases[r][a] || ret.kind == Return::Kind::Unknown ||
          (ret.kind == Return::Kind::AliasesArgument && ret.argument == a))
        continue;
      EffectOverride lie;
      lie.op = op;
      lie.kind = EffectOverride::Kind::ReturnAliases;
      lie.returnIndex = static_cast<uint32_t>(r);
      lie.argument = schema_.arguments[a].name;
      lie.origin = origin() + facts.graph.call + "; return " + std::to_string(r) + " at offset " +
                   std::to_string(facts.aliasOffset[r]);
      addLie(std::move(lie));
    }
  }
  for (size_t a = 0; a < facts.written.size(); ++a) {
    if (!facts.written[a] || (declared_.argumentFlags[a] & TargetEffects::kWrite))
      continue;
    EffectOverride lie;
    lie.op = op;
    lie.kind = EffectOverride::Kind::Writes;
    lie.argument = schema_.arguments[a].name;
    lie.origin = origin() + facts.graph.call;
    addLie(std::move(lie));
  }
}

Auditor::Shape Auditor::shape() const {
  auto any = [&](auto predicate) {
    return std::any_of(schema_.arguments.begin(), schema_.arguments.end(), predicate);
  };
  Shape shape;
  shape.hasList = any([](const SchemaArgument& argument) {
    return argument.type.isTensorLike() && argument.type.isList();
  });
  shape.hasOptional = any([](const SchemaArgument& argument) {
    return argument.type.kind == SchemaType::Kind::OptionalTensor;
  });
  // A mode string the probe must guess (einsum's equation and the like are written by name).
  shape.guessesString = any([](const SchemaArgument& argument) {
    return argument.type.element == "str" && !argument.defaultValue && !argument.type.optional;
  });
  for (const SchemaArgument& argument : schema_.arguments)
    shape.tensors += argument.type.kind == SchemaType::Kind::Tensor ||
                     argument.type.kind == SchemaType::Kind::OptionalTensor;
  shape.hasOptionalValue = any([](const SchemaArgument& argument) {
    return !argument.type.isTensorLike() && argument.type.optional &&
           argument.defaultValue == "None";
  });
  shape.hasScalar = any([](const SchemaArgument& argument) {
    return argument.type.element == "Scalar" && !argument.type.isList();
  });
  return shape;
}

std::optional<Probe> Auditor::findBase(const Shape& shape, std::string& firstError) {
  // The first probe that runs settles shapes, dtype, list length, optional tensors and string;
  // a shape passed as a tensor (_reshape_from_tensor) must hold the sizes it reshapes to.
  std::optional<Probe> base;
  // to_sparse returns a sparse tensor, which no probe reads, unless its layout is given.
  for (int attempt = 0; attempt < 8 && !base; ++attempt) {
    bool none = attempt & 1, sizesAsTensor = attempt & 2, optionsSet = attempt & 4;
    if ((none && !shape.hasOptional) || (sizesAsTensor && shape.tensors < 2) ||
        (optionsSet && !shape.hasOptionalValue))
      continue;
    for (size_t plan = 0; plan < shapePlanCount() && !base; ++plan)
      for (std::string_view dtype : baseDTypes()) {
        for (size_t length : {size_t(2), size_t(1)}) {
          if (length == 1 && !shape.hasList)
            break;
          for (size_t string = 0;
               string < (shape.guessesString ? stringCandidateCount() : 1) && !base; ++string) {
            Probe probe;
            probe.plan = plan;
            probe.dtype = dtype;
            probe.listLength = length;
            probe.optionalTensorsNone = none;
            probe.string = string;
            probe.sizesAsTensor = sizesAsTensor;
            probe.optionals = optionsSet ? Optionals::Options : Optionals::Default;
            probe.kind = sizesAsTensor ? ProbeKind::SizesAsTensor
                         : optionsSet  ? ProbeKind::OptionalsSet
                                       : ProbeKind::Base;
            Result<Facts> facts = runProbe(probe);
            if (facts.ok()) {
              base = probe;
              facts_.push_back(std::move(facts).value());
            } else if (firstError.empty()) {
              firstError = facts.error().message;
            }
          }
          if (base)
            break;
        }
        if (base)
          break;
      }
  }
  return base;
}

std::vector<Probe> Auditor::variations(const Probe& base, const Shape& shape,
                                       std::span<const size_t> plans) const {
  // Every layout, each bool negated and `p` made 0 in turn, the other list length, and float
  // and complex elements.
  std::vector<std::optional<size_t>> flips{std::nullopt};
  for (size_t i = 0; i < schema_.arguments.size(); ++i)
    if (isBool(schema_.arguments[i]) || isProbability(schema_.arguments[i]))
      flips.push_back(i);
  std::vector<Probe> probes;
  auto add = [&](Probe probe, std::optional<size_t> flip = std::nullopt) {
    probe.flipped = flip;
    probes.push_back(probe);
  };
  auto addFlipped = [&](const Probe& probe) {
    for (const std::optional<size_t>& flip : flips)
      add(probe, flip);
  };
  for (size_t plan : plans) {
    Probe start = base;
    start.plan = plan;
    for (size_t length : {base.listLength, 3 - base.listLength}) {
      if (length != base.listLength && !shape.hasList)
        continue;
      for (Layout layout : {Layout::Contiguous, Layout::Transposed, Layout::Offset})
        for (const std::optional<size_t>& flip : flips)
          if (layout != Layout::Contiguous || length != base.listLength || flip) {
            Probe probe = start;
            probe.layout = layout;
            probe.listLength = length;
            add(probe, flip);
          }
    }
    for (std::string_view dtype : variedDTypes())
      if (dtype != base.dtype) {
        Probe probe = start;
        probe.dtype = dtype;
        addFlipped(probe);
      }
    for (std::string_view dtype : otherDTypes())
      if (dtype != base.dtype) {
        Probe probe = start;
        probe.dtype = dtype;
        add(probe);
      }
    // The edges kernels special-case: no elements (native_dropout returns its input), size-1
    // dimensions, memory that is not dense or that elements share, identity scalars, options
    // given, shapes passed as tensors.
    for (Optionals optionals : {Optionals::Default, Optionals::All}) {
      if (optionals == Optionals::All && !shape.hasOptionalValue)
        continue;
      for (Sizes sizes : {Sizes::FirstEmpty, Sizes::AllEmpty}) {
        Probe probe = start;
        probe.kind = ProbeKind::Empty;
        probe.sizes = sizes;
        probe.optionals = optionals == Optionals::Default ? start.optionals : optionals;
        addFlipped(probe);
      }
    }
    for (Sizes sizes : {Sizes::FirstOne, Sizes::AllOne}) {
      Probe probe = start;
      probe.kind = ProbeKind::SizeOne;
      probe.sizes = sizes;
      addFlipped(probe);
    }
    for (Layout layout : {Layout::Strided, Layout::Overlapping}) {
      Probe probe = start;
      probe.kind = layout == Layout::Strided ? ProbeKind::Strided : ProbeKind::Overlapping;
      probe.layout = layout;
      addFlipped(probe);
    }
    if (shape.hasScalar)
      for (std::string_view value : scalarValues()) {
        Probe probe = start;
        probe.kind = ProbeKind::ScalarValues;
        probe.scalar = value;
        add(probe);
      }
    if (shape.hasOptionalValue)
      for (Optionals optionals : {Optionals::Options, Optionals::All}) {
        Probe probe = start;
        probe.kind = ProbeKind::OptionalsSet;
        probe.optionals = optionals;
        addFlipped(probe);
      }
    if (shape.tensors >= 2 && !base.sizesAsTensor) {
      Probe probe = start;
      probe.kind = ProbeKind::SizesAsTensor;
      probe.sizesAsTensor = true;
      addFlipped(probe);
    }
  }
  return probes;
}

void Auditor::findConditions() {
  // A write seen only when some bool argument is true, never when it is false (and the op ran
  // with it false), is conditional on it: batch norm's running statistics and `training`.
  for (EffectOverride& lie : out_.lies) {
    if (lie.kind != EffectOverride::Kind::Writes)
      continue;
    size_t written = *schema_.argumentIndex(lie.argument);
    for (size_t b = 0; b < schema_.arguments.size(); ++b) {
      if (!isBool(schema_.arguments[b]))
        continue;
      bool onlyWhenTrue = true, ranFalse = false;
      const Facts* shown = nullptr;
      for (const Facts& facts : facts_) {
        std::optional<bool> value = facts.graph.bools[b];
        if (value == false)
          ranFalse = true;
        if (facts.written[written]) {
          onlyWhenTrue = onlyWhenTrue && value == true;
          shown = shown ? shown : &facts;
        }
      }
      if (onlyWhenTrue && ranFalse && shown) {
        lie.condition = schema_.arguments[b].name;
        lie.origin = origin() + shown->graph.call;
        break;
      }
    }
  }
}

OverloadAudit Auditor::run() {
  for (const SchemaArgument& argument : schema_.arguments)
    if (std::string why = unsupported(argument); !why.empty()) {
      out_.reason = std::move(why);
      return out_;
    }
  std::string overload = schema_.overload == "default" ? std::string() : schema_.overload;
  if (!c10::Dispatcher::singleton().findSchema({schema_.qualifiedName(), overload})) {
    out_.reason = "no kernel in this libtorch";
    return out_;
  }
  const Shape shape = this->shape();
  std::string firstError;
  std::optional<Probe> base = findBase(shape, firstError);
  if (!base) {
    out_.reason = firstError.find("Could not run") != std::string::npos ? "no CPU kernel"
                                                                        : "every probe failed";
    return out_;
  }
  out_.exercised = true;
  if (declared_.action != TargetEffects::Action::Schema) {
    out_.reason = "effects unknown by schema";
    out_.runs = 1;
    return out_;
  }
  // Every shape plan the op accepts with the base's dtype: batch norm runs in eval mode on 2-D
  // input but needs 3-D input for instance norm's statistics.
  std::vector<size_t> plans{base->plan};
  for (size_t plan = base->plan + 1; plan < shapePlanCount(); ++plan) {
    Probe probe = *base;
    probe.plan = plan;
    Result<Facts> facts = runProbe(probe);
    if (facts.ok()) {
      plans.push_back(plan);
      facts_.push_back(std::move(facts).value());
    }
  }
  for (const Probe& probe : variations(*base, shape, plans)) {
    Result<Facts> facts = runProbe(probe);
    if (facts.ok())
      facts_.push_back(std::move(facts).value());
  }
  for (const Facts& facts : facts_)
    out_.kindsReached |= 1u << static_cast<unsigned>(facts.kind);
  out_.runs = static_cast<unsigned>(facts_.size());
  for (const Facts& facts : facts_)
    compare(facts);
  findConditions();
  std::sort(out_.lies.begin(), out_.lies.end(),
            [](const EffectOverride& a, const EffectOverride& b) { return a.key() < b.key(); });
  return out_;
}

/// Keeps libtorch's warnings (deprecations the probes trigger) off stderr while auditing.
/// libtorch 2.x passes a c10::Warning and moved the guard to c10::WarningUtils.
class SilentWarnings : public c10::WarningHandler {
public:
#if TORCH_VERSION_MAJOR >= 2
  void process(const c10::Warning&) override {}
#else
  void process(const c10::SourceLocation&, const std::string&, const bool) override {}
#endif
};
#if TORCH_VERSION_MAJOR >= 2
using WarningHandlerGuard = c10::WarningUtils::WarningHandlerGuard;
#else
using WarningHandlerGuard = c10::Warning::WarningHandlerGuard;
#endif

} // namespace

OverloadAudit auditOverload(const OpSchema& schema, const AuditOptions& options) {
  SilentWarnings silent;
  WarningHandlerGuard guard(&silent);
  // Most probes of an op fail (wrong shapes, wrong dtype), and libtorch symbolizes a backtrace
  // for each error it throws, which would be most of the audit's time. The messages suffice.
  // There is no getter to restore the fetcher with, and the audit runs in processes of its own.
  c10::SetStackTraceFetcher([] { return std::string(); });
  return Auditor(schema, options).run();
}

std::vector<std::string_view> probeKinds() {
  std::vector<std::string_view> out;
  for (unsigned kind = 0; kind < static_cast<unsigned>(ProbeKind::Count); ++kind)
    out.push_back(probeKindName(static_cast<ProbeKind>(kind)));
  return out;
}

std::string libtorchVersion() {
  return TORCH_VERSION;
}

} // namespace declone::runtime
