// File and stream I/O for the CLI.
#include "Input.h"

#include "Signals.h"
#include "declone/io/Reader.h"
#include "declone/io/SourceComments.h"
#include "declone/io/Writer.h"
#include "declone/report/DotWriter.h"
#include "declone/report/TraceLog.h"
#include "declone/schema/Schema.h"
#include "declone/support/File.h"
#include "declone/support/Memory.h"
#include "declone/support/Spelling.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>

namespace declone::cli {

std::string displayName(std::string_view path) {
  return path == "-" ? std::string("<stdin>") : std::string(path);
}

namespace {

/// Set once per command, before any graph is read.
uint64_t gInputSizeLimit = 0;
std::string gInputSizeHint;
/// The graph file being worked on, for reportOutOfMemory.
std::string gCurrentInput;

constexpr std::string_view kInputSizeVariable = "DECLONE_MAX_INPUT_SIZE";

} // namespace

void addInputSizeFlag(ArgumentParser& parser, std::string* out) {
  parser.option("--max-input-size", "SIZE",
                "refuse input files larger than SIZE bytes (512M, 4G; 0: no limit;\n"
                "                          default: $DECLONE_MAX_INPUT_SIZE, else 1/16 of the\n"
                "                          memory of the machine, its container or ulimit -v)",
                out);
}

uint64_t defaultInputSizeLimit() {
  uint64_t memory = usableMemory();
  // `ulimit -v` or `ulimit -d` (prlimit) bound this process below what the machine has.
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit limit{};
    if (::getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      memory = memory ? std::min<uint64_t>(memory, limit.rlim_cur) : limit.rlim_cur;
  }
  return memory / 16;
}

std::optional<uint64_t> parseByteSize(std::string_view text) {
  uint64_t scale = 1;
  if (!text.empty()) {
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K':
      scale = uint64_t(1) << 10;
      break;
    case 'M':
      scale = uint64_t(1) << 20;
      break;
    case 'G':
      scale = uint64_t(1) << 30;
      break;
    case 'T':
      scale = uint64_t(1) << 40;
      break;
    default:
      break;
    }
    if (scale != 1)
      text.remove_suffix(1);
  }
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      value > UINT64_MAX / scale)
    return std::nullopt;
  return value * scale;
}

bool setInputSizeLimit(const std::string& flag) {
  const char* variable = std::getenv(std::string(kInputSizeVariable).c_str());
  std::string_view origin = !flag.empty() ? "--max-input-size" : kInputSizeVariable;
  std::string_view text = !flag.empty() ? std::string_view(flag) : variable ? variable : "";
  if (text.empty()) {
    gInputSizeLimit = defaultInputSizeLimit();
    gInputSizeHint = "the default, 1/16 of the memory declone may use; --max-input-size SIZE or " +
                     std::string(kInputSizeVariable) + "=SIZE changes it (0: no limit)";
    return true;
  }
  std::optional<uint64_t> size = parseByteSize(text);
  if (!size) {
    reportUsageError(std::string(origin) + " takes a size such as 512M or 4G, not '" +
                     std::string(text) + "'");
    return false;
  }
  gInputSizeLimit = *size;
  gInputSizeHint = "set by " + std::string(origin);
  return true;
}

ReadLimit inputSizeLimit() {
  return {gInputSizeLimit, gInputSizeHint};
}

int reportOutOfMemory(bool tooLarge) {
  Error error{tooLarge ? "out of memory (a size too large to allocate)" : "out of memory"};
  if (gCurrentInput.empty())
    reportUsageError(error.message);
  else
    reportDiagnostic(gCurrentInput, error);
  return kBadInput;
}

