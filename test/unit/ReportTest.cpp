// The report library: finding dumps, one row per graph, threads, sums, sorting, table and JSON.
#include "declone/report/Report.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace declone::test {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTwoClones = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[4, 3][3, 1]cpu"):
        slice_1: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 3);  arg0_1 = None
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        clone_1: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        mul: "f32[4, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(clone_1, 2);  clone_1 = None
        add: "f32[4, 3][3, 1]cpu" = torch.ops.aten.add.Tensor(clone, mul);  clone = mul = None
        return (add,)
)";

/// A scratch folder, removed at the end of the test.
class ScratchDir {
public:
  ScratchDir() {
    path_ = fs::temp_directory_path() /
            ("declone-report-test-" +
             std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  std::string write(const std::string& relative, std::string_view text) const {
    fs::path file = path_ / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

std::vector<std::string> paths(const std::vector<DumpInput>& inputs) {
  std::vector<std::string> out;
  for (const DumpInput& input : inputs)
    out.push_back(input.path);
  return out;
}

TEST(Report, DumpFileNames) {
  for (std::string_view name : {"a.py", "dir/graph.fx", "b.txt", "trace.log"})
    EXPECT_TRUE(isDumpFileName(name)) << name;
  for (std::string_view name : {"README.md", "LICENSE", "MANIFEST.tsv", ".py", "a.pyc", "x.json"})
    EXPECT_FALSE(isDumpFileName(name)) << name;
}

// A file reached twice (named again, or through a link to it) is read once.
TEST(Report, FoldersAreWalkedInPathOrderAndLinksToFoldersAreNotFollowed) {
  ScratchDir dir;
  std::string root = dir.path().string();
  dir.write("b/z.fx", kTwoClones);
  dir.write("b/a.py", kTwoClones);
  dir.write("a.txt", kTwoClones);
  dir.write("c/d/e.log", "");
  dir.write("notes.md", "# not a dump");
  fs::create_directory_symlink(dir.path() / "b", dir.path() / "loop");
  fs::create_symlink(dir.path() / "b" / "a.py", dir.path() / "link.py");
  std::vector<std::string> arguments = {root, root + "/a.txt", root + "/missing"};
  std::vector<DumpInput> inputs = collectDumpInputs(arguments);
  EXPECT_EQ(paths(inputs),
            (std::vector<std::string>{root + "/a.txt", root + "/b/a.py", root + "/b/z.fx",
                                      root + "/c/d/e.log", root + "/missing"}));
  for (size_t i = 0; i + 1 < inputs.size(); ++i)
    EXPECT_FALSE(inputs[i].error) << inputs[i].path;
  ASSERT_TRUE(inputs.back().error);
  EXPECT_EQ(*inputs.back().error, root + "/missing: error: cannot open: No such file or directory");
}

TEST(Report, IncludeAndExcludeGlobsMatchThePathOrTheName) {
  ScratchDir dir;
  std::string root = dir.path().string();
  dir.write("graphs/fx_graph_readable.py", kTwoClones);
  dir.write("graphs/output_code.py", kTwoClones);
  dir.write("logs/rank0.log", "");
  DumpFilter filter;
  filter.exclude = {"output_code.py"};
  EXPECT_EQ(
      paths(collectDumpInputs(std::vector<std::string>{root}, filter)),
      (std::vector<std::string>{root + "/graphs/fx_graph_readable.py", root + "/logs/rank0.log"}));
  filter.include = {"*/graphs/*"};
  EXPECT_EQ(paths(collectDumpInputs(std::vector<std::string>{root}, filter)),
            (std::vector<std::string>{root + "/graphs/fx_graph_readable.py"}));
}

TEST(Report, OneRowPerGraphFileWithThePassStatistics) {
  std::vector<DumpStats> rows = reportText("g.fx", kTwoClones, {});
  ASSERT_EQ(rows.size(), 1u);
  const DumpStats& row = rows[0];
  EXPECT_EQ(row.name, "g.fx");
  EXPECT_FALSE(row.error);
  EXPECT_EQ(row.graphs, 1u);
  EXPECT_EQ(row.nodes, 8u);
  EXPECT_EQ(row.clones.clones, 2u);
  EXPECT_EQ(row.clones.removed, 1u);
  EXPECT_EQ(row.kept(), 1u);
  EXPECT_EQ(row.clones.kept[static_cast<size_t>(KeepReason::LayoutChanged)], 1u);
  EXPECT_EQ(row.clones.bytesRemoved, 4u * 3u * 4u);
}

TEST(Report, ParseErrorsAreLocatedRows) {
  std::vector<DumpStats> rows = reportText("bad.py", "def forward(self, x):\n    y = (\n", {});
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].error);
  EXPECT_TRUE(rows[0].error->starts_with("bad.py:")) << *rows[0].error;
  EXPECT_NE(rows[0].error->find(": error: "), std::string::npos);
  std::string binary("\x7f"
                     "ELF\0\0\x01\x02",
                     8);
  rows = reportText("bin.fx", binary, {});
  ASSERT_TRUE(rows[0].error);
  EXPECT_NE(rows[0].error->find("NUL byte"), std::string::npos) << *rows[0].error;
}

TEST(Report, FilesOverTheSizeLimitAreErrorRowsAndTheOthersAreReported) {
  ScratchDir dir;
  std::string small = dir.write("a.fx", kTwoClones);
  std::string big = dir.write("b.fx", kTwoClones);
  // Sparse: 16 GiB that take no room, refused by their size before any is read.
  fs::resize_file(big, uint64_t(16) << 30);
  ReportOptions options;
  options.read = {uint64_t(1) << 20, "set by --max-input-size"};
  Report report = buildReport(collectDumpInputs({{dir.path().string()}}), options);
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.rows[0].name, small);
  EXPECT_FALSE(report.rows[0].error);
  EXPECT_EQ(report.rows[0].clones.clones, 2u);
  ASSERT_TRUE(report.rows[1].error);
  EXPECT_EQ(*report.rows[1].error,
            big + ": error: the file is 16.0 GiB (17179869184 bytes), more than the input size "
                  "limit of 1.0 MiB (1048576 bytes); set by --max-input-size");
  EXPECT_EQ(report.failed, 1u);
}

TEST(Report, TraceLogsGiveOneRowPerGraphRecord) {
  std::string payload;
  for (size_t start = 0; start < kTwoClones.size();) {
    size_t end = kTwoClones.find('\n', start);
    payload += "\t" + std::string(kTwoClones.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  std::string log = "V1205 12:00:00.000000 1 a.py:1] {\"aot_forward_graph\": {}, \"has_payload\": "
                    "\"x\"}\n" +
                    payload +
                    "V1205 12:00:01.000000 1 a.py:2] {\"inductor_post_grad_graph\": {}, "
                    "\"has_payload\": \"y\"}\n\tdef forward(self, x):\n\t    y = (\n";
  std::vector<DumpStats> rows = reportText("t.log", log, {});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "t.log#aot_forward_graph:1");
  EXPECT_EQ(rows[0].clones.clones, 2u);
  EXPECT_EQ(rows[1].name, "t.log#inductor_post_grad_graph:10");
  ASSERT_TRUE(rows[1].error);
  // The error names the log and a line of it, not the payload's own numbering.
  EXPECT_TRUE(rows[1].error->starts_with("t.log:12:")) << *rows[1].error;

  rows = reportText("empty.log", "", {});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].error);
}

