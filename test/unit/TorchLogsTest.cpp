// TORCH_LOGS output: artifact channels' records, graph banners, cache hits, other lines.
#include "declone/report/TraceLog.h"

#include <gtest/gtest.h>

namespace declone::test {
namespace {

std::string line(std::string_view channel, std::string_view text,
                 std::string_view stamp = "16:24:56.503000") {
  return "V1203 " + std::string(stamp) + " 19198 torch/_inductor/compile_fx.py:1404] [0/0] [__" +
         std::string(channel) + "] " + std::string(text) + "\n";
}

TEST(TorchLogs, TracedGraphRecordsAreGraphs) {
  std::string log =
      "/venv/torch/_dynamo/pgo.py:605: UserWarning: dynamo_pgo force disabled\n" +
      line("aot_graphs", "aot_config id: 0, fw_metadata=ViewAndMutationMeta(", "16:24:55.1") +
      line("aot_graphs", "    input_info=[])", "16:24:55.1") +
      line("post_grad_graphs", "TRACED GRAPH") +
      line("post_grad_graphs", " ===== AFTER POST GRAD =====") +
      line("post_grad_graphs",
           " /venv/torch/fx/_lazy_graph_module.py class <lambda>(torch.nn.Module):") +
      line("post_grad_graphs", "    def forward(self, x: \"f32[4][1]cpu\"):") +
      line("post_grad_graphs", "        return (x,)") + line("post_grad_graphs", "") +
      "some print of the program\n";
  ASSERT_TRUE(looksLikeTorchLogs(log));
  EXPECT_FALSE(looksLikeTraceLog(log));
  Result<TraceLog> split = splitTorchLogs(log);
  ASSERT_TRUE(split.ok()) << split.error().message;
  ASSERT_EQ(split->graphs.size(), 1u);
  const TraceGraph& graph = split->graphs[0];
  EXPECT_EQ(graph.key, "post_grad_graphs");
  EXPECT_EQ(graph.compileId, "0/0");
  EXPECT_EQ(graph.line, 4u);
  EXPECT_EQ(graph.payload, "class <lambda>(torch.nn.Module):\n"
                           "    def forward(self, x: \"f32[4][1]cpu\"):\n"
                           "        return (x,)\n");
  EXPECT_EQ(graph.payloadLines, (std::vector<uint32_t>{6, 7, 8, 9}));
  EXPECT_EQ(graph.displayName("err.txt"), "err.txt#post_grad_graphs:4");
  // An error in the class line points past the module path TORCH_LOGS prints before it.
  size_t prefix = line("post_grad_graphs", "").size() - 1;
  Error error = graph.toLogPosition(Error{"bad", 1, 1});
  EXPECT_EQ(error.line, 6u);
  EXPECT_EQ(error.column,
            1 + prefix + std::string_view(" /venv/torch/fx/_lazy_graph_module.py ").size());
}

TEST(TorchLogs, GraphsFromTheCacheAndSeveralPerChannel) {
  std::string log = line("aot_graphs", "Forward graph (from cache)", "1.0") +
                    line("aot_graphs", "", "1.0") +
                    line("aot_graphs", "class <lambda>(torch.nn.Module):", "1.0") +
                    line("aot_graphs", "    def forward(self, x):", "1.0") +
                    line("aot_graphs", "        return (x,)", "1.0") +
                    // the same call's next graph starts with its own TRACED GRAPH
                    line("aot_graphs", "TRACED GRAPH", "1.0") +
                    line("aot_graphs", " ===== Backward graph 0 =====", "1.0") +
                    line("aot_graphs", "class GraphModule(torch.nn.Module):", "1.0") +
                    line("aot_graphs", "    def forward(self, y):", "1.0") +
                    line("aot_graphs", "        return (y,)", "1.0");
  Result<TraceLog> split = splitTorchLogs(log);
  ASSERT_TRUE(split.ok()) << split.error().message;
  ASSERT_EQ(split->graphs.size(), 2u);
  EXPECT_EQ(split->graphs[0].line, 1u);
  EXPECT_EQ(split->graphs[1].line, 6u);
  EXPECT_TRUE(split->graphs[1].holdsLine(10));
  EXPECT_FALSE(split->graphs[0].holdsLine(6));
}

TEST(TorchLogs, OtherLogsAreNotTorchLogs) {
  EXPECT_FALSE(looksLikeTorchLogs("class GraphModule(torch.nn.Module):\n"));
  EXPECT_FALSE(looksLikeTorchLogs(
      "V1203 16:24:56.503000 1 torch/_dynamo/eval_frame.py:1] [0/0] compiling forward\n"));
  EXPECT_FALSE(splitTorchLogs("just text\n").ok());
  // TORCH_LOGS_FORMAT=short drops glog's prefix; the channel still names the record.
  Result<TraceLog> shortForm = splitTorchLogs("[__graph_code] TRACED GRAPH\n"
                                              "[__graph_code] class GraphModule(torch.nn.Module):\n"
                                              "[__graph_code]     def forward(self, x):\n"
                                              "[__graph_code]         return (x,)\n");
  ASSERT_TRUE(shortForm.ok());
  ASSERT_EQ(shortForm->graphs.size(), 1u);
  EXPECT_EQ(shortForm->graphs[0].key, "graph_code");
}

} // namespace
} // namespace declone::test
