// Command-line parsing shared by every declone subcommand.
#include "ArgumentParser.h"

#include "Input.h"
#include "declone/support/Spelling.h"

#include <iostream>
#include <optional>

namespace declone::cli {
namespace {

std::vector<ArgumentParser::Description>* gDescriptionSink = nullptr;

} // namespace

std::vector<std::string_view> splitAlternatives(std::string_view text) {
  std::vector<std::string_view> parts;
  while (true) {
    size_t bar = text.find('|');
    parts.push_back(text.substr(0, bar));
    if (bar == std::string_view::npos)
      return parts;
    text.remove_prefix(bar + 1);
  }
}

namespace {

bool isShort(std::string_view name) {
  return name.size() == 2 && name[0] == '-' && name[1] != '-';
}

} // namespace

void ArgumentParser::add(Spec spec, Names names) {
  spec.names = splitAlternatives(names);
  specs_.push_back(std::move(spec));
}

void ArgumentParser::flag(Names names, std::string_view help, bool* out) {
  add({Spec::Kind::Flag, {}, {}, help, out, nullptr, nullptr}, names);
}

void ArgumentParser::option(Names names, std::string_view metavar, std::string_view help,
                            std::string* out) {
  add({Spec::Kind::Option, {}, metavar, help, nullptr, out, nullptr}, names);
}

void ArgumentParser::optionalValue(Names names, std::string_view metavar, std::string_view help,
                                   std::string* out, std::string_view implicit) {
  add({Spec::Kind::OptionalValue, {}, metavar, help, nullptr, out, nullptr, implicit}, names);
}

void ArgumentParser::repeated(Names names, std::string_view metavar, std::string_view help,
                              std::vector<std::string>* out) {
  add({Spec::Kind::Repeated, {}, metavar, help, nullptr, nullptr, out}, names);
}

void ArgumentParser::positional(std::string_view metavar, std::string_view help,
                                std::vector<std::string>* out, size_t min, size_t max) {
  positionals_.push_back({metavar, help, out, min, max});
}

const ArgumentParser::Spec* ArgumentParser::find(std::string_view arg,
                                                 std::optional<std::string_view>& value) const {
  std::string_view name = arg;
  if (size_t eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
    name = arg.substr(0, eq);
    value = arg.substr(eq + 1);
  }
  for (const Spec& spec : specs_)
    for (std::string_view candidate : spec.names) {
      if (candidate == name)
        return &spec;
      // `-oFILE`, `-j2`: a one-letter option with its value attached.
      if (isShort(candidate) && spec.kind != Spec::Kind::Flag && arg.size() > 2 &&
          arg.starts_with(candidate)) {
        value = arg.substr(arg[2] == '=' ? 3 : 2); // `-j=7` too
        return &spec;
      }
    }
  return nullptr;
}

Error ArgumentParser::unknownOption(std::string_view name) const {
  if (size_t eq = name.find('='); eq != std::string_view::npos)
    name = name.substr(0, eq);
  std::vector<std::string_view> known{"--help"};
  for (const Spec& spec : specs_)
    known.insert(known.end(), spec.names.begin(), spec.names.end());
  std::string message = "unknown option '" + std::string(name) + "'";
  std::optional<std::string> close;
  if (name.size() > 2) // one letter is too little to guess from
    close = closestSpelling(name, known);
  if (close)
    return Error{message + "; did you mean '" + *close + "'?"};
  return Error{message + " (see 'declone help " + std::string(command_) + "')"};
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
    std::optional<std::string_view> inlineValue;
    const Spec* spec = find(arg, inlineValue);
    if (!spec)
      return unknownOption(arg);
    std::string name(spec->names.back());
    if (spec->kind == Spec::Kind::Flag) {
      if (inlineValue)
        return Error{"option '" + name + "' takes no value"};
      *spec->flag = true;
      continue;
    }
    if (spec->kind == Spec::Kind::OptionalValue) {
      // `--remarks json`: a value of the option given apart, which would be read as a file.
      if (!inlineValue && i + 1 < args.size())
        for (std::string_view value : splitAlternatives(spec->metavar))
          if (args[i + 1] == value)
            return Error{"'" + name + "' takes its value attached; did you mean '" + name + "=" +
                         std::string(value) + "'?"};
      *spec->value = std::string(inlineValue.value_or(spec->implicit));
      continue;
    }
    std::string_view value;
    if (inlineValue) {
      value = *inlineValue;
    } else if (i + 1 < args.size() && !args[i + 1].starts_with("--")) {
      value = args[++i];
    } else if (i + 1 < args.size()) {
      return Error{"option '" + name + "' needs a value, not the option '" +
                   std::string(args[i + 1]) + "' (write '" + name + "=" + std::string(args[i + 1]) +
                   "' if that is the value)"};
    } else {
      return Error{"option '" + name + "' needs a value"};
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
      return Error{"missing argument " + std::string(spec.metavar) + " (see 'declone help " +
                   std::string(command_) + "')"};
  }
  if (next < positional.size())
    return Error{"unexpected argument '" + std::string(positional[next]) + "'"};
  return ok();
}

std::optional<int> ArgumentParser::parseOrExit(std::span<const std::string_view> args) {
  if (gDescriptionSink) {
    gDescriptionSink->push_back(describe());
    return kSuccess;
  }
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

ArgumentParser::Description ArgumentParser::describe() const {
  Description description{command_, summary_, usage(), {}, {}};
  for (const Spec& spec : specs_)
    description.options.push_back(
        {spec.names, spec.kind == Spec::Kind::Flag ? std::string_view() : spec.metavar, spec.help,
         spec.kind == Spec::Kind::OptionalValue});
  for (const Positional& spec : positionals_)
    description.positionals.emplace_back(spec.metavar, spec.help);
  return description;
}

void ArgumentParser::collectDescriptions(std::vector<Description>* sink) {
  gDescriptionSink = sink;
}

std::string ArgumentParser::usage() const {
  std::string out = "declone " + std::string(command_);
  for (const Positional& spec : positionals_) {
    std::string metavar(spec.metavar);
    if (spec.max == SIZE_MAX)
      metavar += "...";
    out += ' ' + (spec.min == 0 ? "[" + metavar + "]" : metavar);
  }
  if (!specs_.empty())
    out += " [options]";
  return out;
}

std::string ArgumentParser::help() const {
  std::string out = "usage: " + usage();
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
  for (const OptionInfo& option : describe().options)
    row(formatOptionNames(option), option.help);
  row("-h, --help", "show this help");
  return out;
}

std::string formatOptionNames(const ArgumentParser::OptionInfo& option) {
  std::string left;
  for (std::string_view name : option.names)
    left += (left.empty() ? "" : ", ") + std::string(name);
  if (option.valueOptional)
    left += "[=" + std::string(option.metavar) + "]";
  else if (!option.metavar.empty())
    left += " " + std::string(option.metavar);
  return left;
}

} // namespace declone::cli