// declone report's pool runs reportInput in any order and assembles the rows: the order does not
// change the report.
TEST(Report, TheOrderOfTheWorkDoesNotChangeTheResult) {
  ScratchDir dir;
  std::vector<std::string> arguments = {dir.path().string()};
  for (int i = 0; i < 12; ++i) {
    std::string text(kTwoClones);
    // Different sizes, so that scheduling largest-first reorders the work.
    text += std::string(static_cast<size_t>(i) * 100, '#') + "\n";
    dir.write("f" + std::to_string(i) + ".fx", i == 5 ? "garbage(" : text);
  }
  std::vector<DumpInput> inputs = collectDumpInputs(arguments);
  ReportOptions options;
  Report one = buildReport(inputs, options);
  std::vector<size_t> order = reportOrder(inputs);
  ASSERT_EQ(order.size(), 12u);
  EXPECT_EQ(inputs[order.front()].path, dir.path().string() + "/f11.fx"); // the largest
  std::vector<std::optional<std::vector<DumpStats>>> results(inputs.size());
  for (size_t index : order)
    results[index] = reportInput(inputs[index], options);
  Report largestFirst = assembleReport(inputs, std::move(results));
  EXPECT_EQ(formatReportJson(one, {}), formatReportJson(largestFirst, {}));
  EXPECT_EQ(one.files, 12u);
  EXPECT_EQ(one.failed, 1u);
  EXPECT_EQ(one.total.clones.clones, 22u);
  EXPECT_EQ(one.total.nodes, 88u);
  EXPECT_EQ(one.total.name, "total");
  // Rows follow the sorted paths (f0, f1, f10, f11, f2, ...), not the order they were made in.
  EXPECT_EQ(one.rows[2].name, dir.path().string() + "/f10.fx");
  EXPECT_EQ(one.rows[7].name, dir.path().string() + "/f5.fx");
  EXPECT_TRUE(one.rows[7].error);

  // Inputs never started (Ctrl-C): nothing is counted but what did not run.
  Report none = assembleReport(inputs, std::vector<std::optional<std::vector<DumpStats>>>(12));
  EXPECT_TRUE(none.rows.empty());
  EXPECT_EQ(none.files, 0u);
  EXPECT_EQ(none.notRun, 12u);
  EXPECT_NE(formatReportTable(none, {}).find("0 files; interrupted: 12 files not run\n"),
            std::string::npos);
}

