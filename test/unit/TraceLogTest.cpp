// Structured trace logs: records, payloads, graph keys, damaged lines, error positions.
#include "declone/report/TraceLog.h"

#include <gtest/gtest.h>

namespace declone::test {
namespace {

constexpr std::string_view kPrefix =
    "V1205 12:34:56.789000 4242 torch/_inductor/compile_fx.py:846] ";

std::string record(std::string_view json) {
  return std::string(kPrefix) + std::string(json) + "\n";
}

TEST(TraceLog, GraphPayloadsAreRecordsWithTheirLines) {
  std::string log = record(R"({"str": ["/x.py", 0]})") +
                    record(R"({"aot_forward_graph": {}, "frame_id": 0, "has_payload": "ab"})") +
                    "\tclass GraphModule(torch.nn.Module):\n"
                    "\t    def forward(self, x):\n"
                    "\t\n" // a blank payload line is still a tab
                    "\t        return (x,)\n" +
                    record(R"({"artifact": {"name": "dynamo_guards"}, "has_payload": "cd"})") +
                    "\t[\"not a graph\"]\n" +
                    record(R"({"graph_dump": {"name": "vllm_submod_1"}, "has_payload": "ef"})") +
                    "\n" // glog logs sometimes stutter with a blank line
                    "\tdef forward(self, y):\n"
                    "\t    return (y,)\n";
  Result<TraceLog> split = splitTraceLog(log);
  ASSERT_TRUE(split.ok()) << split.error().message;
  EXPECT_EQ(split->numRecords, 4u);
  EXPECT_FALSE(split->firstProblem);
  ASSERT_EQ(split->graphs.size(), 2u);
  const TraceGraph& forward = split->graphs[0];
  EXPECT_EQ(forward.key, "aot_forward_graph");
  EXPECT_EQ(forward.line, 2u);
  EXPECT_EQ(forward.payload, "class GraphModule(torch.nn.Module):\n"
                             "    def forward(self, x):\n"
                             "\n"
                             "        return (x,)");
  EXPECT_EQ(forward.payloadLines, (std::vector<uint32_t>{3, 4, 5, 6}));
  EXPECT_EQ(forward.displayName("rank0.log"), "rank0.log#aot_forward_graph:2");
  const TraceGraph& dump = split->graphs[1];
  EXPECT_EQ(dump.key, "graph_dump.vllm_submod_1");
  EXPECT_EQ(dump.payload, "def forward(self, y):\n    return (y,)");
  EXPECT_EQ(dump.payloadLines, (std::vector<uint32_t>{11, 12}));
}

TEST(TraceLog, ArtifactRecordsAreGraphsWhenTheirPayloadIs) {
  // torch 2.5 on: the post-grad graph and the before/after records of each pass are artifacts.
  std::string log =
      record(R"({"artifact": {"name": "inductor_post_grad_graph", "encoding": "string"}, )"
             R"("frame_id": 1, "frame_compile_id": 2, "attempt": 0, "has_payload": "ab"})") +
      "\tclass <lambda>(torch.nn.Module):\n"
      "\t    def forward(self, x):\n"
      "\t        return (x,)\n" +
      record(R"({"artifact": {"name": "aot_forward_graph_fw_metadata", "encoding": "string"}, )"
             R"("has_payload": "cd"})") +
      "\tViewAndMutationMeta(input_info=[])\n" +
      record(
          R"({"artifact": {"name": "torch_version", "encoding": "json"}, "has_payload": "ef"})") +
      "\t\"2.13.0\"\n";
  Result<TraceLog> split = splitTraceLog(log);
  ASSERT_TRUE(split.ok()) << split.error().message;
  EXPECT_FALSE(split->firstProblem);
  ASSERT_EQ(split->graphs.size(), 1u);
  EXPECT_EQ(split->graphs[0].key, "inductor_post_grad_graph");
  EXPECT_EQ(split->graphs[0].compileId, "1/2");
  EXPECT_EQ(split->graphs[0].payloadLines, (std::vector<uint32_t>{2, 3, 4}));
}

TEST(TraceLog, FxGraphRunnableKeepsTheReproClassForwardOnly) {
  std::string log = record(R"({"artifact": {"name": "fx_graph_runnable", "encoding": "string"}, )"
                           R"("attempt": 1, "frame_id": 0, "frame_compile_id": 0, )"
                           R"("has_payload": "ab"})") +
                    "\timport torch\n"
                    "\tfrom torch.nn import *\n"
                    "\tclass Repro(torch.nn.Module):\n"
                    "\t    def __init__(self) -> None:\n"
                    "\t        super().__init__()\n"
                    "\t\n"
                    "\t    def forward(self, x):\n"
                    "\t        return (x,)\n"
                    "\t\n"
                    "\tdef load_args(reader):\n"
                    "\t    pass\n"
                    "\tmod = Repro()\n";
  Result<TraceLog> split = splitTraceLog(log);
  ASSERT_TRUE(split.ok()) << split.error().message;
  ASSERT_EQ(split->graphs.size(), 1u);
  const TraceGraph& graph = split->graphs[0];
  EXPECT_EQ(graph.compileId, "0/0_1");
  EXPECT_EQ(graph.payload, "class Repro(torch.nn.Module):\n"
                           "    def forward(self, x):\n"
                           "        return (x,)\n");
  EXPECT_EQ(graph.payloadLines, (std::vector<uint32_t>{4, 8, 9, 10}));
  EXPECT_TRUE(graph.holdsLine(1));   // the record
  EXPECT_TRUE(graph.holdsLine(9));   // a node's line
  EXPECT_FALSE(graph.holdsLine(11)); // load_args
  EXPECT_EQ(graph.logLine(2), 8u);
}

TEST(TraceLog, EveryGraphKeyIsRecognised) {
  for (std::string_view key :
       {"dynamo_output_graph", "aot_forward_graph", "aot_backward_graph", "aot_joint_graph",
        "aot_inference_graph", "inductor_pre_grad_graph", "inductor_post_grad_graph", "graph_dump"})
    EXPECT_TRUE(isTraceGraphKey(key)) << key;
  for (std::string_view key : {"artifact", "dynamo_start", "compilation_metrics", "str", ""})
    EXPECT_FALSE(isTraceGraphKey(key)) << key;
}

TEST(TraceLog, ErrorsInAPayloadPointIntoTheLog) {
  TraceGraph graph;
  graph.line = 7;
  graph.payloadLines = {8, 9, 11};
  graph.payloadColumns = {1, 1, 1};
  Error inside = graph.toLogPosition(Error{"bad", 3, 5});
  EXPECT_EQ(inside.line, 11u);
  EXPECT_EQ(inside.column, 6u); // the tab is column 1
  Error past = graph.toLogPosition(Error{"truncated", 4, 1});
  EXPECT_EQ(past.line, 11u);
  EXPECT_EQ(past.column, 0u);
  graph.payloadLines.clear();
  EXPECT_EQ(graph.toLogPosition(Error{"empty", 1, 1}).line, 7u);
}

TEST(TraceLog, DamagedLinesAreCountedAndTheRestKept) {
  std::string log = record(R"({"inductor_post_grad_graph": {}, "has_payload": "ab"})") +
                    "\tdef forward(self, x):\n"
                    "Traceback (most recent call last):\n" +
                    std::string(kPrefix) + "{\"unterminated\": \n" +
                    record(R"({"inductor_post_grad_graph": {}, "has_payload": "cd"})") +
                    "\tdef forward(self, y):\n";
  Result<TraceLog> split = splitTraceLog(log);
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->graphs.size(), 2u);
  ASSERT_TRUE(split->firstProblem);
  EXPECT_EQ(split->firstProblem->line, 3u);
  EXPECT_EQ(split->firstProblem->column, 1u);
  EXPECT_EQ(split->numProblems, 2u);
}

TEST(TraceLog, OtherLogsAreNotTraces) {
  EXPECT_FALSE(splitTraceLog("").ok());
  EXPECT_FALSE(splitTraceLog("INFO starting\nERROR failed\n").ok());
  // glog lines without a JSON record: TORCH_LOGS text output, not TORCH_TRACE.
  EXPECT_FALSE(splitTraceLog(std::string(kPrefix) + "[0/0] compiling\n").ok());
  EXPECT_FALSE(looksLikeTraceLog("class GraphModule(torch.nn.Module):\n"));
  EXPECT_TRUE(looksLikeTraceLog("\n" + record(R"({"str": ["a", 0]})")));
  EXPECT_FALSE(looksLikeTraceLog(std::string(1, '\0') + "V1205"));
}

TEST(TraceLog, WindowsLineEndingsAndMissingFinalNewline) {
  std::string log = std::string(kPrefix) +
                    "{\"inductor_post_grad_graph\": {}, \"has_payload\": \"ab\"}\r\n"
                    "\tdef forward(self, x):\r\n"
                    "\t    return (x,)";
  Result<TraceLog> split = splitTraceLog(log);
  ASSERT_TRUE(split.ok());
  ASSERT_EQ(split->graphs.size(), 1u);
  EXPECT_EQ(split->graphs[0].payload, "def forward(self, x):\n    return (x,)");
}

TEST(TraceLog, RecordsWithoutPayloadHaveNoGraphText) {
  // A graph key without has_payload (metadata only): its graph is empty and the tab lines after
  // some other record's payload are not attached to it.
  std::string log = record(R"({"dynamo_output_graph": {"sizes": {}}})") + "\tstray payload line\n";
  Result<TraceLog> split = splitTraceLog(log);
  ASSERT_TRUE(split.ok());
  ASSERT_EQ(split->graphs.size(), 1u);
  EXPECT_TRUE(split->graphs[0].payload.empty());
  ASSERT_TRUE(split->firstProblem);
  EXPECT_EQ(split->firstProblem->line, 2u);
}

} // namespace
} // namespace declone::test
