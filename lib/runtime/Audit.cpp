// The alias-and-write audit: each probe is a one-node FX graph, run through the executor on
// random inputs; what the op aliased and wrote is compared with its declared effects.
#include "declone/runtime/Audit.h"

#include "Execution.h"
#include "declone/analysis/Effects.h"
#include "declone/io/Reader.h"
#include "declone/schema/SchemaRegistry.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <algorithm>
#include <c10/util/Logging.h>
#include <cstring>
#include <optional>
#include <torch/version.h>

namespace declone::runtime {
namespace {

std::string origin() {
  return std::string(kAuditOriginPrefix) + libtorchVersion() + ": ";
}

enum class Layout : uint8_t { Contiguous, Transposed, Offset };

/// Shapes of the tensor arguments: the first tensor and the elements of tensor lists take
/// `main`, the other tensors `other` (batch norm's input and its per-channel statistics).
struct ShapePlan {
  std::vector<int64_t> main, other;
};
const ShapePlan kShapePlans[] = {
    {{4, 4}, {4, 4}},
    {{4, 4}, {4}},
    {{4}, {4}},
    {{2, 4, 4}, {4}},
    {{2, 4, 4}, {2, 4, 4}},
    {{2, 4, 4, 4}, {4}},
    {{}, {}},
    // Convolutions: input and weight (with the optional bias left out).
    {{2, 4, 4}, {4, 4, 2}},
    {{2, 4, 4, 4}, {4, 4, 2, 2}},
};
/// Elements of room behind each input: more than any probe tensor has.
constexpr int64_t kPadding = 1024;
/// Tried in order until the op runs.
constexpr std::string_view kDTypes[] = {"f32", "i64", "b8", "c64"};
/// Also run wherever the op runs, each bool varied: float and complex (the conj family).
constexpr std::string_view kVariedDTypes[] = {"f32", "c64"};
/// Also run wherever the op runs, with the defaults: ops that return their argument when it
/// has the dtype they convert to (_cast_Long, to_dense of a dense tensor).
constexpr std::string_view kOtherDTypes[] = {"f64", "f16", "bf16", "i64", "i32",
                                             "i16", "i8",  "u8",   "b8"};

std::string_view torchDType(std::string_view dtype) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"f32", "torch.float32"},   {"f64", "torch.float64"},  {"f16", "torch.float16"},
      {"bf16", "torch.bfloat16"}, {"i64", "torch.int64"},    {"i32", "torch.int32"},
      {"i16", "torch.int16"},     {"i8", "torch.int8"},      {"u8", "torch.uint8"},
      {"b8", "torch.bool"},       {"c64", "torch.complex64"}};
  for (const auto& [abbreviation, name] : kNames)
    if (abbreviation == dtype)
      return name;
  return "torch.float32";
}

/// One way to call the op.
struct Probe {
  size_t plan = 0;
  std::string_view dtype = "f32";
  Layout layout = Layout::Contiguous;
  size_t listLength = 2;
  bool optionalTensorsNone = false;
  /// An argument set against its default: a bool negated, the probability `p` made 0.
  std::optional<size_t> flipped;
};

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts)
    out += (out.empty() ? "" : ", ") + part;
  return out;
}

std::string intList(const std::vector<int64_t>& values) {
  std::vector<std::string> parts;
  for (int64_t value : values)
    parts.push_back(std::to_string(value));
  return "[" + join(parts) + "]";
}

/// The arguments probes vary: each bool negated, the probability `p` made 0.
bool isBool(const SchemaArgument& argument) {
  return argument.type.element == "bool" && !argument.type.isList();
}
bool isProbability(const SchemaArgument& argument) {
  return argument.name == "p" && argument.type.element == "float" && !argument.type.isList();
}
std::optional<bool> boolDefault(const SchemaArgument& argument) {
  if (argument.defaultValue == "True")
    return true;
  if (argument.defaultValue == "False")
    return false;
  return std::nullopt;
}

/// Why no probe can pass `argument`, or empty.
std::string unsupported(const SchemaArgument& argument) {
  if (argument.type.isTensorLike())
    return {};
  const std::string& element = argument.type.element;
  bool hasDefault = argument.defaultValue.has_value();
  static constexpr std::string_view kScalars[] = {"int",          "SymInt",     "float",  "bool",
                                                  "Scalar",       "ScalarType", "Layout", "Device",
                                                  "MemoryFormat", "Generator"};
  if (std::find(std::begin(kScalars), std::end(kScalars), element) != std::end(kScalars))
    return {};
  if (element == "str" && (hasDefault || argument.name == "equation" ||
                           argument.name == "indexing" || argument.name == "reduce"))
    return {};
  if (hasDefault || argument.type.optional)
    return {}; // left to its default, or None
  return "argument type " + argument.type.text();
}

