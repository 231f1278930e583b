// declone-generate: writes a seeded synthetic FX graph (print_readable dialect) of a given size.
#include "GraphGenerator.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr int kSuccess = 0;
constexpr int kCheckFailed = 1;
constexpr int kBadUsage = 2;

constexpr std::string_view kUsage =
    "usage: declone-generate --nodes N [--seed S] [--clone-fraction F] [--symbolic] [--check]\n"
    "                        [-o FILE]\n"
    "\n"
    "Writes a synthetic post-grad FX graph with N statements, in the dialect of\n"
    "GraphModule.print_readable(include_stride=True, include_device=True).\n"
    "\n"
    "  --nodes N            statements in forward (placeholders and return not counted)\n"
    "  --seed S             random seed (default 1); the same options give the same bytes\n"
    "  --clone-fraction F   share of statements that are aten.clone (default 0.08)\n"
    "  --symbolic           symbolic batch sizes (s0, 2*s0) with Sym arithmetic\n"
    "  --check              also check that declone reads and writes it back byte-identical\n"
    "  -o FILE              write to FILE instead of standard output\n";

int usageError(std::string_view message) {
  std::cerr << "declone-generate: error: " << message << " (see 'declone-generate --help')\n";
  return kBadUsage;
}

/// Node ids are 32-bit, and the text takes about 135 bytes per statement.
constexpr size_t kMaxNodes = 100'000'000;

template <class T> bool parseNumber(std::string_view text, T& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

bool writeText(const std::string& path, std::string_view text) {
  bool toStdout = path.empty() || path == "-";
  std::FILE* stream = toStdout ? stdout : std::fopen(path.c_str(), "wb");
  if (!stream) {
    std::cerr << "declone-generate: error: cannot write '" << path << "': " << std::strerror(errno)
              << '\n';
    return false;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), stream) == text.size();
  ok = (toStdout ? std::fflush(stream) : std::fclose(stream)) == 0 && ok;
  if (!ok)
    std::cerr << "declone-generate: error: cannot write '" << path << "'\n";
  return ok;
}

} // namespace

int main(int argc, char** argv) {
  declone::bench::GeneratorOptions options;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  std::string output;
  bool haveNodes = false;
  bool check = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    auto value = [&](std::string_view& out) {
      if (i + 1 >= args.size())
        return false;
      out = args[++i];
      return true;
    };
    std::string_view text;
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return kSuccess;
    } else if (arg == "--nodes") {
      if (!value(text) || !parseNumber(text, options.nodes) || options.nodes > kMaxNodes)
        return usageError("--nodes needs an integer from 0 to " + std::to_string(kMaxNodes));
      haveNodes = true;
    } else if (arg == "--seed") {
      if (!value(text) || !parseNumber(text, options.seed))
        return usageError("--seed needs a non-negative integer");
    } else if (arg == "--clone-fraction") {
      if (!value(text) || !parseNumber(text, options.cloneFraction) ||
          !(options.cloneFraction >= 0 && options.cloneFraction <= 1))
        return usageError("--clone-fraction needs a number between 0 and 1");
    } else if (arg == "--symbolic") {
      options.symbolic = true;
    } else if (arg == "--check") {
      check = true;
    } else if (arg == "-o") {
      if (!value(text))
        return usageError("-o needs a file name");
      output = std::string(text);
    } else {
      return usageError("unknown argument '" + std::string(arg) + "'");
    }
  }
  if (!haveNodes)
    return usageError("--nodes is required");

  std::string text = declone::bench::generateGraphText(options);
  if (check) {
    declone::Status status = declone::bench::checkRoundTrip(text);
    if (!status.ok()) {
      std::cerr << status.error().format("<generated>") << '\n';
      return kCheckFailed;
    }
  }
  return writeText(output, text) ? kSuccess : kBadUsage;
}
