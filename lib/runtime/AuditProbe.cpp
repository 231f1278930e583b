// The effect audit's probes: the shapes, layouts, dtypes and argument values it calls ops with,
// written as one-node FX graphs.
#include "AuditProbe.h"

#include <algorithm>
#include <array>

namespace declone::runtime::audit {
namespace {

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
/// Tried in order until the op runs.
constexpr std::string_view kDTypes[] = {"f32", "i64", "b8", "c64"};
/// Also run wherever the op runs, each bool varied: float and complex (the conj family).
constexpr std::string_view kVariedDTypes[] = {"f32", "c64"};
/// Also run wherever the op runs, with the defaults: ops that return their argument when it
/// has the dtype they convert to (_cast_Long, to_dense of a dense tensor).
constexpr std::string_view kOtherDTypes[] = {"f64", "f16", "bf16", "i64", "i32",
                                             "i16", "i8",  "u8",   "b8"};
/// Identities and special cases kernels short-cut on (pow(x, 1), a multiplication by 0), a
/// float, a bool and a complex value: a Scalar of each kind.
constexpr std::string_view kScalarValues[] = {"0", "1", "-1", "0.5", "True", "(1+1j)"};
/// For `str` arguments without a default whose name says nothing: the modes PyTorch's ops take
/// (reductions, paddings, interpolation, rounding, searchsorted's side, gelu's approximation).
constexpr std::string_view kStrings[] = {
    "'sum'",      "'mean'",     "'none'",      "'same'",     "'valid'", "'left'",
    "'linear'",   "'nearest'",  "'reflect'",   "'floor'",    "'trunc'", "'tanh'",
    "'bilinear'", "'constant'", "'replicate'", "'circular'", "'amax'",  "'prod'"};

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

bool dimensionName(const std::string& name) {
  return name.starts_with("dim") || name == "axis";
}

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
    if (probe_.kind != ProbeKind::Base)
      out.call = "[" + std::string(probeKindName(probe_.kind)) + "] ";
    out.call += schema_.qualifiedName() + (schema_.overload.empty() ? "" : "." + schema_.overload) +
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
  /// A placeholder of `sizes` as the probe changes them (`first`: the first tensor's); with
  /// `exact`, of `sizes` as given.
  std::string tensor(size_t argument, std::string_view dtype, std::vector<int64_t> sizes,
                     bool first, bool exact = false) {
    std::string name = "a" + std::to_string(placeholders_.size());
    size_t rank = sizes.size();
    bool resized =
        !exact && (first || probe_.sizes == Sizes::AllEmpty || probe_.sizes == Sizes::AllOne);
    if (rank && resized && (probe_.sizes == Sizes::FirstEmpty || probe_.sizes == Sizes::AllEmpty))
      sizes[0] = 0;
    if (rank && resized && probe_.sizes == Sizes::FirstOne)
      sizes[0] = 1;
    if (resized && probe_.sizes == Sizes::AllOne)
      std::fill(sizes.begin(), sizes.end(), 1);
    if (first && firstSizes_.empty())
      firstSizes_ = sizes;
    // Strides: row-major, or row-major over the last two dimensions swapped (a transpose).
    Layout layout = exact ? Layout::Contiguous : probe_.layout;
    std::vector<size_t> order(rank);
    for (size_t d = 0; d < rank; ++d)
      order[d] = d;
    if (layout == Layout::Transposed && rank >= 2)
      std::swap(order[rank - 1], order[rank - 2]);
    std::vector<int64_t> strides(rank);
    int64_t stride =
        (layout == Layout::Transposed && rank == 1) || layout == Layout::Strided ? 2 : 1;
    for (size_t k = rank; k-- > 0;) {
      strides[order[k]] = stride;
      stride *= std::max<int64_t>(sizes[order[k]], 1);
    }
    if (layout == Layout::Overlapping && rank)
      strides[0] = 0;
    std::string annotation = std::string(dtype) + intList(sizes) + intList(strides) + "cpu" +
                             (layout == Layout::Offset ? "@3" : "");
    placeholders_.push_back({name, annotation, argument, {}});
    return name;
  }

  std::string tensorFor(size_t argument) {
    const ShapePlan& plan = kShapePlans[probe_.plan];
    bool first = !firstTaken_;
    firstTaken_ = true;
    if (!first && probe_.sizesAsTensor) {
      // A shape as a tensor: the first tensor's sizes, exactly (reshape to itself).
      std::string name = tensor(argument, "i64", {static_cast<int64_t>(firstSizes_.size())}, false,
                                /*exact=*/true);
      placeholders_.back().contents = firstSizes_;
      return name;
    }
    return tensor(argument, probe_.dtype, first ? plan.main : plan.other, first);
  }

