// Parsing and resolution of the clone-elimination flags.
#include "CloneFlags.h"

#include "Input.h"

#include <algorithm>
#include <charconv>
#include <iostream>

namespace declone::cli {

void CloneFlags::addTo(ArgumentParser& parser, bool withDonated) {
  parser.option(
      "--mode", "safe|vllm|vllm-0.32",
      "safe: every rule of the design (default); vllm: the\n"
      "                          UnsafeCloneEliminationPass of vLLM 0.33.0; vllm-0.32: that\n"
      "                          of vLLM 0.32.0 (no check that outputs gain aliases)",
      &mode);
  if (withDonated)
    parser.option("--donated", "LIST",
                  "donated placeholders, by index (Sym ones counted) or name, comma separated",
                  &donated);
  parser.repeated("--schemas", "FILE", "more op schemas, one per line (may be repeated)",
                  &schemaFiles);
  parser.flag("--assume-dense-inputs",
              "graph inputs whose annotations print no strides are contiguous (remarks say\n"
              "                          which decisions rest on it)",
              &assumeDenseInputs);
  addFakeTensorFlag(parser, &fakeTensor, &fakeTensorImports);
  addInputSizeFlag(parser, &maxInputSize);
}

void addFakeTensorFlag(ArgumentParser& parser, bool* out, std::vector<std::string>* imports) {
  parser.flag("--fake-tensor",
              "run the ops whose result layout no rule gives under PyTorch's FakeTensorMode\n"
              "                          (static sizes, CPU tensors; Python with torch:\n"
              "                          $DECLONE_PYTHON, else python3; 5 s a call:\n"
              "                          $DECLONE_FAKE_TENSOR_TIMEOUT)",
              out);
  parser.repeated("--fake-tensor-import", "MODULE",
                  "import MODULE (a name on PYTHONPATH or in the current\n"
                  "                          directory, or a .py file) in --fake-tensor's Python\n"
                  "                          first, for the custom ops it defines; implies\n"
                  "                          --fake-tensor (may be repeated)",
                  imports);
}

LayoutOptions CloneFlags::layoutOptions() const {
  return {assumeDenseInputs, oracle_.get()};
}

CloneEliminationOptions CloneFlags::baseOptions() const {
  CloneEliminationOptions options;
  options.mode = mode_;
  options.schemas = schemas_.get();
  options.layout = layoutOptions();
  return options;
}

bool CloneFlags::prepare() {
  if (!setInputSizeLimit(maxInputSize))
    return false;
  resolveFakeTensorFlags(fakeTensor, fakeTensorImports);
  if (fakeTensor)
    oracle_ =
        std::make_unique<FakeTensorOracle>(FakeTensorOracle::defaultPython(), fakeTensorImports);
  if (std::optional<CloneEliminationMode> parsed = parseMode(mode)) {
    mode_ = *parsed;
  } else {
    reportUsageError("--mode must be " + std::string(kModeNames) + ", not '" + mode + "'");
    return false;
  }
  if (schemaFiles.empty())
    return true;
  // Layered over the built-ins rather than a copy of them: a copy would parse every one.
  schemas_ = std::make_unique<SchemaRegistry>(&SchemaRegistry::builtin());
  for (const std::string& path : schemaFiles) {
    Status loaded = schemas_->loadFile(path);
    if (!loaded.ok()) {
      reportDiagnostic(path, loaded.error());
      return false;
    }
  }
  return true;
}

Result<CloneEliminationOptions> CloneFlags::optionsFor(const GraphModule& module) const {
  if (oracle_)
    oracle_->checkDevices(module, "");
  CloneEliminationOptions options;
  options.mode = mode_;
  options.schemas = schemas_.get();
  options.layout = layoutOptions();
  Result<std::vector<bool>> donatedInputs = parseDonatedList(donated, module.graph);
  if (!donatedInputs.ok())
    return donatedInputs.error();
  options.donated = std::move(donatedInputs).value();
  return options;
}

Result<std::vector<bool>> parseDonatedList(std::string_view list, const Graph& graph) {
  std::vector<Node*> placeholders = graph.placeholders();
  std::vector<bool> donated(placeholders.size(), false);
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    while (!item.empty() && item.front() == ' ')
      item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ')
      item.remove_suffix(1);
    if (item.empty())
      continue;
    size_t index = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), index);
    if (ec == std::errc() && end == item.data() + item.size()) {
      if (index >= placeholders.size())
        return Error{"--donated: index " + std::string(item) + " is out of range (the graph has " +
                     std::to_string(placeholders.size()) + " placeholders)"};
      donated[index] = true;
      continue;
    }
    auto found = std::find_if(placeholders.begin(), placeholders.end(), [&](Node* node) {
      // Either name of a Dynamo placeholder: `l_x_` or `L_x_`.
      return node->name() == item || node->parameterName() == item;
    });
    if (found == placeholders.end())
      return Error{"--donated: '" + std::string(item) + "' is not a placeholder of the graph"};
    donated[found - placeholders.begin()] = true;
  }
  return donated;
}

} // namespace declone::cli