struct Placeholder {
  std::string name;
  std::string annotation;
  size_t argument; ///< the schema argument it fills
};

struct ProbeGraph {
  std::string text;
  std::string call; ///< the call, for the origin of findings
  std::vector<Placeholder> placeholders;
  /// The value of every bool argument in this call (explicit or default), by argument.
  std::vector<std::optional<bool>> bools;
};

/// Writes the probe as FX graph text: one placeholder per tensor, one call, its result returned.
class ProbeBuilder {
public:
  ProbeBuilder(const OpSchema& schema, const Probe& probe) : schema_(schema), probe_(probe) {}

  ProbeGraph build() {
    ProbeGraph out;
    out.bools.resize(schema_.arguments.size());
    std::vector<std::string> positional, keywords;
    bool keywordOnly = false;
    for (size_t i = 0; i < schema_.arguments.size(); ++i) {
      const SchemaArgument& argument = schema_.arguments[i];
      std::optional<std::string> value = this->value(argument, i);
      if (isBool(argument))
        out.bools[i] = value ? std::optional<bool>(*value == "True") : boolDefault(argument);
      if (!value) { // its default: later arguments go by name
        keywordOnly = true;
        continue;
      }
      if (argument.kwargOnly || keywordOnly)
        keywords.push_back(argument.name + " = " + *value);
      else
        positional.push_back(*value);
    }
    std::vector<std::string> arguments = positional;
    arguments.insert(arguments.end(), keywords.begin(), keywords.end());
    std::string target = "torch.ops." + schema_.opNamespace + "." + schema_.name + "." +
                         (schema_.overload.empty() ? "default" : schema_.overload);
    out.call = schema_.qualifiedName() + (schema_.overload.empty() ? "" : "." + schema_.overload) +
               "(" + join(arguments) + ")";
    std::vector<std::string> signature{"self"};
    for (const Placeholder& placeholder : placeholders_) {
      signature.push_back(placeholder.name + ": \"" + placeholder.annotation + "\"");
      out.call += (&placeholder == &placeholders_.front() ? " on " : ", ") + placeholder.name +
                  ": " + placeholder.annotation;
    }
    out.text = "def forward(" + join(signature) + "):\n    result = " + target + "(" +
               join(arguments) + ")\n    return (result,)\n";
    out.placeholders = std::move(placeholders_);
    return out;
  }

private:
  std::string tensor(size_t argument, std::string_view dtype, const std::vector<int64_t>& sizes) {
    std::string name = "a" + std::to_string(placeholders_.size());
    size_t rank = sizes.size();
    // Strides: row-major, or row-major over the last two dimensions swapped (a transpose).
    std::vector<size_t> order(rank);
    for (size_t d = 0; d < rank; ++d)
      order[d] = d;
    if (probe_.layout == Layout::Transposed && rank >= 2)
      std::swap(order[rank - 1], order[rank - 2]);
    std::vector<int64_t> strides(rank);
    int64_t stride = probe_.layout == Layout::Transposed && rank == 1 ? 2 : 1;
    for (size_t k = rank; k-- > 0;) {
      strides[order[k]] = stride;
      stride *= sizes[order[k]];
    }
    std::string annotation = std::string(dtype) + intList(sizes) + intList(strides) + "cpu" +
                             (probe_.layout == Layout::Offset ? "@3" : "");
    placeholders_.push_back({name, annotation, argument});
    return name;
  }

  std::string tensorFor(size_t argument) {
    const ShapePlan& plan = kShapePlans[probe_.plan];
    bool first = !firstTaken_;
    firstTaken_ = true;
    return tensor(argument, probe_.dtype, first ? plan.main : plan.other);
  }

  std::string tensorList(size_t argument, bool indices) {
    const ShapePlan& plan = kShapePlans[probe_.plan];
    firstTaken_ = true;
    std::vector<std::string> items;
    for (size_t k = 0; k < probe_.listLength; ++k)
      // Tensor?[] is the index list of advanced indexing: small integers.
      items.push_back(indices ? tensor(argument, "i64", {2})
                              : tensor(argument, probe_.dtype, plan.main));
    return "[" + join(items) + "]";
  }