namespace {

/// `LOG#KEY:LINE` (or `LOG#KEY`, or a `.log` path alone): the log's file, the key and the line of
/// the graph record it names. None when `path` is a plain file.
struct LogGraphName {
  std::string log;
  std::string key;   ///< empty: the log's only graph
  uint32_t line = 0; ///< 0: the only record with that key
};

std::optional<LogGraphName> logGraphName(std::string_view path) {
  std::error_code error;
  if (path == "-" || std::filesystem::is_regular_file(std::string(path), error))
    return LogGraphName{std::string(path), {}, 0}; // a log when its text says so
  size_t hash = path.rfind('#');
  if (hash == std::string_view::npos ||
      !std::filesystem::is_regular_file(std::string(path.substr(0, hash)), error))
    return std::nullopt;
  LogGraphName name{std::string(path.substr(0, hash)), std::string(path.substr(hash + 1)), 0};
  if (size_t colon = name.key.rfind(':'); colon != std::string::npos) {
    std::string_view digits = std::string_view(name.key).substr(colon + 1);
    uint32_t line = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
    if (ec == std::errc() && end == digits.data() + digits.size()) {
      name.line = line;
      name.key.resize(colon);
    }
  }
  return name;
}

/// The graph record of a structured trace log that `name` names; errors list the choices.
Result<const TraceGraph*> findLogGraph(const TraceLog& log, const LogGraphName& name) {
  std::vector<const TraceGraph*> found;
  for (const TraceGraph& graph : log.graphs)
    if ((name.key.empty() || graph.key == name.key) &&
        (name.line == 0 || graph.holdsLine(name.line)))
      found.push_back(&graph);
  if (found.size() == 1)
    return found[0];
  std::string choices;
  for (const TraceGraph& graph : log.graphs)
    if (name.key.empty() || graph.key == name.key || found.empty())
      choices += (choices.empty() ? "" : ", ") + graph.displayName(name.log);
  if (found.empty())
    return Error{"no graph record " + (name.key.empty() ? std::string("") : "'" + name.key + "'") +
                 (name.line ? " at line " + std::to_string(name.line) : std::string()) +
                 " in the log" + (choices.empty() ? "" : "; it holds " + choices)};
  return Error{"the log holds " + std::to_string(found.size()) +
               " graphs; name one as LOG#KEY:LINE: " + choices};
}

} // namespace

void InputLocation::locate(std::span<Remark> remarks, std::string_view graphText) const {
  SourceComments(graphText).annotate(remarks);
  if (logLines.empty())
    return;
  for (Remark& remark : remarks)
    remark.line =
        remark.line >= 1 && remark.line <= logLines.size() ? logLines[remark.line - 1] : 0;
}

Error InputLocation::toInput(Error error) const {
  if (logLines.empty())
    return error;
  // The caret would need the log's line; the position alone says where.
  error.sourceLine = {};
  if (error.line >= 1 && error.line <= logLines.size()) {
    if (error.column != 0 && error.line <= logColumns.size())
      error.column += logColumns[error.line - 1];
    error.line = logLines[error.line - 1];
  } else {
    error.line = error.column = 0;
  }
  return error;
}

