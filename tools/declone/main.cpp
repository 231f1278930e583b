// The declone command line: dispatches to the subcommands in the registry.
#include "Commands.h"
#include "Input.h"
#include "declone/support/Spelling.h"

#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef DECLONE_VERSION
#define DECLONE_VERSION "unknown"
#endif

namespace {

using declone::cli::Command;
using declone::cli::kCommands;

void printUsage(std::ostream& out) {
  out << "usage: declone COMMAND [ARGS...]\n\n"
         "Removes redundant aten.clone nodes from PyTorch FX graphs, safely.\n\ncommands:\n";
  for (const Command& command : kCommands) {
    std::string name(command.name);
    out << "  " << name << std::string(name.size() < 10 ? 10 - name.size() : 1, ' ')
        << command.summary << '\n';
  }
  out << "\n'declone help COMMAND' (or 'declone COMMAND --help') describes a command;\n"
         "'declone --version' prints the version.\n";
}

const Command* findCommand(std::string_view name) {
  for (const Command& command : kCommands)
    if (command.name == name)
      return &command;
  return nullptr;
}

int unknownCommand(std::string_view name) {
  std::vector<std::string_view> names;
  for (const Command& command : kCommands)
    names.push_back(command.name);
  std::string message = "unknown command '" + std::string(name) + "'";
  if (std::optional<std::string> close = declone::closestSpelling(name, names))
    message += "; did you mean '" + *close + "'?";
  else
    message += " (see 'declone --help')";
  declone::cli::reportUsageError(message);
  return declone::cli::kBadInput;
}

} // namespace

int main(int argc, char** argv) {
  using namespace declone::cli;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) {
    printUsage(std::cerr);
    return kBadInput;
  }
  if (args[0] == "--version" || args[0] == "-V") {
    std::cout << "declone " DECLONE_VERSION "\n";
    return kSuccess;
  }
  if (args[0] == "--help" || args[0] == "-h" || (args[0] == "help" && args.size() == 1)) {
    printUsage(std::cout);
    return kSuccess;
  }
  if (args[0] == "help") {
    const Command* command = findCommand(args[1]);
    if (!command)
      return unknownCommand(args[1]);
    setCommandName(command->name);
    static constexpr std::string_view kHelp[] = {"--help"};
    return command->run(std::span<const std::string_view>(kHelp));
  }
  const Command* command = findCommand(args[0]);
  if (!command)
    return unknownCommand(args[0]);
  setCommandName(command->name);
  // Running out of memory is bad input (a graph too large for this machine), reported like any
  // other, not an abort. Caught here, when the command's graphs have been freed: the message
  // then has memory to be written with. `report` catches it per file.
  try {
    return command->run(std::span<const std::string_view>(args).subspan(1));
  } catch (const std::bad_alloc&) {
    return reportOutOfMemory(false);
  } catch (const std::length_error&) {
    return reportOutOfMemory(true); // a string or vector asked for more than it can hold
  }
}
