// The report's table and JSON forms, and ordering rows by a column.
#include "declone/report/Report.h"
#include "declone/support/Bytes.h"
#include "declone/support/Remark.h"

#include <algorithm>
#include <cinttypes>

namespace declone {
namespace {

/// Columns that hold a count, in table order; `value` reads one from a row.
struct NumericColumn {
  std::string_view name;
  uint64_t (*value)(const DumpStats&);
};

constexpr NumericColumn kLeadingColumns[] = {
    {"graphs", [](const DumpStats& row) -> uint64_t { return row.graphs; }},
    {"nodes", [](const DumpStats& row) -> uint64_t { return row.nodes; }},
    {"clones", [](const DumpStats& row) -> uint64_t { return row.clones.clones; }},
    {"removed", [](const DumpStats& row) -> uint64_t { return row.clones.removed; }},
    {"kept", [](const DumpStats& row) -> uint64_t { return row.kept(); }},
};
constexpr NumericColumn kBytesColumn = {
    "bytes", [](const DumpStats& row) -> uint64_t { return row.clones.bytesRemoved; }};
constexpr NumericColumn kSymbolicColumn = {
    "symbolic", [](const DumpStats& row) -> uint64_t { return row.clones.removedSymbolic; }};
/// Shown when some graph has functionalized calls: the copies they imply, those avoided, and
/// the bytes of those.
constexpr NumericColumn kCopyColumns[] = {
    {"copies", [](const DumpStats& row) -> uint64_t { return row.copies.copies; }},
    {"avoided", [](const DumpStats& row) -> uint64_t { return row.copies.avoided; }},
    {"copy-bytes", [](const DumpStats& row) -> uint64_t { return row.copies.bytesAvoided; }},
};

std::optional<NumericColumn> numericColumn(std::string_view name) {
  for (const NumericColumn& column : kLeadingColumns)
    if (column.name == name)
      return column;
  if (name == kBytesColumn.name)
    return kBytesColumn;
  if (name == kSymbolicColumn.name)
    return kSymbolicColumn;
  for (const NumericColumn& column : kCopyColumns)
    if (column.name == name)
      return column;
  return std::nullopt;
}

std::optional<size_t> reasonIndex(std::string_view name) {
  for (size_t i = 0; i < kNumKeepReasons; ++i)
    if (reasonCode(static_cast<KeepReason>(i)) == name)
      return i;
  return std::nullopt;
}

size_t shownRows(const Report& report, const TableOptions& options) {
  return options.top ? std::min(options.top, report.rows.size()) : report.rows.size();
}

/// The longest folder prefix (ending in '/') of the rows' names: with one row, its folder. The
/// heading then names the folder whatever the number of rows (and whatever --top shows).
std::string_view commonFolder(const std::vector<DumpStats>& rows) {
  if (rows.empty())
    return {};
  const size_t count = rows.size();
  std::string_view prefix = rows[0].name;
  for (size_t i = 1; i < count; ++i) {
    std::string_view name = rows[i].name;
    size_t same = 0;
    while (same < prefix.size() && same < name.size() && prefix[same] == name[same])
      ++same;
    prefix = prefix.substr(0, same);
  }
  size_t slash = prefix.rfind('/');
  // "/" alone says nothing; it only happens for absolute paths with nothing else in common.
  return slash == std::string_view::npos || slash == 0 ? std::string_view()
                                                       : prefix.substr(0, slash + 1);
}

void appendStatsJson(const DumpStats& row, std::string& out) {
  out += "\"graphs\": " + std::to_string(row.graphs);
  out += ", \"nodes\": " + std::to_string(row.nodes);
  out += ", \"clones\": " + std::to_string(row.clones.clones);
  out += ", \"removed\": " + std::to_string(row.clones.removed);
  out += ", \"dead\": " + std::to_string(row.clones.dead);
  out += ", \"kept\": " + std::to_string(row.kept());
  out += ", \"kept_by_reason\": {";
  for (size_t i = 0; i < kNumKeepReasons; ++i) {
    if (i)
      out += ", ";
    appendJsonString(reasonCode(static_cast<KeepReason>(i)), out);
    out += ": " + std::to_string(row.clones.kept[i]);
  }
  out += "}, \"bytes_removed\": " + std::to_string(row.clones.bytesRemoved);
  out += ", \"removed_symbolic\": " + std::to_string(row.clones.removedSymbolic);
  const DefunctionalizationStats& copies = row.copies;
  out += ", \"copies\": {\"calls\": " + std::to_string(copies.calls) +
         ", \"rewritten\": " + std::to_string(copies.rewritten) +
         ", \"copies\": " + std::to_string(copies.copies) +
         ", \"avoided\": " + std::to_string(copies.avoided) + ", \"kept_by_reason\": {";
  for (size_t i = 0; i < kNumCopyKeepReasons; ++i) {
    if (i)
      out += ", ";
    appendJsonString(reasonCode(static_cast<CopyKeepReason>(i)), out);
    out += ": " + std::to_string(copies.kept[i]);
  }
  out += "}, \"bytes_avoided\": " + std::to_string(copies.bytesAvoided) +
         ", \"avoided_symbolic\": " + std::to_string(copies.avoidedSymbolic) + "}";
}

} // namespace

std::vector<std::string_view> reportColumns() {
  std::vector<std::string_view> columns = {"file"};
  for (const NumericColumn& column : kLeadingColumns)
    columns.push_back(column.name);
  for (size_t i = 0; i < kNumKeepReasons; ++i)
    columns.push_back(reasonCode(static_cast<KeepReason>(i)));
  columns.push_back(kBytesColumn.name);
  columns.push_back(kSymbolicColumn.name);
  for (const NumericColumn& column : kCopyColumns)
    columns.push_back(column.name);
  columns.push_back("error");
  return columns;
}

Status sortRows(std::vector<DumpStats>& rows, std::string_view column) {
  if (column == "file") {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const DumpStats& a, const DumpStats& b) { return a.name < b.name; });
    return ok();
  }
  if (column == "error") {
    // Rows with an error first, by message: `--sort error --top 10` lists what failed.
    std::stable_sort(rows.begin(), rows.end(), [](const DumpStats& a, const DumpStats& b) {
      if (a.error.has_value() != b.error.has_value())
        return a.error.has_value();
      return a.error && *a.error < *b.error;
    });
    return ok();
  }
  uint64_t (*value)(const DumpStats&) = nullptr;
  std::optional<size_t> reason = reasonIndex(column);
  if (std::optional<NumericColumn> numeric = numericColumn(column))
    value = numeric->value;
  else if (!reason) {
    std::string known;
    for (std::string_view name : reportColumns())
      known += (known.empty() ? "" : ", ") + std::string(name);
    return Error{"--sort: unknown column '" + std::string(column) + "' (one of " + known + ")"};
  }
  auto key = [&](const DumpStats& row) -> uint64_t {
    return value ? value(row) : row.clones.kept[*reason];
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const DumpStats& a, const DumpStats& b) { return key(a) > key(b); });
  return ok();
}

