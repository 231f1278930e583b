// Effects and alias analysis: storages of views, in-place and out= results, multi-output
// getitem, functional higher-order ops, unknown ops; the ordered events of each storage.
#include "declone/analysis/AliasAnalysis.h"

#include "TestSupport.h"

namespace declone::test {
namespace {

constexpr std::string_view kGraph =
    R"FX(def forward(self, a: "f32[4, 4][4, 1]cpu", b: "f32[4, 4][4, 1]cpu", n: "Sym(s0)"):
    view: "f32[16][1]cpu" = torch.ops.aten.view.default(a, [16])
    relu: "f32[4, 4][4, 1]cpu" = torch.ops.aten.relu.default(a)
    add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(relu, b)
    out: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.out(b, b, out = relu)
    split = torch.ops.aten.split.Tensor(b, 2)
    getitem: "f32[2, 4][4, 1]cpu" = split[0]
    getitem_1: "f32[2, 4][4, 1]cpu" = split[1]
    auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = relu, input = a, weight = b, epsilon = 1e-06)
    getitem_2: "f32[4, 4][4, 1]cpu" = auto_functionalized[1]
    getitem_3: "f32[4, 4][4, 1]cpu" = auto_functionalized[2]
    foo: "f32[4, 4][4, 1]cpu" = torch.ops.mylib.foo.default(getitem_2, getitem_3)
    mul: "Sym(2*s0)" = n * 2
    return (foo, view, add_, mul)
)FX";

class AliasAnalysisTest : public ::testing::Test {
protected:
  void SetUp() override {
    file_ = parseOrFail(kGraph);
    ASSERT_TRUE(file_);
    graph_ = &firstGraph(*file_);
    effects_ = std::make_unique<EffectAnalysis>(*graph_, SchemaRegistry::builtin());
    alias_ = std::make_unique<AliasAnalysis>(*graph_, *effects_, std::vector<bool>{false, true});
  }
  AliasAnalysis::StorageId storage(std::string_view name) {
    return alias_->storageOf(findNode(*graph_, name));
  }
  NodeEffects effects(std::string_view name) { return effects_->effects(findNode(*graph_, name)); }
  /// "Read relu, Write add_, ..." for the events of a storage.
  std::string eventsOf(std::string_view name) {
    std::string out;
    for (const AliasAnalysis::Event& event : alias_->events(storage(name))) {
      if (!out.empty())
        out += ", ";
      out += event.kind == AliasAnalysis::Event::Kind::Read    ? "read "
             : event.kind == AliasAnalysis::Event::Kind::Write ? "write "
                                                               : "return ";
      out += std::string(event.node->name());
    }
    return out;
  }

  std::unique_ptr<GraphFile> file_;
  Graph* graph_ = nullptr;
  std::unique_ptr<EffectAnalysis> effects_;
  std::unique_ptr<AliasAnalysis> alias_;
};

TEST_F(AliasAnalysisTest, ViewsAndInPlaceResultsShareStorage) {
  EXPECT_EQ(storage("view"), storage("a"));
  EXPECT_EQ(storage("add_"), storage("relu")) << "add_ returns its self";
  EXPECT_EQ(storage("out"), storage("relu")) << "an out= result is the out tensor";
  EXPECT_NE(storage("relu"), storage("a")) << "relu allocates";
  EXPECT_NE(storage("a"), storage("b"));
  EXPECT_EQ(storage("n"), AliasAnalysis::kNoStorage) << "symbolic ints have no storage";
  EXPECT_EQ(storage("mul"), AliasAnalysis::kNoStorage);
}

TEST_F(AliasAnalysisTest, MultiOutputElements) {
  EXPECT_EQ(storage("getitem"), storage("b")) << "split returns views of its input";
  EXPECT_EQ(storage("getitem_1"), storage("b"));
  EXPECT_NE(storage("getitem_2"), storage("relu")) << "auto_functionalized returns new tensors";
  const Node* af = findNode(*graph_, "auto_functionalized");
  EXPECT_EQ(effects_->output(af, 1).kind, OutputAlias::Kind::Fresh);
  EXPECT_EQ(effects_->output(af, 2).kind, OutputAlias::Kind::Fresh);
  EXPECT_TRUE(effects("auto_functionalized").known);
  for (const NodeEffects::Access& access : effects("auto_functionalized").accesses)
    EXPECT_FALSE(access.write()) << access.value()->name();
}

