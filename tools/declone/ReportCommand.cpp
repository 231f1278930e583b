// `declone report`: clone elimination over files and folders of dumps, one table for all.
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "declone/report/Progress.h"
#include "declone/report/Report.h"
#include "declone/support/File.h"

#include <charconv>
#include <iostream>
#include <unistd.h>

namespace declone::cli {
namespace {

/// A count option: digits only, at least `min`.
std::optional<size_t> parseCount(std::string_view option, const std::string& text, size_t min) {
  size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min) {
    reportUsageError(std::string(option) + " takes a number" + (min ? " of at least 1" : "") +
                     ", not '" + text + "'");
    return std::nullopt;
  }
  return value;
}

} // namespace

int runReport(std::span<const std::string_view> args) {
  std::vector<std::string> paths;
  std::string sort, top, jobs;
  bool json = false, quiet = false;
  CloneFlags flags;
  ArgumentParser parser(
      "report",
      "Run clone elimination on every graph dump in the given files and folders (recursively:\n"
      "*.py, *.fx, *.txt graph text and *.log TORCH_TRACE logs, one row per graph record) and\n"
      "print one table. Files are processed in parallel. Exit status 2 when some input could not\n"
      "be read or parsed (its row says why); the others are still reported.");
  parser.positional("PATH", "a graph file, a structured trace log or a folder", &paths, 1,
                    SIZE_MAX);
  parser.flag("--json", "write the table as JSON", &json);
  parser.option("--sort", "COL",
                "order rows by COL, numbers largest first: file, graphs, nodes, clones,\n"
                "                          removed, kept, a reason code, bytes, symbolic or error",
                &sort);
  parser.option("--top", "N", "show only the first N rows (the total still counts all)", &top);
  flags.addTo(parser, /*withDonated=*/false);
  DumpFilter filter;
  parser.repeated("--include", "GLOB",
                  "only files whose path or name matches GLOB (may be repeated)", &filter.include);
  parser.repeated("--exclude", "GLOB",
                  "leave out files whose path or name matches GLOB (may be repeated)",
                  &filter.exclude);
  parser.option("-j|--jobs", "N", "threads to use (default: one per core)", &jobs);
  parser.flag("-q|--quiet", "no progress on standard error", &quiet);
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  if (!flags.prepare())
    return kBadInput;

  ReportOptions options;
  options.pass = flags.baseOptions();
  TableOptions table;
  if (!top.empty()) {
    std::optional<size_t> count = parseCount("--top", top, 1);
    if (!count)
      return kBadInput;
    table.top = *count;
  }
  if (!jobs.empty()) {
    std::optional<size_t> count = parseCount("--jobs", jobs, 1);
    if (!count)
      return kBadInput;
    options.jobs = static_cast<unsigned>(std::min<size_t>(*count, 1024));
  }
  // Check --sort before the work, not after it.
  std::vector<DumpStats> probe;
  if (!sort.empty()) {
    if (Status sorted = sortRows(probe, sort); !sorted.ok()) {
      reportUsageError(sorted.error().message);
      return kBadInput;
    }
  }

  std::vector<DumpInput> inputs = collectDumpInputs(paths, filter);
  std::optional<ProgressMeter> progress;
  if (!quiet && !inputs.empty()) {
    progress.emplace(std::cerr, isatty(STDERR_FILENO) != 0, "report");
    options.progress = [&](size_t done, size_t total) { progress->update(done, total); };
  }
  Report report = buildReport(inputs, options);
  if (progress)
    progress->finish();
  if (inputs.empty())
    reportUsageWarning("no graph dumps (*.py, *.fx, *.txt, *.log) found");
  if (!sort.empty())
    (void)sortRows(report.rows, sort); // the column was checked above

  std::string out = json ? formatReportJson(report, table) : formatReportTable(report, table);
  if (Status written = writeFileAtomically("", out); !written.ok()) {
    reportUsageError(written.error().message);
    return kBadInput;
  }
  return report.failed ? kBadInput : kSuccess;
}

} // namespace declone::cli
