// The declone command line: dispatches to the subcommands in the registry.
#include "Commands.h"
#include "Input.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

void printUsage(std::ostream& out) {
  out << "usage: declone COMMAND [ARGS...]\n\n"
         "Removes redundant aten.clone nodes from PyTorch FX graphs, safely.\n\ncommands:\n";
  for (const declone::cli::Command& command : declone::cli::kCommands) {
    std::string name(command.name);
    out << "  " << name << std::string(name.size() < 10 ? 10 - name.size() : 1, ' ')
        << command.summary << '\n';
  }
  out << "\n'declone COMMAND --help' describes a command.\n";
}

} // namespace

int main(int argc, char** argv) {
  using namespace declone::cli;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) {
    printUsage(std::cerr);
    return kBadInput;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    printUsage(std::cout);
    return kSuccess;
  }
  for (const Command& command : kCommands)
    if (command.name == args[0])
      return command.run(std::span<const std::string_view>(args).subspan(1));
  reportUsageError("unknown command '" + std::string(args[0]) + "' (see 'declone --help')");
  return kBadInput;
}