std::string formatReportTable(const Report& report, const TableOptions& options) {
  // The columns: the fixed ones, a column per reason code that occurs, bytes, and the count of
  // removed clones whose bytes are unknown when there are any.
  struct Column {
    std::string header;
    std::string (*cell)(const DumpStats&, size_t);
    size_t reason = 0;
  };
  std::vector<Column> columns;
  for (const NumericColumn& numeric : kLeadingColumns)
    columns.push_back({std::string(numeric.name), nullptr});
  for (size_t i = 0; i < kNumKeepReasons; ++i)
    if (report.total.clones.kept[i] != 0)
      columns.push_back({std::string(reasonCode(static_cast<KeepReason>(i))),
                         [](const DumpStats& row, size_t reason) {
                           return std::to_string(row.clones.kept[reason]);
                         },
                         i});
  columns.push_back({"bytes removed", [](const DumpStats& row, size_t) {
                       return formatBytes(row.clones.bytesRemoved);
                     }});
  if (report.total.clones.removedSymbolic != 0)
    columns.push_back({"symbolic", [](const DumpStats& row, size_t) {
                         return std::to_string(row.clones.removedSymbolic);
                       }});
  if (report.total.copies.copies != 0) {
    columns.push_back(
        {"copies", [](const DumpStats& row, size_t) { return std::to_string(row.copies.copies); }});
    columns.push_back({"avoided", [](const DumpStats& row, size_t) {
                         return std::to_string(row.copies.avoided);
                       }});
    columns.push_back({"bytes avoided", [](const DumpStats& row, size_t) {
                         return formatBytes(row.copies.bytesAvoided);
                       }});
  }

  size_t shown = shownRows(report, options);
  std::vector<const DumpStats*> rows;
  for (size_t i = 0; i < shown; ++i)
    rows.push_back(&report.rows[i]);
  rows.push_back(&report.total);
  for (const DumpStats& stage : report.stages)
    rows.push_back(&stage);

  auto cell = [&](const DumpStats& row, size_t column) -> std::string {
    if (row.error)
      return "-";
    if (column < std::size(kLeadingColumns))
      return std::to_string(kLeadingColumns[column].value(row));
    return columns[column].cell(row, columns[column].reason);
  };
  // Rows under one folder are shown relative to it, and the folder heads the column: a
  // corpus path repeated on every line only pushes the numbers off the screen.
  std::string_view prefix = commonFolder(report.rows);
  std::string nameHeader = prefix.empty() ? std::string("file") : std::string(prefix);
  auto shortName = [&](const DumpStats& row) {
    bool listed =
        !report.rows.empty() && &row >= &report.rows.front() && &row <= &report.rows.back();
    if (listed)
      return std::string(std::string_view(row.name).substr(prefix.size()));
    return &row == &report.total ? row.name : "stage " + row.name;
  };
  size_t nameWidth = nameHeader.size();
  for (const DumpStats* row : rows)
    nameWidth = std::max(nameWidth, shortName(*row).size());
  std::vector<size_t> widths;
  for (size_t c = 0; c < columns.size(); ++c) {
    size_t width = columns[c].header.size();
    for (const DumpStats* row : rows)
      width = std::max(width, cell(*row, c).size());
    widths.push_back(width);
  }

  std::string out;
  auto line = [&](std::string_view name, auto&& text, const std::string* trailing) {
    std::string row(name);
    row.resize(nameWidth, ' ');
    for (size_t c = 0; c < columns.size(); ++c) {
      std::string value = text(c);
      row += "  " + std::string(widths[c] - std::min(widths[c], value.size()), ' ') + value;
    }
    if (trailing)
      row += "  " + *trailing;
    while (!row.empty() && row.back() == ' ')
      row.pop_back();
    out += row + '\n';
  };
  size_t ruleWidth = nameWidth;
  for (size_t width : widths)
    ruleWidth += 2 + width;
  line(
      nameHeader, [&](size_t c) { return columns[c].header; }, nullptr);
  out += std::string(ruleWidth, '-') + '\n';
  for (size_t i = 0; i < shown; ++i) {
    const DumpStats& row = report.rows[i];
    std::string sameAs =
        row.sameAs
            ? "(the graph of " +
                  std::string(std::string_view(*row.sameAs)
                                  .substr(row.sameAs->starts_with(prefix) ? prefix.size() : 0)) +
                  ")"
            : std::string();
    line(
        shortName(row), [&](size_t c) { return cell(row, c); },
        row.error    ? &*row.error
        : row.sameAs ? &sameAs
                     : nullptr);
  }
  out += std::string(ruleWidth, '-') + '\n';
  line(
      shortName(report.total), [&](size_t c) { return cell(report.total, c); }, nullptr);
  for (const DumpStats& stage : report.stages)
    line(
        shortName(stage), [&](size_t c) { return cell(stage, c); }, nullptr);

  auto count = [](size_t n, std::string_view word) {
    return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
  };
  out += count(report.files, "file");
  if (report.rows.size() != report.files - report.skipped)
    out += ", " + count(report.rows.size(), "row");
  if (report.skipped)
    out += "; " + std::to_string(report.skipped) + " skipped (" +
           (report.skipped == 1 ? "not a graph dump)" : "not graph dumps)");
  if (report.failed)
    out += "; " + std::to_string(report.failed) + " could not be read";
  if (report.duplicates)
    out += "; " + count(report.duplicates, "row") + " repeating an earlier graph, counted once";
  if (!report.stages.empty())
    out += "; a clone lives on from stage to stage: each stage's line counts it once";
  if (report.notRun)
    out += "; interrupted: " + count(report.notRun, "file") + " not run";
  if (shown < report.rows.size())
    out += "; showing " + std::to_string(shown) + " of " + count(report.rows.size(), "row");
  out += '\n';
  return out;
}

