// Finding dumps under folders, running the pass on each, summing.
#include "declone/report/Report.h"

#include "declone/io/Reader.h"
#include "declone/report/TraceLog.h"
#include "declone/support/File.h"
#include "declone/support/Lines.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fnmatch.h>
#include <map>
#include <new>
#include <set>
#include <stdexcept>
#include <system_error>

namespace declone {
namespace {

namespace fs = std::filesystem;

std::string errorText(std::string_view path, std::string_view what, const std::error_code& ec) {
  return Error{std::string(what) + ": " + ec.message()}.format(path);
}

/// Appends the dump files under `dir` (sorted) to `out`; folders that cannot be listed become
/// inputs with an error, where they are met.
void collectFolder(const fs::path& dir, std::vector<DumpInput>& out) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    out.push_back({dir.string(), errorText(dir.string(), "cannot list", ec)});
    return;
  }
  // Files and sub-folders of one folder, visited in path order for a deterministic listing.
  std::vector<std::pair<fs::path, bool>> entries;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec)
      break;
    const fs::directory_entry& entry = *it;
    std::error_code statusError;
    // symlink_status: a link to a folder is not followed (it could make a cycle).
    fs::file_status own = entry.symlink_status(statusError);
    if (statusError)
      continue;
    if (fs::is_directory(own)) {
      entries.emplace_back(entry.path(), true);
    } else if (isDumpFileName(entry.path().filename().string())) {
      fs::file_status target = entry.status(statusError);
      if (!statusError && fs::is_regular_file(target))
        entries.emplace_back(entry.path(), false);
    }
  }
  // A listing that fails half-way is reported, and what was listed is still read.
  if (ec)
    out.push_back({dir.string(), errorText(dir.string(), "cannot list", ec)});
  std::sort(entries.begin(), entries.end());
  for (const auto& [path, isFolder] : entries) {
    if (isFolder)
      collectFolder(path, out);
    else
      out.push_back({path.string(), std::nullopt, /*inFolder=*/true});
  }
}

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// `name: type` without `=`: a stub line the reader skips at the top level.
bool isStubLine(std::string_view line) {
  size_t end = 0;
  while (end < line.size() && isIdentifierChar(line[end]))
    ++end;
  return end > 0 && end < line.size() && line[end] == ':' && line.find('=') == line.npos;
}

size_t countNodes(const GraphModule& module) {
  size_t nodes = module.graph.size();
  for (const auto& child : module.children)
    nodes += countNodes(*child);
  return nodes;
}

/// The stage in a file name tlparse gives an extracted graph: `inductor_post_grad_graph_12.txt`
/// -> "inductor_post_grad_graph"; empty for other names.
std::string stageOfFileName(std::string_view path) {
  std::string stem = fs::path(std::string(path)).stem().string();
  size_t digits = stem.find_last_not_of("0123456789");
  if (digits != std::string::npos && digits + 1 < stem.size() && stem[digits] == '_')
    stem.resize(digits);
  return isTraceGraphName(stem) ? stem : std::string();
}

/// One row for one graph text. `located` moves a parse error's position to where the text came
/// from; `errorFile` is the file the error names.
template <class Locate>
DumpStats reportGraphText(std::string name, std::string_view errorFile, std::string_view text,
                          const CloneEliminationOptions& options, Locate&& located) {
  DumpStats row;
  row.name = std::move(name);
  row.file = std::string(errorFile);
  // Trailing blank lines differ between a log's payload and the file tlparse writes from it.
  row.textHash = std::hash<std::string_view>{}(trim(text)) | 1;
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(text);
  if (!file.ok()) {
    row.error = located(file.error()).format(errorFile);
    return row;
  }
  CloneEliminationOptions passOptions = options;
  passOptions.donated.clear();
  passOptions.collectRemarks = false; // a row needs the statistics only
  for (auto& module : (*file)->modules) {
    ++row.graphs;
    row.nodes += countNodes(*module);
    if (passOptions.mode != CloneEliminationMode::Safe) {
      row.clones += eliminateClones(*module, passOptions).stats;
      continue;
    }
    CopyEliminationResult result = eliminateCopies(*module, passOptions, PassOrder::ClonesFirst);
    row.clones += result.clones.stats;
    row.copies += result.copies.stats;
  }
  return row;
}

} // namespace

