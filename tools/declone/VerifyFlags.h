// The arguments of `declone verify`, declared once for the executable (help, usage errors and
// the generated man page without loading libtorch) and for the verify plugin that runs it.
#pragma once

#include "ArgumentParser.h"

#include <string>
#include <vector>

namespace declone::cli {

struct VerifyFlags {
  std::vector<std::string> files;
  std::string donated;
  std::string seed = "1";
  std::string trials = "1";
  std::string intRange;
  std::string memoryLimit;
  std::string budget;
  std::string timeBudget;
  std::string shrinkFloor;
  bool fullSize = false;
  std::string maxInputSize;
  std::vector<std::string> schemaFiles;
  bool quiet = false;

  /// A parser for `verify` that fills these fields.
  [[nodiscard]] ArgumentParser parser();
};

} // namespace declone::cli