std::string formatReportJson(const Report& report, const TableOptions& options) {
  std::string out = "{\"rows\": [";
  size_t shown = shownRows(report, options);
  for (size_t i = 0; i < shown; ++i) {
    const DumpStats& row = report.rows[i];
    out += i ? ",\n  {\"name\": " : "\n  {\"name\": ";
    appendJsonString(row.name, out);
    out += ", \"file\": ";
    appendJsonString(row.file, out);
    appendJsonField("record", row.record, out);
    appendJsonField("stage", row.stage, out);
    appendJsonField("compile_id", row.compileId, out);
    appendJsonField("same_as", row.sameAs.value_or(""), out);
    out += ", ";
    appendStatsJson(row, out);
    appendJsonField("error", row.error.value_or(""), out);
    out += "}";
  }
  out += shown ? "\n],\n" : "],\n";
  out += "\"total\": {\"files\": " + std::to_string(report.files);
  out += ", \"rows\": " + std::to_string(report.rows.size());
  out += ", \"errors\": " + std::to_string(report.failed);
  out += ", \"skipped\": " + std::to_string(report.skipped);
  out += ", \"not_run\": " + std::to_string(report.notRun);
  out += ", \"duplicates\": " + std::to_string(report.duplicates) + ", ";
  appendStatsJson(report.total, out);
  out += "},\n\"stages\": [";
  for (size_t i = 0; i < report.stages.size(); ++i) {
    out += i ? ",\n  {\"stage\": " : "\n  {\"stage\": ";
    appendJsonString(report.stages[i].name, out);
    out += ", ";
    appendStatsJson(report.stages[i], out);
    out += "}";
  }
  out += report.stages.empty() ? "]}\n" : "\n]}\n";
  return out;
}

} // namespace declone