  std::optional<std::string> value(const SchemaArgument& argument, size_t index) {
    const SchemaType& type = argument.type;
    bool hasDefault = argument.defaultValue.has_value();
    bool flipped = probe_.flipped == index;
    switch (type.kind) {
    case SchemaType::Kind::Tensor:
      return tensorFor(index);
    case SchemaType::Kind::OptionalTensor:
      if (probe_.optionalTensorsNone)
        return hasDefault ? std::nullopt : std::optional<std::string>("None");
      return tensorFor(index);
    case SchemaType::Kind::TensorList:
      return tensorList(index, false);
    case SchemaType::Kind::OptionalTensorList:
      return tensorList(index, true);
    case SchemaType::Kind::Other:
      break;
    }
    const std::string& element = type.element;
    const std::string& name = argument.name;
    if (flipped && isBool(argument))
      return boolDefault(argument).value_or(false) ? "False" : "True";
    if (flipped && isProbability(argument))
      return "0.0";
    if (hasDefault)
      return std::nullopt;
    if (type.isList()) {
      size_t count = 2;
      if (type.listSuffix.size() > 2)
        count = std::stoul(type.listSuffix.substr(1, type.listSuffix.size() - 2));
      const std::vector<int64_t>& main = kShapePlans[probe_.plan].main;
      std::vector<int64_t> values(count, 2);
      if (element == "bool")
        return "[" + join(std::vector<std::string>(count, "True")) + "]";
      if (element == "float")
        return "[" + join(std::vector<std::string>(count, "0.5")) + "]";
      if (name == "size" || name == "shape" || name == "sizes")
        values = main;
      else if (name == "dims" || name == "perm") {
        values.clear();
        for (size_t d = main.size(); d-- > 0;)
          values.push_back(static_cast<int64_t>(d));
      } else if (name == "dim")
        values = {0};
      else if (name == "stride" && !schema_.argumentIndex("padding")) { // as_strided's
        values.assign(main.size(), 1);
        for (size_t d = main.size(); d-- > 1;)
          values[d - 1] = values[d] * main[d];
      } else if (name == "stride" || name == "dilation")
        values.assign(count, 1); // a convolution's or a pooling's
      else if (name == "padding" || name == "output_padding")
        values.assign(count, 0);
      return intList(values);
    }
    if (type.optional)
      return "None";
    if (element == "int" || element == "SymInt") {
      if (name == "dim1" || name == "index")
        return "1";
      if (name.starts_with("dim") || name == "axis" || name == "groups")
        return name == "groups" ? "1" : "0";
      return "2";
    }
    if (element == "float") {
      if (name == "momentum")
        return "0.1";
      if (name == "eps" || name == "epsilon")
        return "1e-05";
      return "0.5";
    }
    if (element == "bool")
      return "False";
    if (element == "Scalar")
      return "2";
    if (element == "ScalarType")
      return std::string(torchDType(probe_.dtype));
    if (element == "Layout")
      return "torch.strided";
    if (element == "Device")
      return "device(type='cpu')";
    if (element == "MemoryFormat")
      return "torch.contiguous_format";
    if (name == "indexing") // meshgrid's
      return "'ij'";
    if (name == "reduce") // scatter_reduce's, index_reduce's
      return "'sum'";
    if (element == "str") // einsum's equation, for one operand or two
      return probe_.listLength == 1 ? "'ij'" : "'ij,jk->ik'";
    return "None";
  }

  const OpSchema& schema_;
  const Probe& probe_;
  std::vector<Placeholder> placeholders_;
  bool firstTaken_ = false;
};

/// What one probe showed.
struct Facts {
  ProbeGraph graph;
  std::vector<std::vector<bool>> aliases; ///< [return][argument]
  std::vector<int64_t> aliasOffset;       ///< [return]: the first aliasing tensor's offset
  std::vector<bool> written;              ///< [argument]
};

