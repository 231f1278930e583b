// File and stream I/O for the CLI.
#include "Input.h"

#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/report/DotWriter.h"
#include "declone/support/File.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace declone::cli {

std::string displayName(std::string_view path) {
  return path == "-" ? std::string("<stdin>") : std::string(path);
}

std::unique_ptr<GraphFile> loadGraphFile(std::string_view path, std::string* contents) {
  Result<std::string> text = readFile(path);
  if (!text.ok()) {
    reportDiagnostic(displayName(path), text.error());
    return nullptr;
  }
  if (contents)
    *contents = *text;
  // The graph keeps the text it was read from; handing it over saves a copy of the whole input.
  Result<std::unique_ptr<GraphFile>> file = readOwnedGraphFile(std::move(text).value());
  if (!file.ok()) {
    reportDiagnostic(displayName(path), file.error());
    return nullptr;
  }
  return std::move(file).value();
}

int writeGraph(std::string_view path, const GraphFile& file) {
  // Streamed in chunks rather than built whole: the output is as large as the input.
  Result<OutputFile> output = OutputFile::open(path);
  if (!output.ok()) {
    reportUsageError(output.error().message);
    return kBadInput;
  }
  // Errors are reported with the temporary file removed: the output file stays as it was.
  Status committed =
      writeGraphFile(file, output->stream()) ? output->commit() : output->fail(errno);
  if (!committed.ok()) {
    reportUsageError(committed.error().message);
    return kBadInput;
  }
  return kSuccess;
}

int writeDotPicture(std::string_view out, std::string_view text, std::string_view name,
                    std::span<const Remark> remarks, const SchemaRegistry& schemas) {
  Result<std::unique_ptr<GraphFile>> original = readGraphFile(text);
  if (!original.ok()) {
    reportDiagnostic(name, original.error());
    return kBadInput;
  }
  DotOptions options;
  options.fileName = name;
  options.sourceText = text;
  options.schemas = &schemas;
  Status written = writeFileAtomically(out, writeCloneDot(**original, remarks, options));
  if (!written.ok()) {
    reportUsageError(written.error().message);
    return kBadInput;
  }
  return kSuccess;
}

namespace {
std::string gCommandName;

void reportUsage(std::string_view severity, std::string_view message) {
  bool colour = colourWanted(STDERR_FILENO);
  std::string prefix = gCommandName.empty() ? "declone" : "declone " + gCommandName;
  std::cerr << (colour ? "\033[1m" : "") << prefix << ": "
            << (colour ? (severity == "error" ? "\033[1;31m" : "\033[1;35m") : "") << severity
            << ": " << (colour ? "\033[0m" : "") << message << '\n';
}
} // namespace

void setCommandName(std::string_view name) {
  gCommandName = name;
}

void reportUsageError(std::string_view message) {
  reportUsage("error", message);
}

void reportUsageWarning(std::string_view message) {
  reportUsage("warning", message);
}

void reportDiagnostic(std::string_view file, const Error& error, Severity severity) {
  std::cerr << renderDiagnostic(file, severity, error, {colourWanted(STDERR_FILENO)});
}

} // namespace declone::cli
