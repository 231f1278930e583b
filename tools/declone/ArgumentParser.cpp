// Command-line parsing shared by every declone subcommand.
#include "ArgumentParser.h"

#include "Input.h"

#include <iostream>
#include <optional>

namespace declone::cli {

void ArgumentParser::flag(std::string_view name, std::string_view help, bool* out) {
  specs_.push_back({Spec::Kind::Flag, name, {}, help, out, nullptr, nullptr});
}

void ArgumentParser::option(std::string_view name, std::string_view metavar, std::string_view help,
                            std::string* out) {
  specs_.push_back({Spec::Kind::Option, name, metavar, help, nullptr, out, nullptr});
}

void ArgumentParser::optionalValue(std::string_view name, std::string_view metavar,
                                   std::string_view help, std::string* out,
                                   std::string_view implicit) {
  specs_.push_back(
      {Spec::Kind::OptionalValue, name, metavar, help, nullptr, out, nullptr, implicit});
}

void ArgumentParser::repeated(std::string_view name, std::string_view metavar,
                              std::string_view help, std::vector<std::string>* out) {
  specs_.push_back({Spec::Kind::Repeated, name, metavar, help, nullptr, nullptr, out});
}

void ArgumentParser::positional(std::string_view metavar, std::string_view help,
                                std::vector<std::string>* out, size_t min, size_t max) {
  positionals_.push_back({metavar, help, out, min, max});
}

Status ArgumentParser::parse(std::span<const std::string_view> args) {
  std::vector<std::string_view> positional;
  bool onlyPositional = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (onlyPositional || arg == "-" || !arg.starts_with("-")) {
      positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      onlyPositional = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      helpRequested_ = true;
      return ok();
    }
    std::string_view name = arg;
    std::optional<std::string_view> inlineValue;
    if (size_t eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      inlineValue = arg.substr(eq + 1);
    }
    const Spec* spec = nullptr;
    for (const Spec& candidate : specs_)
      if (candidate.name == name)
        spec = &candidate;
    if (!spec)
      return Error{"unknown option '" + std::string(name) + "' for '" + std::string(command_) +
                   "' (see --help)"};
    if (spec->kind == Spec::Kind::Flag) {
      if (inlineValue)
        return Error{"option '" + std::string(name) + "' takes no value"};
      *spec->flag = true;
      continue;
    }
    if (spec->kind == Spec::Kind::OptionalValue) {
      *spec->value = std::string(inlineValue.value_or(spec->implicit));
      continue;
    }
    std::string_view value;
    if (inlineValue) {
      value = *inlineValue;
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return Error{"option '" + std::string(name) + "' needs a value"};
    }
    if (spec->kind == Spec::Kind::Option)
      *spec->value = std::string(value);
    else
      spec->values->emplace_back(value);
  }
  size_t next = 0;
  for (const Positional& spec : positionals_) {
    size_t taken = 0;
    while (next < positional.size() && taken < spec.max) {
      spec.out->emplace_back(positional[next++]);
      ++taken;
    }
    if (taken < spec.min)
      return Error{"missing argument " + std::string(spec.metavar) + " (see --help)"};
  }
  if (next < positional.size())
    return Error{"unexpected argument '" + std::string(positional[next]) + "'"};
  return ok();
}

std::optional<int> ArgumentParser::parseOrExit(std::span<const std::string_view> args) {
  Status parsed = parse(args);
  if (!parsed.ok()) {
    reportUsageError(parsed.error().message);
    return kBadInput;
  }
  if (helpRequested_) {
    std::cout << help();
    return kSuccess;
  }
  return std::nullopt;
}

std::string ArgumentParser::help() const {
  std::string out = "usage: declone " + std::string(command_);
  for (const Positional& spec : positionals_) {
    out += ' ';
    out += spec.metavar;
    if (spec.max > 1)
      out += "...";
  }
  if (!specs_.empty())
    out += " [options]";
  out += "\n\n";
  out += summary_;
  out += "\n";
  if (!positionals_.empty() || !specs_.empty())
    out += "\n";
  auto row = [&](std::string left, std::string_view help) {
    out += "  " + left;
    out += left.size() < 24 ? std::string(24 - left.size(), ' ')
                            : std::string("\n") + std::string(26, ' ');
    out += help;
    out += '\n';
  };
  for (const Positional& spec : positionals_)
    row(std::string(spec.metavar), spec.help);
  for (const Spec& spec : specs_) {
    std::string left(spec.name);
    if (spec.kind == Spec::Kind::OptionalValue)
      left += "[=" + std::string(spec.metavar) + "]";
    else if (spec.kind != Spec::Kind::Flag)
      left += " " + std::string(spec.metavar);
    row(left, spec.help);
  }
  row("--help", "show this help");
  return out;
}

} // namespace declone::cli