size_t DumpStats::kept() const {
  size_t kept = 0;
  for (size_t count : clones.kept)
    kept += count;
  return kept;
}

DumpStats& DumpStats::operator+=(const DumpStats& other) {
  graphs += other.graphs;
  nodes += other.nodes;
  clones += other.clones;
  copies += other.copies;
  return *this;
}

bool isDumpFileName(std::string_view path) {
  for (std::string_view extension : {".py", ".fx", ".txt", ".log"})
    if (path.size() > extension.size() && path.ends_with(extension))
      return true;
  return false;
}

bool looksLikeDump(std::string_view name, std::string_view text) {
  if (looksLikeGraphLog(text) || name.ends_with(".fx")) // .fx: graph text by its name
    return true;
  if (name.ends_with(".log"))
    return false;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == line.npos || line[first] == '#')
      continue;
    if (first == 0 &&
        (line.starts_with("import ") || line.starts_with("from ") || isStubLine(line)))
      continue;
    line.remove_prefix(first);
    return line.starts_with("class ") || line.starts_with("def forward");
  }
  return false;
}

bool DumpFilter::accepts(std::string_view path) const {
  std::string text(path);
  std::string name = fs::path(text).filename().string();
  auto matches = [&](const std::vector<std::string>& globs) {
    return std::any_of(globs.begin(), globs.end(), [&](const std::string& glob) {
      return fnmatch(glob.c_str(), text.c_str(), 0) == 0 ||
             fnmatch(glob.c_str(), name.c_str(), 0) == 0;
    });
  };
  return (include.empty() || matches(include)) && !matches(exclude);
}

