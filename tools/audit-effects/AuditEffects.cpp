// declone-audit-effects: runs every op overload of the schema registry with libtorch and
// compares what it aliases and writes with its schema (lib/runtime/Audit.cpp). It writes the
// override table the effect model reads (`make audit`) or checks the checked-in one against
// libtorch (the audit.sample test). Each overload runs in a child process, so that a kernel that
// crashes or hangs on the probes' inputs costs that overload only.
#include "declone/analysis/EffectOverrides.h"
#include "declone/runtime/Audit.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/File.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <optional>
#include <poll.h>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using declone::EffectOverride;
using declone::OpSchema;

constexpr const char* kUsage =
    "usage: declone-audit-effects [--write TABLE] [--check TABLE] [--sample N] [--only OP]...\n"
    "                             [--summary FILE] [--timeout SECONDS] [--seed N]\n"
    "  Runs every op overload of the schema registry (libtorch's dump and the supplement) on\n"
    "  random inputs and reports where results share storage with arguments, or arguments\n"
    "  change, although the schema does not say so.\n"
    "  --write TABLE   regenerate the override table TABLE (its header and hand-written lines\n"
    "                  stay)\n"
    "  --check TABLE   audit TABLE's overloads and every Nth other (--sample, default 40); exit 1\n"
    "                  when libtorch and TABLE disagree\n"
    "  --only OP       audit only these overloads (aten::dropout, aten::split.Tensor) and print\n"
    "                  what was found\n"
    "  --summary FILE  write the counts and every overload found lying, as Markdown\n";

struct Outcome {
  std::string name;
  bool exercised = false;
  std::string reason;
  unsigned runs = 0;
  uint32_t kindsReached = 0; ///< bit k: a probe of kind probeKinds()[k] ran
  unsigned skipped = 0;      ///< probes (or kinds of probe) that crashed or hung, skipped
  std::vector<EffectOverride> lies;
};

/// Every overload of the built-in registry, by full name (a later source replaces an earlier one).
std::map<std::string, const OpSchema*> registryOverloads() {
  std::map<std::string, const OpSchema*> out;
  const declone::SchemaRegistry& registry = declone::SchemaRegistry::builtin();
  for (const declone::SchemaRegistry::Source& source : declone::SchemaRegistry::builtinSources()) {
    std::istringstream lines(source.text);
    std::string line;
    while (std::getline(lines, line)) {
      size_t start = line.find_first_not_of(" \t");
      if (start == std::string::npos || line[start] == '#')
        continue;
      declone::Result<OpSchema> parsed = declone::parseSchema(line);
      if (!parsed.ok())
        continue; // the registry reports its own bad lines
      if (const OpSchema* schema =
              registry.lookup(parsed->opNamespace, parsed->name, parsed->overload))
        out[schema->fullName()] = schema;
    }
  }
  return out;
}

std::string serialize(const declone::runtime::OverloadAudit& audit) {
  std::string out = std::string(audit.exercised ? "exercised" : "not") + "\t" +
                    std::to_string(audit.runs) + "\t" + std::to_string(audit.kindsReached) + "\t" +
                    audit.reason + "\n";
  for (const EffectOverride& lie : audit.lies)
    out += lie.toString() + "\n";
  return out;
}

