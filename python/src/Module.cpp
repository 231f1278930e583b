// The _declone extension: the C++ graph, the clone-elimination pass and its remarks, for
// declone.fx. Links no libtorch: torch's types arrive as objects from declone.fx.
#include "FxImport.h"
#include "declone/analysis/OpModel.h"
#include "declone/analysis/SizeShrink.h"
#include "declone/io/Writer.h"
#include "declone/transforms/CloneElimination.h"
#include "declone/transforms/Defunctionalization.h"

#include <map>
#include <optional>
#include <pybind11/stl.h>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace py = pybind11;
using declone::python::FxImporter;
using declone::python::ImportedGraph;
using declone::python::TorchTypes;

namespace {

declone::CloneEliminationMode parseMode(const std::string& mode) {
  if (std::optional<declone::CloneEliminationMode> parsed = declone::parseMode(mode))
    return *parsed;
  throw std::invalid_argument("mode must be " + std::string(declone::kModeNames) + ", not '" +
                              mode + "'");
}

std::vector<bool> donatedMask(const declone::Graph& graph, const std::vector<int64_t>& donated) {
  size_t placeholders = graph.placeholders().size();
  std::vector<bool> mask(placeholders, false);
  for (int64_t index : donated) {
    if (index < 0 || static_cast<size_t>(index) >= placeholders)
      throw std::invalid_argument("donated input id " + std::to_string(index) +
                                  " is out of range (the graph has " +
                                  std::to_string(placeholders) + " placeholders)");
    mask[static_cast<size_t>(index)] = true;
  }
  return mask;
}

/// Runs the pass on an imported live graph. Returns the remarks and the fx nodes of the removed
/// clones in program order; replaying `replace_all_uses_with(node.args[0])` and `erase_node` on
/// them in that order rewrites the live graph as the pass rewrote the C++ one, because each
/// decision was made on the graph as rewritten so far.
py::tuple eliminateClones(ImportedGraph& imported, const std::vector<int64_t>& donated,
                          const std::string& mode) {
  declone::CloneEliminationOptions options;
  options.mode = parseMode(mode);
  options.schemas = &imported.schemas();
  options.donated = donatedMask(imported.module().graph, donated);
  imported.forgetShrinker();
  std::vector<declone::Remark> remarks =
      declone::eliminateClones(imported.module(), options).remarks;
  py::list removed;
  for (const declone::Remark& remark : remarks)
    if (remark.decision == declone::Remark::Decision::Removed) {
      py::handle node = imported.fxNode(remark.node);
      if (!node)
        throw std::logic_error("removed clone '" + remark.node + "' has no fx node");
      removed.append(node);
    }
  return py::make_tuple(py::cast(std::move(remarks)), removed);
}

/// Runs defunctionalization on an imported live graph. Returns the remarks, the fx nodes of the
/// rewritten calls in program order, and the names of the other nodes the rewrite erased (the
/// slice_scatter steps that wrote a call's copies back into their base, which the base itself
/// replaces): declone.fx replays the rewrite of each call on the live graph (the rules are
/// DESIGN.md section 4b's, restated in declone/_defunctionalize.py).
py::tuple defunctionalize(ImportedGraph& imported, const std::vector<int64_t>& donated) {
  declone::DefunctionalizationOptions options;
  options.schemas = &imported.schemas();
  options.donated = donatedMask(imported.module().graph, donated);
  std::vector<std::string> before;
  for (const declone::Node* node : imported.module().graph)
    before.emplace_back(node->name());
  imported.forgetShrinker();
  declone::DefunctionalizationResult result = declone::defunctionalize(imported.module(), options);
  py::list rewritten;
  std::unordered_set<std::string_view> calls;
  for (const std::string& name : result.rewritten) {
    py::handle node = imported.fxNode(name);
    if (!node)
      throw std::logic_error("rewritten call '" + name + "' has no fx node");
    rewritten.append(node);
    calls.insert(name);
  }
  py::list erased;
  if (result.changed) {
    std::unordered_set<std::string_view> after;
    for (const declone::Node* node : imported.module().graph)
      after.insert(node->name());
    for (const std::string& name : before)
      if (!after.count(name) && !calls.count(name))
        erased.append(name);
  }
  return py::make_tuple(py::cast(std::move(result.remarks)), rewritten, erased);
}

// --- sizes: the planner of smaller sizes for live verification (declone/_shrink.py) ----------

/// (from, to) pairs, as Python passes and receives a plan.
using SizePairs = std::vector<std::pair<int64_t, int64_t>>;

std::vector<declone::SizeChange> toChanges(const SizePairs& pairs) {
  std::vector<declone::SizeChange> changes;
  for (const auto& [from, to] : pairs)
    changes.push_back({from, to});
  return changes;
}

SizePairs toPairs(const std::vector<declone::SizeChange>& changes) {
  SizePairs pairs;
  for (const declone::SizeChange& change : changes)
    pairs.emplace_back(change.from, change.to);
  return pairs;
}

const declone::Node* nodeNamed(const declone::GraphModule& module, std::string_view name) {
  for (const declone::Node* node : module.graph)
    if (node->name() == name)
      return node;
  for (const auto& child : module.children)
    if (const declone::Node* node = nodeNamed(*child, name))
      return node;
  return nullptr;
}

/// The sizes a mismatch at the node named `name` may be blamed on, those that account for most
/// bytes first (the others, largest first, after them).
std::vector<int64_t> sizesAt(ImportedGraph& imported, const std::string& name) {
  const declone::Node* node = nodeNamed(imported.module(), name);
  if (!node)
    throw py::key_error("the graph has no node named '" + name + "'");
  const declone::SizeShrinker& shrinker = imported.shrinker();
  std::set<int64_t> sizes = shrinker.sizesAt(*node);
  std::vector<int64_t> ranked;
  for (const auto& [size, bytes] : shrinker.dominantSizes(SIZE_MAX))
    if (sizes.erase(size))
      ranked.push_back(size);
  ranked.insert(ranked.end(), sizes.rbegin(), sizes.rend());
  return ranked;
}

/// The size arguments of the graph's calls (nested bodies' excluded: the live graph's own
/// nodes are what Python edits) that `changes` rewrite, as (node name, position or None,
/// keyword or None, element or None, new value).
py::list sizeEdits(ImportedGraph& imported, const SizePairs& pairs) {
  py::list out;
  for (const declone::SizeEdit& edit :
       declone::sizeEdits(imported.module().graph, toChanges(pairs))) {
    py::object position = edit.position >= 0 ? py::object(py::int_(edit.position)) : py::none();
    py::object keyword = edit.position >= 0 ? py::none() : py::object(py::str(edit.keyword));
    py::object element = edit.element >= 0 ? py::object(py::int_(edit.element)) : py::none();
    out.append(
        py::make_tuple(std::string(edit.node->name()), position, keyword, element, edit.value));
  }
  return out;
}

} // namespace

