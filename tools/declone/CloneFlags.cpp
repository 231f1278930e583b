// Parsing and resolution of the clone-elimination flags.
#include "CloneFlags.h"

#include "Input.h"

#include <iostream>

namespace declone::cli {

void CloneFlags::addTo(ArgumentParser& parser, bool withDonated) {
  parser.option("--mode", "safe|vllm",
                "safe: every rule of the design (default); vllm: vLLM's UnsafeCloneEliminationPass",
                &mode);
  if (withDonated)
    parser.option("--donated", "LIST",
                  "donated placeholders, by index (Sym ones counted) or name, comma separated",
                  &donated);
  parser.repeated("--schemas", "FILE", "more op schemas, one per line (may be repeated)",
                  &schemaFiles);
}

CloneEliminationOptions CloneFlags::baseOptions() const {
  CloneEliminationOptions options;
  options.mode = mode_;
  options.schemas = schemas_.get();
  return options;
}

bool CloneFlags::prepare() {
  if (mode == "safe") {
    mode_ = CloneEliminationMode::Safe;
  } else if (mode == "vllm") {
    mode_ = CloneEliminationMode::Vllm;
  } else {
    reportUsageError("--mode must be 'safe' or 'vllm', not '" + mode + "'");
    return false;
  }
  if (schemaFiles.empty())
    return true;
  // Layered over the built-ins rather than a copy of them: a copy would parse every one.
  schemas_ = std::make_unique<SchemaRegistry>(&SchemaRegistry::builtin());
  for (const std::string& path : schemaFiles) {
    Status loaded = schemas_->loadFile(path);
    if (!loaded.ok()) {
      std::cerr << loaded.error().format(path) << '\n';
      return false;
    }
  }
  return true;
}

Result<CloneEliminationOptions> CloneFlags::optionsFor(const GraphModule& module) const {
  CloneEliminationOptions options;
  options.mode = mode_;
  options.schemas = schemas_.get();
  Result<std::vector<bool>> donatedInputs = parseDonatedList(donated, module.graph);
  if (!donatedInputs.ok())
    return donatedInputs.error();
  options.donated = std::move(donatedInputs).value();
  return options;
}

} // namespace declone::cli