bool writeAll(int fd, const std::string& text) {
  for (size_t written = 0; written < text.size();) {
    ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n <= 0)
      return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

/// One child process's run of the audit of an overload.
struct ChildRun {
  bool finished = false;             ///< the child reported a result (in `report`)
  std::string failure;               ///< else: "timed out", "crashed (Aborted)"
  std::optional<unsigned> lastProbe; ///< the probe it was running when it stopped
  unsigned lastKind = 0;             ///< and that probe's kind
  std::string report;
};

/// Audits one overload in a child process, which reports on a pipe: `probe N KIND` before each
/// probe, then the result.
ChildRun runChild(const OpSchema& schema, const declone::runtime::AuditOptions& options,
                  int timeoutSeconds) {
  ChildRun run;
  int fds[2];
  if (pipe(fds) != 0) {
    run.failure = std::string("pipe failed: ") + std::strerror(errno);
    return run;
  }
  std::fflush(nullptr);
  pid_t child = fork();
  if (child < 0) {
    run.failure = std::string("fork failed: ") + std::strerror(errno);
    return run;
  }
  if (child == 0) {
    close(fds[0]);
    // glibc reports the heap corruption of kernels that write out of bounds on stderr; the
    // parent reports the crash.
    if (int null = open("/dev/null", O_WRONLY); null >= 0)
      dup2(null, STDERR_FILENO);
    declone::runtime::AuditOptions childOptions = options;
    childOptions.beforeProbe = [&](unsigned ordinal, unsigned kind) {
      if (!writeAll(fds[1], "probe " + std::to_string(ordinal) + " " + std::to_string(kind) + "\n"))
        _exit(3);
    };
    std::string report = serialize(declone::runtime::auditOverload(schema, childOptions));
    _exit(writeAll(fds[1], "result\n" + report) ? 0 : 3);
  }
  close(fds[1]);
  std::string output;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  bool timedOut = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd poll{fds[0], POLLIN, 0};
    if (::poll(&poll, 1, static_cast<int>(left)) <= 0)
      continue;
    char buffer[4096];
    ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n <= 0)
      break;
    output.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timedOut)
    kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  size_t result = output.find("result\n");
  if (!timedOut && WIFEXITED(status) && WEXITSTATUS(status) == 0 && result != std::string::npos) {
    run.finished = true;
    run.report = output.substr(result + 7);
    return run;
  }
  run.failure = timedOut              ? "timed out"
                : WIFSIGNALED(status) ? "crashed (" + std::string(strsignal(WTERMSIG(status))) + ")"
                                      : "the audit failed";
  size_t last = output.rfind("probe ");
  if (last != std::string::npos) {
    size_t kind = output.find(' ', last + 6);
    run.lastProbe = static_cast<unsigned>(std::stoul(output.substr(last + 6)));
    run.lastKind = static_cast<unsigned>(std::stoul(output.substr(kind + 1)));
  }
  return run;
}

/// Audits one overload in child processes: a probe that crashes or hangs is skipped in a rerun,
/// and with it every probe of its kind unless that is the base.
Outcome auditInChild(const std::string& name, const OpSchema& schema, uint64_t seed,
                     int timeoutSeconds) {
  Outcome outcome;
  outcome.name = name;
  declone::runtime::AuditOptions options;
  options.seed = seed;
  ChildRun run;
  for (int attempt = 0; attempt < 16; ++attempt) {
    run = runChild(schema, options, timeoutSeconds);
    if (run.finished || !run.lastProbe)
      break;
    if (run.lastKind)
      options.skipKinds |= 1u << run.lastKind;
    else
      options.skip.push_back(*run.lastProbe);
    ++outcome.skipped;
  }
  if (!run.finished) {
    outcome.reason = run.failure;
    return outcome;
  }
  const std::string& report = run.report;
  size_t end = report.find('\n');
  std::string head = report.substr(0, end);
  size_t tab1 = head.find('\t'), tab2 = head.find('\t', tab1 + 1);
  size_t tab3 = head.find('\t', tab2 + 1);
  outcome.exercised = head.substr(0, tab1) == "exercised";
  outcome.runs = static_cast<unsigned>(std::stoul(head.substr(tab1 + 1, tab2 - tab1 - 1)));
  outcome.kindsReached = static_cast<uint32_t>(std::stoul(head.substr(tab2 + 1, tab3 - tab2 - 1)));
  outcome.reason = head.substr(tab3 + 1);
  declone::Result<std::vector<EffectOverride>> lies =
      declone::parseEffectOverrides(report.substr(end + 1));
  if (!lies.ok()) {
    outcome.exercised = false;
    outcome.reason = "unreadable report: " + lies.error().message;
    return outcome;
  }
  outcome.lies = std::move(lies).value();
  return outcome;
}

/// The table's leading comment block: kept as the header when the table is regenerated.
std::string tableHeader(const std::string& text) {
  std::string header;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line) && (line.empty() || line[0] == '#'))
    header += line + "\n";
  return header;
}

/// The probe kind an audited finding's origin names (`[empty tensors] aten::...`), or "base".
std::string findingKind(const EffectOverride& lie) {
  size_t colon = lie.origin.find(": ");
  if (colon == std::string::npos || lie.origin.compare(colon + 2, 1, "[") != 0)
    return "base";
  size_t end = lie.origin.find(']', colon);
  return lie.origin.substr(colon + 3, end - colon - 3);
}

