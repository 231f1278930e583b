// `declone print FILE|-`: parse and write back (canonical form).
#include "ArgumentParser.h"
#include "Commands.h"
#include "Input.h"
#include "declone/io/Writer.h"

#include <iostream>

namespace declone::cli {

int runPrint(std::span<const std::string_view> args) {
  std::vector<std::string> inputs;
  std::string output;
  ArgumentParser parser("print", "Parse an FX graph dump and write it back in canonical form.");
  parser.positional("FILE|-", "graph text to read ('-' for standard input)", &inputs, 1, 1);
  parser.option("-o|--output", "OUT", "write to OUT instead of standard output", &output);
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  std::unique_ptr<GraphFile> file = loadGraphFile(inputs[0]);
  if (!file)
    return kBadInput;
  return writeGraph(output, *file);
}

} // namespace declone::cli