PYBIND11_MODULE(_declone, module) {
  module.doc() = "declone's C++ core: the graph, clone elimination, defunctionalization and "
                 "their remarks";
  module.def(
      "vllm_version",
      [](const std::string& mode) { return std::string(declone::vllmVersion(parseMode(mode))); },
      py::arg("mode"),
      "The vLLM release the clone-elimination mode reproduces ('0.33.0'), '' for 'safe'; raises "
      "ValueError unless `mode` names a mode ('safe', 'vllm' (vLLM 0.33.0), 'vllm-0.32').");

  module.def(
      "in_place_layout_ops",
      [] {
        std::vector<std::string> names;
        for (const declone::OpName& op : declone::inPlaceLayoutChangers())
          names.push_back(std::string(op.opNamespace) + "::" + std::string(op.name));
        return names;
      },
      "The ops that change a tensor's sizes, strides, offset or storage in place, as schema "
      "names ('aten::t_'): the op model's list (declone/analysis/OpModel.h).");

  module.def(
      "changed_size",
      [](int64_t value, const SizePairs& changes) {
        return declone::changedSize(value, toChanges(changes));
      },
      py::arg("value"), py::arg("changes"),
      "A size (or offset) after `changes`, (from, to) pairs: itself when none applies, a "
      "negative one by its magnitude.");
  module.def(
      "changed_strides",
      [](const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
         const std::vector<int64_t>& newSizes, const SizePairs& changes) {
        return declone::changedStrides(sizes, strides, newSizes, toChanges(changes));
      },
      py::arg("sizes"), py::arg("strides"), py::arg("new_sizes"), py::arg("changes"),
      "The strides a tensor of `sizes` and `strides` has at `new_sizes` (declone::changedStrides): "
      "dense layouts stay dense in the same order, a gap keeps its width (changed where it is "
      "itself a changed size); None when the layout cannot follow.");
  module.def(
      "describe_size_changes",
      [](const SizePairs& changes) { return declone::describeSizeChanges(toChanges(changes)); },
      py::arg("changes"), "'32768 -> 16, 151936 -> 32', as verdicts name the sizes a run used.");

  py::class_<declone::Remark> remark(module, "Remark",
                                     "One decision about a clone, or about a copy a "
                                     "functionalized call implies; str() is the text remark "
                                     "of `declone opt --remarks`.");
  remark
      .def(py::init([](std::string node, uint32_t line, const std::string& decision,
                       std::optional<std::string> reason, std::string detail, std::string source,
                       std::string code, std::string copy, std::optional<uint64_t> bytes) {
             if (decision != "removed" && decision != "kept")
               throw py::value_error("decision must be 'removed' or 'kept'");
             declone::Remark made;
             made.node = std::move(node);
             made.line = line;
             made.decision = decision == "removed" ? declone::Remark::Decision::Removed
                                                   : declone::Remark::Decision::Kept;
             made.reason = std::move(reason);
             made.detail = std::move(detail);
             made.source = std::move(source);
             made.code = std::move(code);
             made.copy = std::move(copy);
             made.bytes = bytes;
             return made;
           }),
           py::arg("node"), py::arg("line") = 0, py::arg("decision"),
           py::arg("reason") = py::none(), py::arg("detail") = "", py::arg("source") = "",
           py::arg("code") = "", py::arg("copy") = "", py::arg("bytes") = py::none())
      .def_readonly("node", &declone::Remark::node)
      .def_readonly("line", &declone::Remark::line)
      .def_property_readonly("decision",
                             [](const declone::Remark& self) {
                               return self.decision == declone::Remark::Decision::Removed
                                          ? "removed"
                                          : "kept";
                             })
      .def_readonly("reason", &declone::Remark::reason)
      .def_readonly("detail", &declone::Remark::detail)
      .def_readonly("source", &declone::Remark::source,
                    "The user's `FILE:LINE` the node comes from, '' when unknown.")
      .def_readonly("code", &declone::Remark::code, "That line's code, '' when unknown.")
      .def_readwrite("copy", &declone::Remark::copy,
                     "For a copy a functionalized call implies (defunctionalization): the "
                     "argument copied ('result'), or '_all_bases[i]' for auto_functionalized_v2; "
                     "'' for a clone.")
      .def_readwrite("bytes", &declone::Remark::bytes,
                     "For a copy: the bytes it moves, None when its size is symbolic or unknown.")
      .def("__str__", [](const declone::Remark& self) { return self.formatText("<fx>"); })
      .def("__repr__", [](const declone::Remark& self) { return self.formatText("<fx>"); })
      .def("json", &declone::Remark::formatJson,
           "The JSON object of `declone opt --remarks=json`.");

  py::class_<TorchTypes>(module, "TorchTypes", "The torch objects the importer recognises.")
      .def(py::init([](py::object node, py::object tensor, py::tuple ops, py::tuple syms,
                       py::object device, py::dict dtypes, py::dict memoryFormats, py::dict layouts,
                       py::object targetText) {
             for (py::handle type : {node, tensor, device})
               if (!PyType_Check(type.ptr()))
                 throw py::type_error("TorchTypes: node, tensor and device must be types");
             for (py::handle type : py::tuple(py::make_tuple(ops, syms)))
               for (py::handle each : py::reinterpret_borrow<py::tuple>(type))
                 if (!PyType_Check(each.ptr()))
                   throw py::type_error("TorchTypes: ops and syms must be tuples of types");
             return TorchTypes{node,   tensor,        ops,     syms,      device,
                               dtypes, memoryFormats, layouts, targetText};
           }),
           py::arg("node"), py::arg("tensor"), py::arg("ops"), py::arg("syms"), py::arg("device"),
           py::arg("dtypes"), py::arg("memory_formats"), py::arg("layouts"),
           py::arg("target_text"));

  py::class_<ImportedGraph>(module, "Graph", "A live torch.fx graph imported into declone's IR.")
      .def("eliminate_clones", &eliminateClones, py::arg("donated"), py::arg("mode"),
           "Runs clone elimination; returns (remarks, fx nodes of the removed clones).")
      .def("defunctionalize", &defunctionalize, py::arg("donated"),
           "Runs defunctionalization (DESIGN.md section 4b); returns (remarks, fx nodes of the "
           "rewritten auto_functionalized(_v2) and triton_kernel_wrapper_functional calls, "
           "names of the other nodes the rewrite erased).")
      .def(
          "text", [](ImportedGraph& self) { return declone::writeGraphFile(self.file()); },
          "The graph in the text format, as `declone print` writes it.")
      .def(
          "shrink_plan",
          [](ImportedGraph& self, uint64_t bytes, double seconds, int64_t floor,
             const std::set<int64_t>& pinned) {
            return toPairs(self.shrinker().plan({bytes, seconds, floor}, pinned));
          },
          py::arg("bytes"), py::arg("seconds"), py::arg("floor"),
          py::arg("pinned") = std::set<int64_t>(),
          "Smaller sizes to run the graph at (declone::SizeShrinker::plan): (from, to) pairs, "
          "largest first, until a run's estimated bytes and seconds fit or nothing more can "
          "shrink (no size below `floor`); [] when the graph fits already. `pinned` sizes keep "
          "their values.")
      .def(
          "run_cost",
          [](ImportedGraph& self, const SizePairs& changes) {
            declone::RunCost cost = self.shrinker().cost(toChanges(changes));
            return py::make_tuple(cost.bytes, cost.seconds);
          },
          py::arg("changes") = SizePairs(),
          "The estimated (bytes, seconds) of a run with `changes` ((from, to) pairs).")
      .def(
          "dominant_sizes",
          [](ImportedGraph& self, size_t count) { return self.shrinker().dominantSizes(count); },
          py::arg("count") = SIZE_MAX,
          "The sizes that account for most of a run's bytes, as (size, bytes), largest first.")
      .def("sizes_at", &sizesAt, py::arg("node_name"),
           "The sizes a value of the node named `node_name` that is not as annotated at smaller "
           "sizes may be blamed on (its annotation's, its size arguments', its inputs'), those "
           "that account for most bytes first (dominant_sizes).")
      .def("size_edits", &sizeEdits, py::arg("changes"),
           "The size arguments of the graph's calls that `changes` ((from, to) pairs) rewrite, "
           "as (node name, position, keyword, element, value): args[position] (position None: "
           "kwargs[keyword]), its element `element` when it is a list (None: itself), becomes "
           "`value`. Which arguments are sizes is the planner's (declone::sizeEdits).")
      .def_property_readonly("clones", &ImportedGraph::clones,
                             "How many aten.clone nodes the live graph has.")
      .def_property_readonly("functionalized_calls", &ImportedGraph::functionalizedCalls,
                             "How many auto_functionalized(_v2) and "
                             "triton_kernel_wrapper_functional nodes the live graph has.");

  py::class_<FxImporter>(module, "FxImporter", "Converts torch.fx graphs to declone graphs.")
      .def(py::init<TorchTypes>(), py::arg("types"))
      .def(
          "import_graph",
          [](FxImporter& self, py::handle graph, bool forCloneElimination, const std::string& mode,
             bool trustOffsets, std::optional<std::map<std::string, int64_t>> symbolRanges) {
            using Annotations = FxImporter::TensorAnnotations;
            Annotations annotations = Annotations::All;
            if (forCloneElimination)
              switch (mode.empty() ? declone::CloneEliminationMode::Safe : parseMode(mode)) {
              case declone::CloneEliminationMode::Safe:
                annotations = Annotations::ForCloneElimination;
                break;
              case declone::CloneEliminationMode::Vllm:
                annotations = Annotations::ForVllm033CloneElimination;
                break;
              case declone::CloneEliminationMode::Vllm032:
                annotations = Annotations::ForVllmCloneElimination;
                break;
              }
            std::unique_ptr<ImportedGraph> imported =
                self.importGraph(graph, annotations, trustOffsets);
            declone::SymContext& sym = imported->module().graph.context().sym();
            if (!symbolRanges)
              declareSizeRanges(imported->file());
            else
              for (const auto& [name, lower] : *symbolRanges)
                sym.declareLowerBound(name, lower);
            return imported;
          },
          py::arg("graph"), py::arg("for_clone_elimination") = false, py::arg("mode") = "",
          py::arg("trust_offsets") = true, py::arg("symbol_ranges") = py::none(),
          "Imports a torch.fx.Graph, every node of it; node annotations come from meta['val'] or "
          "meta['tensor_meta']. for_clone_elimination reads only the tensor annotations the "
          "pass consults, and the text of such a graph lacks the others; with mode 'vllm' or "
          "'vllm-0.32' they are read from meta['val'] alone, as vLLM reads them ('' reads them "
          "as 'safe' does). trust_offsets=False reads no storage offset from meta['val'] (they "
          "are inferred). symbol_ranges maps each symbol of the trace's ShapeEnv to its "
          "smallest value; without it, the ranges PyTorch gives a dump's sizes are assumed "
          "(declone::declareSizeRanges).");
}
