// The user's source lines of a dump's `# File:` comments, and remarks that lead with them.
#include "declone/io/SourceComments.h"

#include <gtest/gtest.h>

namespace declone::test {
namespace {

TEST(SourceComments, BothPrintedForms) {
  std::optional<UserSource> modern = parseFileComment(
      "        # File: /srv/model.py:68 in forward, code: q = qkv[..., :D].contiguous()");
  ASSERT_TRUE(modern);
  EXPECT_EQ(modern->location, "/srv/model.py:68");
  EXPECT_EQ(modern->code, "q = qkv[..., :D].contiguous()");
  // torch 1.13 prints no function; a path may hold colons and " in ".
  std::optional<UserSource> old =
      parseFileComment("# File: C:/my models/in out.py:12, code: return x.clone()");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->location, "C:/my models/in out.py:12");
  EXPECT_EQ(old->code, "return x.clone()");
  std::optional<UserSource> annotated = parseFileComment(
      "# ac_graph_id: 2 - PREFER_RECOMPUTE File: /m.py:4 in f, code: b = a.clone()");
  ASSERT_TRUE(annotated);
  EXPECT_EQ(annotated->location, "/m.py:4");
  EXPECT_FALSE(parseFileComment("# File: no line number here"));
  EXPECT_FALSE(parseFileComment("# MyFile: /m.py:4"));
  EXPECT_FALSE(parseFileComment("x = y  # File: /a.py:1"));
}

TEST(SourceComments, NodesTakeTheCommentAboveThemUntilTheTraceEnds) {
  constexpr std::string_view kText =
      "class GraphModule(torch.nn.Module):\n"                              // 1
      "    def forward(self, x):\n"                                        // 2
      "        a = x.relu()\n"                                             // 3
      "        # File: /m.py:5 in forward, code: b\n"                      // 4
      "        b = a.clone()\n"                                            // 5
      "\n"                                                                 // 6
      "        c = b.clone()\n"                                            // 7
      "        # recompute: ... No stacktrace found for following nodes\n" // 8
      "        d = c.clone()\n"                                            // 9
      "        # File: /m.py:9 in forward, code: e\n"                      // 10
      "        e = d.clone()\n"                                            // 11
      "        return (e,)\n"                                              // 12
      "class Other(torch.nn.Module):\n"                                    // 13
      "    def forward(self, y):\n"                                        // 14
      "        f = y.clone()\n";                                           // 15
  SourceComments sources(kText);
  EXPECT_EQ(sources.at(3), nullptr);
  ASSERT_NE(sources.at(5), nullptr);
  EXPECT_EQ(sources.at(5)->location, "/m.py:5");
  ASSERT_NE(sources.at(7), nullptr);
  EXPECT_EQ(sources.at(7)->location, "/m.py:5");
  EXPECT_EQ(sources.at(9), nullptr);
  ASSERT_NE(sources.at(11), nullptr);
  EXPECT_EQ(sources.at(11)->code, "e");
  EXPECT_EQ(sources.at(15), nullptr);

  std::vector<Remark> remarks(2);
  remarks[0].node = "b";
  remarks[0].line = 5;
  remarks[0].decision = Remark::Decision::Kept;
  remarks[0].reason = "layout-changed";
  remarks[0].detail = "strides [1] != [2]";
  remarks[1].node = "d";
  remarks[1].line = 9;
  remarks[1].decision = Remark::Decision::Removed;
  sources.annotate(remarks);
  EXPECT_EQ(remarks[0].formatText("dump.fx"),
            "/m.py:5: remark: clone 'b' kept [layout-changed]: strides [1] != [2] (b; graph: "
            "dump.fx:5)");
  EXPECT_EQ(remarks[1].formatText("dump.fx"), "dump.fx:9: remark: clone 'd' removed");
  EXPECT_NE(remarks[0].formatJson().find(R"("source": "/m.py:5", "code": "b")"), std::string::npos);
  EXPECT_NE(remarks[1].formatJson().find(R"("source": null, "code": null)"), std::string::npos);
}

} // namespace
} // namespace declone::test
