// The flags `opt`, `analyze` and `report` share: --mode, --donated, --schemas and more.
#pragma once

#include "ArgumentParser.h"
#include "FakeTensorOracle.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/transforms/CloneElimination.h"

#include <memory>
#include <string>
#include <vector>

namespace declone::cli {

struct CloneFlags {
  std::string mode = "safe";
  std::string donated;
  std::vector<std::string> schemaFiles;
  bool assumeDenseInputs = false;
  bool fakeTensor = false;
  std::vector<std::string> fakeTensorImports; ///< --fake-tensor-import, which implies --fake-tensor
  std::string maxInputSize;

  /// `withDonated` false: --mode and --schemas only, for commands over many graphs (donations
  /// are per graph).
  void addTo(ArgumentParser& parser, bool withDonated = true);
  /// Checks the mode and the input size limit (setInputSizeLimit), and loads the schema files
  /// (the built-in registry plus `--schemas`).
  /// Reports problems on standard error and returns false.
  [[nodiscard]] bool prepare();
  /// The options for one top-level module: `--donated` is resolved against its placeholders.
  /// With --fake-tensor, warns (once) when the module holds no CPU tensor for it to run.
  [[nodiscard]] Result<CloneEliminationOptions> optionsFor(const GraphModule& module) const;
  /// The options without donations; the schemas stay valid while this object lives.
  [[nodiscard]] CloneEliminationOptions baseOptions() const;
  [[nodiscard]] CloneEliminationMode parsedMode() const { return mode_; }
  /// --assume-dense-inputs and --fake-tensor's oracle (which lives as long as this object).
  [[nodiscard]] LayoutOptions layoutOptions() const;
  /// The registry ops are resolved with: the built-ins, plus `--schemas` when given.
  [[nodiscard]] const SchemaRegistry& schemas() const {
    return schemas_ ? *schemas_ : SchemaRegistry::builtin();
  }

private:
  CloneEliminationMode mode_ = CloneEliminationMode::Safe;
  std::unique_ptr<SchemaRegistry> schemas_;  ///< set only when --schemas adds to the built-ins
  std::unique_ptr<FakeTensorOracle> oracle_; ///< set by prepare() for --fake-tensor
};

/// Adds `--fake-tensor` (FakeTensorOracle) and `--fake-tensor-import MODULE` to a command's
/// parser. A command given an import runs the oracle: `*out` is set (after parsing, by
/// resolveFakeTensorFlags).
void addFakeTensorFlag(ArgumentParser& parser, bool* out, std::vector<std::string>* imports);
/// `--fake-tensor-import` implies `--fake-tensor`: the oracle is what imports the modules.
inline void resolveFakeTensorFlags(bool& fakeTensor, const std::vector<std::string>& imports) {
  fakeTensor = fakeTensor || !imports.empty();
}

/// Parses `--donated`: comma-separated placeholder indices (every placeholder counted, Sym ones
/// included, as vLLM's donated_input_ids) or names. Errors name the bad item.
[[nodiscard]] Result<std::vector<bool>> parseDonatedList(std::string_view list, const Graph& graph);

} // namespace declone::cli