DumpStats row(std::string name, size_t nodes, size_t layoutChanged, uint64_t bytes) {
  DumpStats stats;
  stats.name = std::move(name);
  stats.graphs = 1;
  stats.nodes = nodes;
  stats.clones.kept[static_cast<size_t>(KeepReason::LayoutChanged)] = layoutChanged;
  stats.clones.clones = layoutChanged;
  stats.clones.bytesRemoved = bytes;
  return stats;
}

std::vector<std::string> names(const std::vector<DumpStats>& rows) {
  std::vector<std::string> out;
  for (const DumpStats& stats : rows)
    out.push_back(stats.name);
  return out;
}

TEST(Report, SortingByEveryKindOfColumn) {
  DumpStats failed;
  failed.name = "a-error";
  failed.error = "a-error: error: boom";
  std::vector<DumpStats> rows = {row("c", 10, 0, 5), failed, row("b", 30, 2, 0),
                                 row("d", 10, 1, 2048)};
  ASSERT_TRUE(sortRows(rows, "nodes").ok());
  EXPECT_EQ(names(rows), (std::vector<std::string>{"b", "c", "d", "a-error"}));
  ASSERT_TRUE(sortRows(rows, "file").ok());
  EXPECT_EQ(names(rows), (std::vector<std::string>{"a-error", "b", "c", "d"}));
  ASSERT_TRUE(sortRows(rows, "layout-changed").ok());
  EXPECT_EQ(names(rows), (std::vector<std::string>{"b", "d", "a-error", "c"}));
  ASSERT_TRUE(sortRows(rows, "bytes").ok());
  EXPECT_EQ(names(rows), (std::vector<std::string>{"d", "c", "b", "a-error"}));
  ASSERT_TRUE(sortRows(rows, "error").ok());
  EXPECT_EQ(names(rows).front(), "a-error");
  Status bad = sortRows(rows, "speed");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unknown column 'speed'"), std::string::npos);
  for (std::string_view column : reportColumns())
    EXPECT_TRUE(sortRows(rows, column).ok()) << column;
}

TEST(Report, TableShowsOccurringReasonsTopRowsAndTotal) {
  Report report;
  report.rows = {row("dumps/a.py", 10, 0, 5), row("dumps/sub/b.py", 30, 2, 3 * 1024 * 1024)};
  DumpStats failed;
  failed.name = "dumps/c.py";
  failed.error = "dumps/c.py:3:4: error: boom";
  report.rows.push_back(failed);
  report.files = 3;
  report.failed = 1;
  report.total.name = "total";
  for (const DumpStats& stats : report.rows)
    report.total += stats;
  std::string table = formatReportTable(report, {});
  EXPECT_EQ(table, "dumps/    graphs  nodes  clones  removed  kept  layout-changed  bytes removed\n"
                   "-----------------------------------------------------------------------------\n"
                   "a.py           1     10       0        0     0               0            5 B\n"
                   "sub/b.py       1     30       2        0     2               2        3.0 MiB\n"
                   "c.py           -      -       -        -     -               -              -  "
                   "dumps/c.py:3:4: error: boom\n"
                   "-----------------------------------------------------------------------------\n"
                   "total          2     40       2        0     2               2        3.0 MiB\n"
                   "3 files; 1 could not be read\n");
  TableOptions top;
  top.top = 1;
  std::string shortTable = formatReportTable(report, top);
  EXPECT_NE(shortTable.find("showing 1 of 3 rows"), std::string::npos) << shortTable;
  EXPECT_EQ(shortTable.find("b.py"), std::string::npos) << shortTable;
  std::string json = formatReportJson(report, top);
  EXPECT_NE(
      json.find("{\"name\": \"dumps/a.py\", \"file\": \"\", \"record\": null, \"stage\": null, "
                "\"compile_id\": null, \"same_as\": null, \"graphs\": 1, \"nodes\": 10,"),
      std::string::npos)
      << json;
  EXPECT_EQ(json.find("sub/b.py"), std::string::npos);
  EXPECT_NE(
      json.find(
          "\"total\": {\"files\": 3, \"rows\": 3, \"errors\": 1, \"skipped\": 0, \"not_run\": 0, "
          "\"duplicates\": 0, \"graphs\": 2, "
          "\"nodes\": 40,"),
      std::string::npos)
      << json;
}

} // namespace
} // namespace declone::test