TEST_F(AliasAnalysisTest, UnknownOpsAreConservative) {
  const NodeEffects& foo = effects("foo");
  EXPECT_FALSE(foo.known);
  EXPECT_TRUE(foo.unknownReason.starts_with(
      "no schema for mylib::foo.default (give its schema with --schemas FILE"));
  ASSERT_EQ(foo.accesses.size(), 2u);
  EXPECT_TRUE(foo.accesses[0].write() && foo.accesses[1].write());
  // Its result may alias either input, so all three end up in one storage.
  EXPECT_EQ(storage("foo"), storage("getitem_2"));
  EXPECT_EQ(storage("foo"), storage("getitem_3"));
  EXPECT_EQ(alias_->info(storage("foo")).unknownToucher, findNode(*graph_, "foo"));
}

TEST_F(AliasAnalysisTest, EventsInProgramOrder) {
  EXPECT_EQ(eventsOf("relu"), "write add_, write out, read auto_functionalized, return output");
  EXPECT_EQ(eventsOf("a"), "read relu, read auto_functionalized, return output")
      << "creating a view reads nothing";
  EXPECT_EQ(eventsOf("b"), "read add_, read out, read auto_functionalized")
      << "split only makes views";
}

TEST_F(AliasAnalysisTest, InputsDonationAndReturns) {
  const AliasAnalysis::StorageInfo& a = alias_->info(storage("a"));
  EXPECT_TRUE(a.graphInput);
  EXPECT_FALSE(a.donated);
  EXPECT_TRUE(a.returned) << "through its view";
  EXPECT_TRUE(alias_->isObservedByCaller(storage("a")));
  const AliasAnalysis::StorageInfo& b = alias_->info(storage("b"));
  EXPECT_TRUE(b.donated);
  EXPECT_FALSE(alias_->isObservedByCaller(storage("b")));
  EXPECT_FALSE(alias_->info(storage("relu")).graphInput);
  EXPECT_EQ(alias_->info(storage("relu")).root, findNode(*graph_, "relu"));
}

TEST_F(AliasAnalysisTest, RecordsOnlyTheStoragesOfWantedValues) {
  std::vector<const Node*> wanted{findNode(*graph_, "add_"), findNode(*graph_, "foo")};
  AliasAnalysis partial(*graph_, *effects_, {false, true}, wanted);
  EXPECT_EQ(partial.numStorages(), alias_->numStorages());
  ASSERT_EQ(partial.numRecorded(), 2u) << "relu's storage and the one foo joined";
  // The recorded storages come first and know what the full analysis knows of them.
  for (const Node* value : wanted) {
    AliasAnalysis::StorageId id = partial.storageOf(value);
    AliasAnalysis::StorageId full = alias_->storageOf(value);
    ASSERT_LT(id, partial.numRecorded()) << value->name();
    std::span<const AliasAnalysis::Event> events = partial.events(id);
    std::span<const AliasAnalysis::Event> fullEvents = alias_->events(full);
    ASSERT_EQ(events.size(), fullEvents.size()) << value->name();
    for (size_t i = 0; i < events.size(); ++i) {
      EXPECT_EQ(events[i].position, fullEvents[i].position);
      EXPECT_EQ(events[i].kind, fullEvents[i].kind);
      EXPECT_EQ(events[i].node, fullEvents[i].node);
      EXPECT_EQ(events[i].value, fullEvents[i].value);
    }
    const AliasAnalysis::StorageInfo& info = partial.info(id);
    const AliasAnalysis::StorageInfo& fullInfo = alias_->info(full);
    EXPECT_EQ(info.root, fullInfo.root);
    EXPECT_EQ(info.graphInput, fullInfo.graphInput);
    EXPECT_EQ(info.donated, fullInfo.donated);
    EXPECT_EQ(info.attribute, fullInfo.attribute);
    EXPECT_EQ(info.returned, fullInfo.returned);
    EXPECT_EQ(info.unknownToucher, fullInfo.unknownToucher);
  }
  EXPECT_EQ(partial.storageOf(findNode(*graph_, "out")),
            partial.storageOf(findNode(*graph_, "add_")));
  AliasAnalysis::StorageId a = partial.storageOf(findNode(*graph_, "a"));
  EXPECT_GE(a, partial.numRecorded());
  EXPECT_TRUE(partial.events(a).empty()) << "a's storage is not recorded";
  EXPECT_EQ(partial.storageOf(findNode(*graph_, "view")), a);
}