std::unique_ptr<GraphFile> loadGraphFile(std::string_view path, std::string* contents,
                                         InputLocation* where) {
  gCurrentInput = displayName(path);
  std::optional<LogGraphName> logName = logGraphName(path);
  Result<std::string> text =
      readFile(logName ? std::string_view(logName->log) : path, inputSizeLimit());
  if (!text.ok()) {
    reportDiagnostic(displayName(path), text.error());
    return nullptr;
  }
  if (where)
    *where = {displayName(path), displayName(path), {}, {}};
  if (logName && (!logName->key.empty() || looksLikeGraphLog(*text))) {
    // One graph of a TORCH_TRACE or TORCH_LOGS log: its payload is the text; errors point
    // into the log.
    Result<TraceLog> log = splitGraphLog(*text);
    Result<const TraceGraph*> graph =
        log.ok() ? findLogGraph(*log, *logName) : Result<const TraceGraph*>(log.error());
    if (!graph.ok()) {
      reportDiagnostic(displayName(logName->log), graph.error());
      return nullptr;
    }
    std::string payload = (*graph)->payload;
    if (contents)
      *contents = payload;
    if (where)
      *where = {displayName(logName->log) + "#" + (*graph)->key, displayName(logName->log),
                (*graph)->payloadLines, (*graph)->payloadColumns};
    Result<std::unique_ptr<GraphFile>> file = readOwnedGraphFile(std::move(payload));
    if (!file.ok()) {
      Error error = (*graph)->toLogPosition(file.error());
      error.sourceLine = sourceLineAt(*text, error.line);
      for (Note& note : error.notes)
        note.sourceLine = sourceLineAt(*text, note.line);
      reportDiagnostic(logName->log, error);
      return nullptr;
    }
    return std::move(file).value();
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
  Result<OutputFile> output = OutputFile::open(path, &temporaryFiles());
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

namespace {

/// Finds each misspelled op's first use; `packets` is filled on the first unknown op.
class OpSpellingCheck {
public:
  OpSpellingCheck(const GraphFile& file, const SchemaRegistry& schemas, const InputLocation& where)
      : file_(file), schemas_(schemas), where_(where) {}

  void check(const GraphModule& module) {
    for (const Node* node : module.graph)
      if (node->isCall() && node->target()->kind == Target::Kind::Op &&
          !node->target()->isHigherOrder() && seen_.insert(node->target()).second)
        checkOp(*node);
    for (const auto& child : module.children)
      check(*child);
  }

private:
  void checkOp(const Node& node) {
    const Target& op = *node.target();
    std::string overload(op.overload.empty() ? "default" : op.overload);
    if (schemas_.lookup(op.opNamespace, op.opName, overload) ||
        (op.overload.empty() && schemas_.hasPacket(op.opNamespace, op.opName)))
      return; // a packet call resolves to one of its overloads
    std::string prefix = std::string(op.opNamespace) + ".";
    std::optional<std::string> suggestion;
    if (schemas_.hasPacket(op.opNamespace, op.opName)) {
      std::vector<std::string> overloads;
      for (const OpSchema* schema : schemas_.overloads(op.opNamespace, op.opName))
        overloads.push_back(schema->overload.empty() ? "default" : schema->overload);
      std::vector<std::string_view> views(overloads.begin(), overloads.end());
      if (std::optional<std::string> close = closestSpelling(overload, views))
        suggestion = prefix + std::string(op.opName) + "." + *close;
    } else {
      if (packets_.empty())
        packets_ = schemas_.packetNames();
      std::string ns = std::string(op.opNamespace) + "::";
      std::vector<std::string_view> names;
      for (const std::string& packet : packets_)
        if (packet.starts_with(ns))
          names.push_back(std::string_view(packet).substr(ns.size()));
      // A typo is a letter or two; real ops often differ from a known one by a word.
      size_t limit = std::min<size_t>(2, std::max<size_t>(1, op.opName.size() / 4));
      if (std::optional<std::string> close = closestSpelling(op.opName, names, limit))
        suggestion = prefix + *close + (op.overload.empty() ? "" : "." + overload);
    }
    if (!suggestion)
      return; // a custom op without a schema: the remarks say what that costs
    std::string written = prefix + std::string(op.opName) +
                          (op.overload.empty() ? "" : "." + std::string(op.overload));
    Error warning{"unknown op '" + written + "' (no schema); did you mean '" + *suggestion + "'?",
                  node.line(), 0};
    std::string_view line = sourceLineAt(file_.context->source(), node.line());
    if (size_t at = line.find(op.qualifiedName); at != std::string_view::npos) {
      warning.column = static_cast<uint32_t>(at + 1);
      warning.sourceLine = line;
    }
    reportDiagnostic(where_.file, where_.toInput(warning), Severity::Warning);
  }

  const GraphFile& file_;
  const SchemaRegistry& schemas_;
  const InputLocation& where_;
  std::unordered_set<const Target*> seen_;
  std::vector<std::string> packets_;
};

} // namespace

void warnMisspelledOps(const GraphFile& file, const SchemaRegistry& schemas,
                       const InputLocation& where) {
  OpSpellingCheck check(file, schemas, where);
  for (const auto& module : file.modules)
    check.check(*module);
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
  Status written =
      writeFileAtomically(out, writeCloneDot(**original, remarks, options), &temporaryFiles());
  if (!written.ok()) {
    reportUsageError(written.error().message);
    return kBadInput;
  }
  return kSuccess;
}

namespace {
std::string gCommandName;

/// `declone CMD: error: message`, styled as clang styles `clang: error: ...`.
void reportUsage(Severity severity, std::string_view message) {
  std::string prefix = gCommandName.empty() ? "declone" : "declone " + gCommandName;
  std::cerr << renderDiagnostic(prefix, severity, Error{std::string(message)},
                                {colourWanted(STDERR_FILENO)});
}
} // namespace

void setCommandName(std::string_view name) {
  gCommandName = name;
}

void reportUsageError(std::string_view message) {
  reportUsage(Severity::Error, message);
}

void reportUsageWarning(std::string_view message) {
  reportUsage(Severity::Warning, message);
}

void reportDiagnostic(std::string_view file, const Error& error, Severity severity) {
  std::cerr << renderDiagnostic(file, severity, error, {colourWanted(STDERR_FILENO)});
}

} // namespace declone::cli