/// What each kind of probe reached and found, and how many exercised overloads take an argument
/// of each kind that only widened probes pass.
std::string probeKindTable(const std::vector<Outcome>& outcomes,
                           const std::map<std::string, const OpSchema*>& schemas) {
  std::vector<std::string_view> kinds = declone::runtime::probeKinds();
  std::map<std::string, std::set<std::string>> findings;
  for (const Outcome& outcome : outcomes)
    for (const EffectOverride& lie : outcome.lies)
      findings[findingKind(lie)].insert("`" + lie.op + "`: " + lie.correction());
  std::ostringstream out;
  out << "\n## Probe kinds\n\n"
      << "| probe kind | overloads reached | findings no earlier kind showed |\n|---|---:|---|\n";
  for (size_t k = 0; k < kinds.size(); ++k) {
    size_t reached = 0;
    for (const Outcome& outcome : outcomes)
      reached += (outcome.kindsReached >> k) & 1;
    const std::set<std::string>& found = findings[std::string(kinds[k])];
    std::string shown = k == 0 ? std::to_string(found.size()) + " (the classes below)" : "";
    for (const std::string& finding : k == 0 ? std::set<std::string>() : found)
      shown += (shown.empty() ? "" : "; ") + finding;
    out << "| " << kinds[k] << " | " << reached << " | " << (shown.empty() ? "none" : shown)
        << " |\n";
  }
  out << "\n| exercised overloads taking | count |\n|---|---:|\n";
  for (std::string_view element : {"Storage", "str", "complex"}) {
    size_t count = 0;
    for (const Outcome& outcome : outcomes) {
      auto found = schemas.find(outcome.name);
      if (!outcome.exercised || found == schemas.end())
        continue;
      const std::vector<declone::SchemaArgument>& arguments = found->second->arguments;
      count += std::any_of(arguments.begin(), arguments.end(), [&](const auto& argument) {
        return argument.type.element == element && !argument.defaultValue &&
               !argument.type.optional;
      });
    }
    out << "| `" << element << "` (no default) | " << count << " |\n";
  }
  return out.str();
}

std::string summarize(const std::vector<Outcome>& outcomes, size_t registrySize,
                      const std::vector<EffectOverride>& table, const std::set<std::string>& found,
                      const std::map<std::string, const Outcome*>& audited,
                      const std::map<std::string, const OpSchema*>& schemas,
                      const std::string& libtorch, const std::string& command) {
  size_t exercised = 0, withSkipped = 0, unknownBySchema = 0;
  std::map<std::string, size_t> notExercised;
  std::vector<std::string> crashed;
  std::map<std::string, std::vector<const EffectOverride*>> byClass;
  for (const Outcome& outcome : outcomes) {
    withSkipped += outcome.exercised && outcome.skipped;
    unknownBySchema += outcome.exercised && !outcome.reason.empty();
    if (outcome.exercised)
      ++exercised;
    else
      ++notExercised[outcome.reason];
    if (!outcome.exercised &&
        (outcome.reason.starts_with("crashed") || outcome.reason == "timed out"))
      crashed.push_back("`" + outcome.name + "` (" + outcome.reason + ")");
    for (const EffectOverride& lie : outcome.lies)
      byClass[std::string(lie.className())].push_back(&lie);
  }
  std::ostringstream out;
  out << "# Effect audit\n\n"
      << "Written by `" << command << "` (declone-audit-effects, `make audit`): every op overload "
      << "of the schema registry run with libtorch " << libtorch
      << " on random inputs (several shapes, dtypes, "
      << "contiguous / transposed / offset layouts, each bool argument and `p` varied; then "
      << "empty tensors, size-1 dimensions, strided and overlapping memory, Scalar arguments "
      << "0, 1, -1, 0.5, True and complex, optional arguments given values, shapes passed as "
      << "integer tensors; Storage, `str` and `complex` arguments), what it aliased and wrote "
      << "compared with its schema.\n\n"
      << "| overloads | count |\n|---|---:|\n"
      << "| in the registry | " << registrySize << " |\n"
      << "| audited | " << outcomes.size() << " |\n"
      << "| exercised | " << exercised << " |\n"
      << "| exercised, some probes skipped (they crashed or hung) | " << withSkipped << " |\n"
      << "| exercised, effects unknown by schema (a wildcard) | " << unknownBySchema << " |\n";
  for (const auto& [reason, count] : notExercised)
    out << "| not exercised: " << reason << " | " << count << " |\n";
  out << probeKindTable(outcomes, schemas);
  for (const char* cls : {"aliasing", "write"}) {
    const std::vector<const EffectOverride*>& lies = byClass[cls];
    std::set<std::string> ops;
    for (const EffectOverride* lie : lies)
      ops.insert(lie->op);
    out << "\n## "
        << (std::string(cls) == "aliasing" ? "Class 1: results that alias arguments"
                                           : "Class 2: undeclared writes")
        << " (" << ops.size() << " overloads)\n\n";
    for (const EffectOverride* lie : lies)
      out << "- `" << lie->op << "`: " << lie->correction() << "\n";
  }
  out << "\n## Seen with another libtorch only (kept: a graph may run with it)\n\n";
  for (const EffectOverride& entry : table)
    if (!entry.handWritten() && entry.libtorch() != libtorch && !found.count(entry.key()) &&
        audited.count(entry.op))
      out << "- `" << entry.op << "`: " << entry.correction() << " (libtorch " << entry.libtorch()
          << ")\n";
  out << "\n## Written by hand: ops the audit cannot run here\n\n";
  for (const EffectOverride& entry : table)
    if (entry.handWritten() && !found.count(entry.key()))
      out << "- `" << entry.op << "`: " << entry.correction() << " (" << entry.className() << "; "
          << entry.origin.substr(6) << ")\n";
  if (!crashed.empty()) {
    out << "\n## Not exercised: the kernel crashed or hung on every attempt\n\n";
    for (const std::string& name : crashed)
      out << "- " << name << "\n";
  }
  return out.str();
}

} // namespace