// Python's negative indices count from the end: of a tuple, whose length the schema gives; of a
// list, whose length is unknown here, any element may be meant.
TEST(AliasAnalysis, NegativeGetItemIndices) {
  auto file = parseOrFail(R"FX(def forward(self, x: "f32[4, 4][4, 1]cpu"):
    max_1 = torch.ops.aten.max.dim(x, 0)
    getitem: "f32[4][1]cpu" = max_1[0]
    getitem_1: "i64[4][1]cpu" = max_1[1]
    getitem_2: "f32[4][1]cpu" = max_1[-2]
    getitem_3: "i64[4][1]cpu" = max_1[-1]
    getitem_4: "f32[4][1]cpu" = max_1[-3]
    unbind_copy = torch.ops.aten.unbind_copy.int(x)
    getitem_5: "f32[4][1]cpu" = unbind_copy[0]
    getitem_6: "f32[4][1]cpu" = unbind_copy[-1]
    getitem_7: "f32[4][1]cpu" = unbind_copy[3]
    getitem_8: "f32[4][1]cpu" = unbind_copy[1]
    return (getitem, getitem_1, getitem_2, getitem_3, getitem_4, getitem_5, getitem_6, getitem_7, getitem_8)
)FX");
  ASSERT_TRUE(file);
  Graph& graph = firstGraph(*file);
  EffectAnalysis effects(graph, SchemaRegistry::builtin());
  AliasAnalysis alias(graph, effects, {false});
  auto storage = [&](std::string_view name) { return alias.storageOf(findNode(graph, name)); };
  EXPECT_EQ(storage("getitem_2"), storage("getitem"));
  EXPECT_EQ(storage("getitem_3"), storage("getitem_1"));
  EXPECT_NE(storage("getitem"), storage("getitem_1"));
  // Out of the tuple's range: tied to max.dim's argument, as an index past the end is.
  EXPECT_EQ(storage("getitem_4"), storage("x"));
  // The list element of unknown position shares storage with every element, before or after.
  EXPECT_EQ(storage("getitem_6"), storage("getitem_5"));
  EXPECT_EQ(storage("getitem_6"), storage("getitem_7"));
  EXPECT_EQ(storage("getitem_6"), storage("getitem_8"));
  EXPECT_NE(storage("getitem_6"), storage("x"));
}

TEST(Effects, SchemaBindingOfArgumentsAndKeywords) {
  auto file = parseOrFail(R"FX(def forward(self, x: "f32[4][1]cpu", y: "f32[4][1]cpu"):
    copy_: "f32[4][1]cpu" = torch.ops.aten.copy_.default(x, y)
    index_put_: "f32[4][1]cpu" = torch.ops.aten.index_put_.default(y, [x], x)
    bad = torch.ops.aten.relu.default(x, bogus = 1)
    return (copy_, index_put_, bad)
)FX");
  ASSERT_TRUE(file);
  Graph& graph = firstGraph(*file);
  EffectAnalysis effects(graph, SchemaRegistry::builtin());
  const NodeEffects& copy = effects.effects(findNode(graph, "copy_"));
  ASSERT_EQ(copy.accesses.size(), 2u);
  EXPECT_EQ(copy.accesses[0].value()->name(), "x");
  EXPECT_TRUE(copy.accesses[0].write());
  EXPECT_FALSE(copy.accesses[1].write());
  EXPECT_EQ(copy.result.kind, OutputAlias::Kind::Aliases);
  EXPECT_EQ(copy.result.input->name(), "x");
  const NodeEffects& put = effects.effects(findNode(graph, "index_put_"));
  EXPECT_TRUE(put.accesses[0].write()) << "y is written";
  EXPECT_FALSE(put.accesses[1].write()) << "x is read, both as index and as values";
  const NodeEffects& bad = effects.effects(findNode(graph, "bad"));
  EXPECT_FALSE(bad.known);
  EXPECT_NE(bad.unknownReason.find("keyword 'bogus'"), std::string::npos);
}

} // namespace
} // namespace declone::test