std::vector<DumpInput> collectDumpInputs(std::span<const std::string> paths,
                                         const DumpFilter& filter) {
  std::vector<DumpInput> found;
  for (const std::string& path : paths) {
    if (path == "-") {
      found.push_back({path, std::nullopt}); // standard input
      continue;
    }
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      found.push_back(
          {path, errorText(path, "cannot open",
                           ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory))});
      continue;
    }
    if (fs::is_directory(status))
      collectFolder(path, found);
    else
      found.push_back({path, std::nullopt}); // named explicitly: taken whatever its name
  }
  // A file reached twice (named twice, or named and inside a named folder) counts once.
  std::vector<DumpInput> inputs;
  std::set<std::string> seen;
  for (DumpInput& input : found) {
    if (!input.error && input.path != "-") {
      if (!filter.accepts(input.path))
        continue;
      std::error_code ec;
      fs::path canonical = fs::weakly_canonical(input.path, ec);
      if (!seen.insert(ec ? input.path : canonical.string()).second)
        continue;
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::vector<DumpStats> reportText(std::string_view name, std::string_view text,
                                  const CloneEliminationOptions& options) {
  auto same = [](const Error& error) { return error; };
  if (!name.ends_with(".log") && !looksLikeGraphLog(text)) {
    DumpStats row = reportGraphText(std::string(name), name, text, options, same);
    row.stage = row.graphKey = stageOfFileName(name);
    return {std::move(row)};
  }

  std::vector<DumpStats> rows;
  auto fileRow = [&] {
    DumpStats row;
    row.name = std::string(name);
    row.file = std::string(name);
    return row;
  };
  Result<TraceLog> log = splitGraphLog(text);
  if (!log.ok()) {
    DumpStats row = fileRow();
    row.error = log.error().format(name);
    rows.push_back(std::move(row));
    return rows;
  }
  for (const TraceGraph& graph : log->graphs) {
    DumpStats row = reportGraphText(graph.displayName(name), name, graph.payload, options,
                                    [&](const Error& error) { return graph.toLogPosition(error); });
    row.record = graph.key + ":" + std::to_string(graph.line);
    row.graphKey = graph.key;
    // vLLM's graph_dump.NAME records are pieces of one stage.
    row.stage = graph.key.starts_with("graph_dump.") ? "graph_dump" : graph.key;
    row.compileId = graph.compileId;
    rows.push_back(std::move(row));
  }
  if (log->firstProblem) {
    // One row for the lines that are not records, so that a damaged log still reports the
    // graphs it holds but does not pass as read.
    DumpStats row = fileRow();
    row.error = log->firstProblem->format(name);
    if (log->numProblems > 1)
      *row.error += " (and " + std::to_string(log->numProblems - 1) + " more bad lines)";
    rows.push_back(std::move(row));
  } else if (log->graphs.empty()) {
    rows.push_back(fileRow()); // a trace without graph payloads: read, nothing in it
  }
  return rows;
}

std::vector<DumpStats> reportFile(const std::string& path, const CloneEliminationOptions& options,
                                  const ReadLimit& limit) {
  std::string name = path == "-" ? std::string("<stdin>") : path;
  Result<std::string> text = readFile(path, limit);
  if (!text.ok()) {
    DumpStats row;
    row.name = row.file = name;
    row.error = text.error().format(name);
    return {row};
  }
  // Standard input is taken whatever it holds; a file that is not a dump (Inductor's
  // output_code.py, a repro script) has no rows and is counted as skipped.
  if (path != "-" && !looksLikeDump(path, *text))
    return {};
  return reportText(name, *text, options);
}

std::vector<DumpStats> reportInput(const DumpInput& input, const ReportOptions& options) {
  if (input.error) {
    DumpStats row;
    row.name = row.file = input.path;
    row.error = input.error;
    return {std::move(row)};
  }
  // Running out of memory is this file's error row, and the other files are still reported. By
  // the time the row is made the file's text and graphs are freed, so that making it does not
  // fail the same way.
  const char* what = nullptr;
  try {
    return reportFile(input.path, options.pass, options.read);
  } catch (const std::bad_alloc&) {
    what = "out of memory";
  } catch (const std::length_error&) {
    what = "out of memory (a size too large to allocate)";
  }
  DumpStats row;
  row.name = row.file = input.path == "-" ? std::string("<stdin>") : input.path;
  row.error = Error{what}.format(row.name);
  return {std::move(row)};
}

std::vector<size_t> reportOrder(std::span<const DumpInput> inputs) {
  std::vector<std::pair<uintmax_t, size_t>> schedule;
  schedule.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::error_code ec;
    uintmax_t size =
        inputs[i].error || inputs[i].path == "-" ? 0 : fs::file_size(inputs[i].path, ec);
    schedule.emplace_back(ec ? 0 : size, i);
  }
  std::stable_sort(schedule.begin(), schedule.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<size_t> order;
  order.reserve(schedule.size());
  for (const auto& [size, index] : schedule)
    order.push_back(index);
  return order;
}

namespace {

/// The totals: each distinct graph text once overall and once per stage.
void sumTotals(Report& report) {
  std::map<std::pair<std::string, size_t>, std::string> firstOfGraph;
  std::set<std::string> stages;
  for (DumpStats& row : report.rows) {
    if (row.textHash && !row.graphKey.empty() && !row.error) {
      auto [first, isNew] = firstOfGraph.emplace(std::pair(row.graphKey, row.textHash), row.name);
      if (!isNew) {
        row.sameAs = first->second;
        ++report.duplicates;
      }
    }
    if (row.sameAs)
      continue;
    report.total += row;
    if (row.stage.empty() || row.error)
      continue;
    stages.insert(row.stage);
    auto stage = std::find_if(report.stages.begin(), report.stages.end(),
                              [&](const DumpStats& each) { return each.name == row.stage; });
    if (stage == report.stages.end()) {
      report.stages.emplace_back();
      stage = std::prev(report.stages.end());
      stage->name = row.stage;
    }
    *stage += row;
  }
  if (stages.size() < 2)
    report.stages.clear(); // one stage's total is the total
}

} // namespace

Report assembleReport(std::span<const DumpInput> inputs,
                      std::vector<std::optional<std::vector<DumpStats>>> results) {
  Report report;
  report.total.name = "total";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i >= results.size() || !results[i]) {
      ++report.notRun;
      continue;
    }
    if (!inputs[i].error)
      ++report.files;
    if (!inputs[i].error && results[i]->empty()) {
      ++report.skipped;
      if (!inputs[i].inFolder)
        report.skippedNamed.push_back(inputs[i].path);
    }
    for (DumpStats& row : *results[i]) {
      if (row.error)
        ++report.failed;
      report.rows.push_back(std::move(row));
    }
  }
  sumTotals(report);
  return report;
}

Report buildReport(std::span<const DumpInput> inputs, const ReportOptions& options) {
  std::vector<std::optional<std::vector<DumpStats>>> results(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    results[i] = reportInput(inputs[i], options);
  return assembleReport(inputs, std::move(results));
}

} // namespace declone
