// `declone print FILE|-`: parse and write back (canonical form).
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "declone/io/Writer.h"
#include "declone/transforms/AnnotateLayouts.h"

#include <iostream>

namespace declone::cli {

int runPrint(std::span<const std::string_view> args) {
  std::vector<std::string> inputs;
  std::string output;
  ArgumentParser parser("print", "Parse an FX graph dump and write it back in canonical form.");
  parser.positional("FILE|-",
                    "graph text to read ('-' for standard input), or one graph of a\n"
                    "                          TORCH_TRACE or TORCH_LOGS log: LOG#NAME[:LINE]",
                    &inputs, 1, 1);
  parser.option("-o|--output", "OUT", "write to OUT instead of standard output", &output);
  bool annotate = false, assumeDense = false, fakeTensor = false;
  parser.flag("--annotate",
              "write inferred strides (and storage offsets other than 0) into the annotations\n"
              "                          that print none: an old dump in today's format",
              &annotate);
  parser.flag("--assume-dense-inputs",
              "with --annotate: graph inputs without strides are contiguous", &assumeDense);
  std::vector<std::string> fakeTensorImports;
  addFakeTensorFlag(parser, &fakeTensor, &fakeTensorImports);
  std::string maxInputSize;
  addInputSizeFlag(parser, &maxInputSize);
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  if (!setInputSizeLimit(maxInputSize))
    return kBadInput;
  resolveFakeTensorFlags(fakeTensor, fakeTensorImports);
  if ((assumeDense || fakeTensor) && !annotate) {
    std::string flag = fakeTensorImports.empty() ? "--fake-tensor" : "--fake-tensor-import";
    reportUsageError((assumeDense ? "--assume-dense-inputs" : flag) +
                     " only applies with --annotate");
    return kBadInput;
  }
  std::unique_ptr<GraphFile> file = loadGraphFile(inputs[0]);
  if (!file)
    return kBadInput;
  if (annotate) {
    AnnotateLayoutsOptions options;
    std::unique_ptr<FakeTensorOracle> oracle;
    if (fakeTensor)
      oracle =
          std::make_unique<FakeTensorOracle>(FakeTensorOracle::defaultPython(), fakeTensorImports);
    options.layout = {assumeDense, oracle.get()};
    for (auto& module : file->modules) {
      if (oracle)
        oracle->checkDevices(*module, displayName(inputs[0]));
      (void)annotateLayouts(*module, options);
    }
  }
  return writeGraph(output, *file);
}

} // namespace declone::cli