std::vector<at::Tensor> tensorsOf(const c10::IValue& value) {
  std::vector<at::Tensor> out;
  if (value.isTensor()) {
    if (value.toTensor().defined())
      out.push_back(value.toTensor());
  } else if (value.isTensorList()) {
    for (const at::Tensor& tensor : value.toTensorVector())
      if (tensor.defined())
        out.push_back(tensor);
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
  /// Runs one probe; the error message when libtorch refused it.
  Result<Facts> runProbe(const Probe& probe);
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
  unsigned ordinal = ordinal_++;
  if (std::find(options_.skip.begin(), options_.skip.end(), ordinal) != options_.skip.end())
    return Error{"skipped: the kernel crashed on this probe"};
  if (options_.beforeProbe)
    options_.beforeProbe(ordinal);
  Facts facts;
  facts.graph = ProbeBuilder(schema_, probe).build();
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(facts.graph.text);
  if (!file.ok())
    return Error{"the probe does not parse: " + file.error().message};
  const Graph& graph = (*file)->modules.at(0)->graph;
  Result<detail::Inputs> inputs = detail::makeInputs(graph, seed_);
  if (!inputs.ok())
    return inputs.error();
  std::vector<at::Tensor> before;
  for (detail::InputValue& input : inputs->values) {
    // Integers index and count: keep them small enough to be valid indices into any probe.
    if (at::isIntegralType(input.base.scalar_type(), /*includeBool=*/false))
      input.base.remainder_(2);
    // Room behind every input: kernels that trust sizes they do not check (rrelu_with_noise
    // fills `noise` as if it were as large as its input) write there instead of over the heap,
    // which counts as a write to that input.
    at::Tensor padded = at::zeros({input.base.numel() + kPadding}, input.base.options());
    padded.narrow(0, 0, input.base.numel()).copy_(input.base);
    const at::Tensor& view = input.value.toTensor();
    input.value = padded.as_strided(view.sizes(), view.strides(), view.storage_offset());
    input.base = padded;
    before.push_back(padded.clone());
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
  Result<std::vector<c10::IValue>> outputs = detail::execute(graph, *inputs, &values);
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
    const at::Tensor& input = inputs->values[k].value.toTensor();
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
  bool hasList = std::any_of(schema_.arguments.begin(), schema_.arguments.end(),
                             [](const SchemaArgument& argument) {
                               return argument.type.isTensorLike() && argument.type.isList();
                             });
  bool hasOptional = std::any_of(schema_.arguments.begin(), schema_.arguments.end(),
                                 [](const SchemaArgument& argument) {
                                   return argument.type.kind == SchemaType::Kind::OptionalTensor;
                                 });
  // The first probe that runs settles shapes, dtype, list length and optional tensors.
  std::optional<Probe> base;
  std::string firstError;
  for (bool none : {false, true}) {
    if (none && !hasOptional)
      break;
    for (size_t plan = 0; plan < std::size(kShapePlans) && !base; ++plan)
      for (std::string_view dtype : kDTypes) {
        for (size_t length : {size_t(2), size_t(1)}) {
          if (length == 1 && !hasList)
            break;
          Probe probe{plan, dtype, Layout::Contiguous, length, none, std::nullopt};
          Result<Facts> facts = runProbe(probe);
          if (facts.ok()) {
            base = probe;
            facts_.push_back(std::move(facts).value());
            break;
          }
          if (firstError.empty())
            firstError = facts.error().message;
        }
        if (base)
          break;
      }
    if (base)
      break;
  }
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
  // Then every layout, each bool negated and `p` made 0 in turn, the other list length, and
  // float and complex elements.
  std::vector<std::optional<size_t>> flips{std::nullopt};
  for (size_t i = 0; i < schema_.arguments.size(); ++i)
    if (isBool(schema_.arguments[i]) || isProbability(schema_.arguments[i]))
      flips.push_back(i);
  // Every shape plan the op accepts with the base's dtype: batch norm runs in eval mode on 2-D
  // input but needs 3-D input for instance norm's statistics.
  std::vector<size_t> plans{base->plan};
  for (size_t plan = base->plan + 1; plan < std::size(kShapePlans); ++plan) {
    Probe probe = *base;
    probe.plan = plan;
    Result<Facts> facts = runProbe(probe);
    if (facts.ok()) {
      plans.push_back(plan);
      facts_.push_back(std::move(facts).value());
    }
  }
  std::vector<Probe> probes;
  for (size_t plan : plans) {
    for (size_t length : {base->listLength, 3 - base->listLength}) {
      if (length != base->listLength && !hasList)
        continue;
      for (Layout layout : {Layout::Contiguous, Layout::Transposed, Layout::Offset})
        for (const std::optional<size_t>& flip : flips)
          if (layout != Layout::Contiguous || length != base->listLength || flip)
            probes.push_back({plan, base->dtype, layout, length, base->optionalTensorsNone, flip});
    }
    for (std::string_view dtype : kVariedDTypes)
      if (dtype != base->dtype)
        for (const std::optional<size_t>& flip : flips)
          probes.push_back(
              {plan, dtype, Layout::Contiguous, base->listLength, base->optionalTensorsNone, flip});
    for (std::string_view dtype : kOtherDTypes)
      if (dtype != base->dtype)
        probes.push_back({plan, dtype, Layout::Contiguous, base->listLength,
                          base->optionalTensorsNone, std::nullopt});
  }
  for (const Probe& probe : probes) {
    Result<Facts> facts = runProbe(probe);
    if (facts.ok())
      facts_.push_back(std::move(facts).value());
  }
  out_.runs = static_cast<unsigned>(facts_.size());
  for (const Facts& facts : facts_)
    compare(facts);
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

std::string libtorchVersion() {
  return TORCH_VERSION;
}

} // namespace declone::runtime