  std::string tensorList(size_t argument, bool indices) {
    const ShapePlan& plan = kShapePlans[probe_.plan];
    bool first = !firstTaken_;
    firstTaken_ = true;
    std::vector<std::string> items;
    for (size_t k = 0; k < probe_.listLength; ++k)
      // Tensor?[] is the index list of advanced indexing: small integers.
      items.push_back(indices ? tensor(argument, "i64", {2}, false)
                              : tensor(argument, probe_.dtype, plan.main, first));
    return "[" + join(items) + "]";
  }

  /// A value for an optional non-tensor argument whose default is None (OptionalsSet).
  std::optional<std::string> optionalValue(const SchemaArgument& argument) {
    const std::string& element = argument.type.element;
    if (element == "bool")
      return "True";
    if (probe_.optionals == Optionals::Options)
      return optionValue(element, "torch.preserve_format");
    if (argument.type.isList())
      return element == "int" || element == "SymInt" ? std::optional<std::string>("[0]")
                                                     : std::nullopt;
    if (element == "int" || element == "SymInt")
      return dimensionName(argument.name) ? "0" : "1";
    if (element == "float")
      return "0.5";
    if (element == "Scalar")
      return "1";
    return optionValue(element, "torch.preserve_format");
  }

  /// A dtype (the probe's), the strided layout, the CPU or `memoryFormat`, as `element` asks;
  /// nullopt for other kinds.
  std::optional<std::string> optionValue(const std::string& element,
                                         std::string_view memoryFormat) {
    if (element == "ScalarType")
      return std::string(torchDType(probe_.dtype));
    if (element == "Layout")
      return "torch.strided";
    if (element == "Device")
      return "device(type='cpu')";
    if (element == "MemoryFormat")
      return std::string(memoryFormat);
    return std::nullopt;
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
    if (probe_.scalar && element == "Scalar" && !type.isList())
      return std::string(*probe_.scalar);
    if (probe_.optionals != Optionals::Default && type.optional && argument.defaultValue == "None")
      if (std::optional<std::string> value = optionalValue(argument))
        return value;
    if (hasDefault)
      return std::nullopt;
    if (element == "Storage") // the storage of a tensor: the executor passes a tensor's
      return tensorFor(index);
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
      if (dimensionName(name) || name == "groups")
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
    if (element == "complex")
      return "(1+1j)";
    if (std::optional<std::string> option = optionValue(element, "torch.contiguous_format"))
      return option;
    if (name == "indexing") // meshgrid's
      return "'ij'";
    if (name == "reduce") // scatter_reduce's, index_reduce's
      return "'sum'";
    if (name == "equation") // einsum's, for one operand or two
      return probe_.listLength == 1 ? "'ij'" : "'ij,jk->ik'";
    if (element == "str")
      return std::string(kStrings[probe_.string % std::size(kStrings)]);
    return "None";
  }

  const OpSchema& schema_;
  const Probe& probe_;
  std::vector<Placeholder> placeholders_;
  bool firstTaken_ = false;
  std::vector<int64_t> firstSizes_; ///< the first tensor's sizes, once made
};

} // namespace

std::string_view probeKindName(ProbeKind kind) {
  static constexpr std::array<std::string_view, static_cast<size_t>(ProbeKind::Count)> kNames = {
      "base",
      "empty tensors",
      "size-1 dimensions",
      "strided (not dense)",
      "overlapping (stride 0)",
      "scalar values",
      "optionals set",
      "sizes as a tensor"};
  return kNames[static_cast<size_t>(kind)];
}

size_t shapePlanCount() {
  return std::size(kShapePlans);
}
std::span<const std::string_view> baseDTypes() {
  return kDTypes;
}
std::span<const std::string_view> otherDTypes() {
  return kOtherDTypes;
}
std::span<const std::string_view> variedDTypes() {
  return kVariedDTypes;
}
std::span<const std::string_view> scalarValues() {
  return kScalarValues;
}
size_t stringCandidateCount() {
  return std::size(kStrings);
}

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

std::string unsupported(const SchemaArgument& argument) {
  if (argument.type.isTensorLike())
    return {};
  const std::string& element = argument.type.element;
  bool hasDefault = argument.defaultValue.has_value();
  static constexpr std::string_view kValues[] = {
      "int",    "SymInt",       "float",     "bool", "Scalar",  "ScalarType", "Layout",
      "Device", "MemoryFormat", "Generator", "str",  "complex", "Storage"};
  bool single = element == "str" || element == "complex" || element == "Storage";
  if (std::find(std::begin(kValues), std::end(kValues), element) != std::end(kValues) &&
      (!single || !argument.type.isList()))
    return {};
  if (hasDefault || argument.type.optional)
    return {}; // left to its default, or None
  return "argument type " + argument.type.text();
}

ProbeGraph buildProbe(const OpSchema& schema, const Probe& probe) {
  return ProbeBuilder(schema, probe).build();
}

} // namespace declone::runtime::audit