int main(int argc, char** argv) {
  std::string writeTable, checkTable, summaryFile;
  std::vector<std::string> only;
  size_t sample = 40;
  int timeout = 10;
  uint64_t seed = 1;
  std::string command = "declone-audit-effects";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    command += " " + arg;
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "declone-audit-effects: %s needs a value\n%s", arg.c_str(), kUsage);
        std::exit(2);
      }
      command += " " + std::string(argv[i + 1]);
      return argv[++i];
    };
    try {
      if (arg == "--write")
        writeTable = value();
      else if (arg == "--check")
        checkTable = value();
      else if (arg == "--summary")
        summaryFile = value();
      else if (arg == "--only")
        only.push_back(value());
      else if (arg == "--sample")
        sample = std::max<size_t>(1, std::stoul(value()));
      else if (arg == "--timeout")
        timeout = std::max(1, std::stoi(value()));
      else if (arg == "--seed")
        seed = std::stoull(value());
      else if (arg == "--help" || arg == "-h") {
        std::fputs(kUsage, stdout);
        return 0;
      } else {
        std::fprintf(stderr, "declone-audit-effects: unknown argument '%s'\n%s", arg.c_str(),
                     kUsage);
        return 2;
      }
    } catch (const std::exception&) {
      std::fprintf(stderr, "declone-audit-effects: bad number for %s\n", arg.c_str());
      return 2;
    }
  }
  if (!writeTable.empty() && !checkTable.empty()) {
    std::fprintf(stderr, "declone-audit-effects: --write and --check exclude each other\n");
    return 2;
  }

  std::map<std::string, const OpSchema*> overloads = registryOverloads();
  const std::string libtorch = declone::runtime::libtorchVersion();
  std::string tableText;
  std::vector<EffectOverride> table;
  if (const std::string& path = !writeTable.empty() ? writeTable : checkTable; !path.empty()) {
    declone::Result<std::string> text = declone::readFile(path);
    if (!text.ok()) {
      std::fprintf(stderr, "%s\n", text.error().format(path).c_str());
      return 2;
    }
    tableText = *text;
    declone::Result<std::vector<EffectOverride>> parsed = declone::parseEffectOverrides(tableText);
    if (!parsed.ok()) {
      std::fprintf(stderr, "%s\n", parsed.error().format(path).c_str());
      return 2;
    }
    table = std::move(parsed).value();
  }

  // What to audit: --only's overloads; for --check, the table's and a deterministic sample.
  std::vector<std::string> selected;
  if (!only.empty()) {
    for (const std::string& name : only) {
      if (!overloads.count(name)) {
        std::fprintf(stderr, "declone-audit-effects: no overload '%s' in the registry\n",
                     name.c_str());
        return 2;
      }
      selected.push_back(name);
    }
  } else if (!checkTable.empty()) {
    std::set<std::string> inTable;
    for (const EffectOverride& entry : table)
      if (entry.libtorch() == libtorch)
        inTable.insert(entry.op);
    size_t index = 0;
    for (const auto& [name, schema] : overloads)
      if (inTable.count(name) || index++ % sample == 0)
        selected.push_back(name);
  } else {
    for (const auto& [name, schema] : overloads)
      selected.push_back(name);
  }

  std::vector<Outcome> outcomes;
  for (const std::string& name : selected) {
    outcomes.push_back(auditInChild(name, *overloads.at(name), seed, timeout));
    const Outcome& outcome = outcomes.back();
    if (outcomes.size() % 500 == 0)
      std::fprintf(stderr, "declone-audit-effects: %zu of %zu overloads audited\n", outcomes.size(),
                   selected.size());
    if (!only.empty()) {
      std::printf("%s: %s (%u probes, %u skipped)%s%s\n", name.c_str(),
                  outcome.exercised ? "exercised" : "not exercised", outcome.runs, outcome.skipped,
                  outcome.reason.empty() ? "" : ": ", outcome.reason.c_str());
      for (const EffectOverride& lie : outcome.lies)
        std::printf("  %s\n", lie.toString().c_str());
    }
  }

  std::set<std::string> found;
  std::map<std::string, const Outcome*> audited;
  for (const Outcome& outcome : outcomes) {
    audited[outcome.name] = &outcome;
    for (const EffectOverride& lie : outcome.lies)
      found.insert(lie.key());
  }
  std::string summary =
      summarize(outcomes, overloads.size(), table, found, audited, overloads, libtorch, command);
  if (only.empty())
    std::fputs(summary.c_str(), stdout);
  if (!summaryFile.empty()) {
    if (declone::Status written = declone::writeFileAtomically(summaryFile, summary);
        !written.ok()) {
      std::fprintf(stderr, "declone-audit-effects: %s\n", written.error().message.c_str());
      return 2;
    }
  }

  if (!writeTable.empty()) {
    // This libtorch's lines are replaced; hand-written lines and other versions' stay unless
    // this audit found the same correction.
    std::vector<EffectOverride> entries;
    for (const EffectOverride& entry : table)
      if ((entry.libtorch() != libtorch || !audited.count(entry.op)) && !found.count(entry.key()))
        entries.push_back(entry);
    for (const Outcome& outcome : outcomes)
      entries.insert(entries.end(), outcome.lies.begin(), outcome.lies.end());
    std::stable_sort(
        entries.begin(), entries.end(),
        [](const EffectOverride& a, const EffectOverride& b) { return a.key() < b.key(); });
    std::string text = tableHeader(tableText);
    for (const EffectOverride& entry : entries)
      text += entry.toString() + "\n";
    if (declone::Status written = declone::writeFileAtomically(writeTable, text); !written.ok()) {
      std::fprintf(stderr, "declone-audit-effects: %s\n", written.error().message.c_str());
      return 2;
    }
  }

  if (!checkTable.empty()) {
    // Every audited entry must still be confirmed, and every lie found must be in the table.
    std::set<std::string> tableKeys;
    for (const EffectOverride& entry : table)
      tableKeys.insert(entry.key());
    size_t disagreements = 0, otherVersions = 0;
    for (const EffectOverride& entry : table) {
      otherVersions += !entry.handWritten() && entry.libtorch() != libtorch;
      if (entry.libtorch() != libtorch || found.count(entry.key()) || !audited.count(entry.op))
        continue;
      const Outcome* outcome = audited.at(entry.op);
      std::printf("not confirmed by libtorch: %s%s%s\n", entry.toString().c_str(),
                  outcome->exercised ? "" : " (not exercised: ",
                  outcome->exercised ? "" : (outcome->reason + ")").c_str());
      ++disagreements;
    }
    for (const Outcome& outcome : outcomes)
      for (const EffectOverride& lie : outcome.lies)
        if (!tableKeys.count(lie.key())) {
          std::printf("not in the table: %s\n", lie.toString().c_str());
          ++disagreements;
        }
    std::printf("%zu overloads audited with libtorch %s, %zu disagreements with %s (%zu lines "
                "of other libtorch versions not checked)\n",
                outcomes.size(), libtorch.c_str(), disagreements, checkTable.c_str(),
                otherVersions);
    return disagreements ? 1 : 0;
  }
  return 0;
}
