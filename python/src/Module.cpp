// The _declone extension: clone elimination on graph text, for declone.fx. Links no libtorch.
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/transforms/CloneElimination.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <stdexcept>

namespace py = pybind11;

namespace {

/// Parses `text` (declone.fx.dumps output), runs the pass on its first graph with `schemas`
/// (the live ops' schemas) layered over the built-ins, and returns one tuple per clone:
/// (node, line, decision, reason or None, detail), in program order.
py::list eliminateClonesInText(const std::string& text, const std::vector<int64_t>& donated,
                               const std::string& mode, const std::vector<std::string>& schemas) {
  auto file = declone::readGraphFile(text);
  if (!file.ok())
    throw std::invalid_argument(file.error().format("<declone.fx.dumps>"));
  declone::SchemaRegistry registry(&declone::SchemaRegistry::builtin());
  for (const std::string& schema : schemas)
    if (!registry.addSchema(schema).ok())
      continue; // a schema our parser cannot read: the op stays conservative
  declone::CloneEliminationOptions options;
  if (mode == "safe")
    options.mode = declone::CloneEliminationMode::Safe;
  else if (mode == "vllm")
    options.mode = declone::CloneEliminationMode::Vllm;
  else
    throw std::invalid_argument("mode must be 'safe' or 'vllm', not '" + mode + "'");
  options.schemas = &registry;
  declone::GraphModule& module = *(*file)->modules.front();
  size_t placeholders = module.graph.placeholders().size();
  options.donated.assign(placeholders, false);
  for (int64_t index : donated) {
    if (index < 0 || static_cast<size_t>(index) >= placeholders)
      throw std::invalid_argument("donated input id " + std::to_string(index) + " is out of range");
    options.donated[static_cast<size_t>(index)] = true;
  }
  declone::CloneEliminationResult result = declone::eliminateClones(module, options);
  py::list remarks;
  for (const declone::Remark& remark : result.remarks) {
    py::object reason = remark.reason ? py::object(py::str(*remark.reason)) : py::none();
    remarks.append(
        py::make_tuple(remark.node, remark.line,
                       remark.decision == declone::Remark::Decision::Removed ? "removed" : "kept",
                       reason, remark.detail));
  }
  return remarks;
}

std::string printText(const std::string& text) {
  auto file = declone::readGraphFile(text);
  if (!file.ok())
    throw std::invalid_argument(file.error().format("<text>"));
  return declone::writeGraphFile(**file);
}

} // namespace

PYBIND11_MODULE(_declone, module) {
  module.doc() = "declone's C++ core: clone elimination on FX graph text";
  module.def("eliminate_clones", &eliminateClonesInText, py::arg("text"), py::arg("donated"),
             py::arg("mode"), py::arg("schemas"),
             "Run clone elimination on graph text; returns (node, line, decision, reason, "
             "detail) per clone.");
  module.def("print_text", &printText, py::arg("text"),
             "Parse graph text and write it back in canonical form.");
}
