// The effect override table: its line format, the checked-in table, and how targetEffects folds
// it into the schema's effects (class 1: results that alias arguments; class 2: undeclared
// writes, some only when a bool argument is true).
#include "declone/analysis/EffectOverrides.h"

#include "declone/analysis/Effects.h"
#include "declone/ir/Context.h"

#include <gtest/gtest.h>

namespace declone {
namespace {

TEST(EffectOverrides, ParsesEveryCorrection) {
  Result<std::vector<EffectOverride>> table = parseEffectOverrides(
      "# header\n"
      "\n"
      "aten::dropout | return 0 aliases input | aliasing | audit libtorch 2.13.0: dropout(a0, 0.5, "
      "False)\n"
      "aten::native_batch_norm | writes running_mean when training | write | audit libtorch "
      "2.13.0: x | y\n"
      "aten::batch_norm_update_stats | writes running_var | write | hand: why\n");
  ASSERT_TRUE(table.ok()) << table.error().message;
  ASSERT_EQ(table->size(), 3u);
  const EffectOverride& alias = (*table)[0];
  EXPECT_EQ(alias.op, "aten::dropout");
  EXPECT_EQ(alias.kind, EffectOverride::Kind::ReturnAliases);
  EXPECT_EQ(alias.returnIndex, 0u);
  EXPECT_EQ(alias.argument, "input");
  EXPECT_FALSE(alias.handWritten());
  EXPECT_EQ(alias.libtorch(), "2.13.0");
  const EffectOverride& conditional = (*table)[1];
  EXPECT_EQ(conditional.kind, EffectOverride::Kind::Writes);
  EXPECT_EQ(conditional.argument, "running_mean");
  EXPECT_EQ(conditional.condition, "training");
  EXPECT_EQ(conditional.origin, "audit libtorch 2.13.0: x | y"); // the origin keeps its own bars
  EXPECT_TRUE((*table)[2].handWritten());
  EXPECT_EQ((*table)[2].libtorch(), "");
  EXPECT_EQ((*table)[2].condition, "");
  // Printing gives the line back.
  EXPECT_EQ(conditional.toString(), "aten::native_batch_norm | writes running_mean when training | "
                                    "write | audit libtorch 2.13.0: x | y");
}

TEST(EffectOverrides, RejectsMalformedLines) {
  auto error = [](std::string_view text) {
    Result<std::vector<EffectOverride>> table = parseEffectOverrides(text);
    return table.ok() ? std::string() : table.error().message;
  };
  EXPECT_NE(error("aten::dropout | return 0 aliases input | aliasing\n"), "");
  EXPECT_NE(error("dropout | return 0 aliases input | aliasing | audit libtorch 2.13.0: x\n"), "");
  EXPECT_NE(error("aten::dropout | return x aliases input | aliasing | audit libtorch 2.13.0: x\n"),
            "");
  EXPECT_NE(error("aten::dropout | reads input | aliasing | audit libtorch 2.13.0: x\n"), "");
  EXPECT_NE(error("aten::dropout | return 0 aliases input | write | audit libtorch 2.13.0: x\n"),
            "");
  EXPECT_NE(error("aten::dropout | writes input | write | guessed\n"), "");
  // An audited line names the libtorch whose kernels showed it.
  EXPECT_NE(error("aten::dropout | writes input | write | audit: x\n"), "");
  EXPECT_NE(error("aten::dropout | writes input | write | audit libtorch : x\n"), "");
  EXPECT_NE(error("aten::dropout | writes input | write | audit libtorch 2.13.0 x\n"), "");
  EXPECT_NE(error("aten::dropout | writes input | write | audit libtorch 2.13.0 : x\n"), "");
  EXPECT_NE(error("aten::dropout | writes input | write | audit libtorch  2.13.0: x\n"), "");
  Result<std::vector<EffectOverride>> table = parseEffectOverrides(
      "# ok\naten::dropout | writes input when | write | audit libtorch 2.13.0: x\n");
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error().line, 2u);
}

TEST(EffectOverrides, BuiltinTableParsesAndIsSorted) {
  Result<std::vector<EffectOverride>> table = parseEffectOverrides(builtinEffectOverridesText());
  ASSERT_TRUE(table.ok()) << "line " << table.error().line << ": " << table.error().message;
  const Result<std::vector<EffectOverride>>& builtin = builtinEffectOverrides();
  ASSERT_TRUE(builtin.ok()) << builtin.error().message;
  EXPECT_EQ(table->size(), builtin->size());
  for (size_t i = 1; i < table->size(); ++i)
    EXPECT_LT((*table)[i - 1].key(), (*table)[i].key()) << "line of " << (*table)[i].key();
}

class TargetEffectsTest : public ::testing::Test {
protected:
  TargetEffects effects(std::string_view target) {
    return targetEffects(*context_.target(Target::Kind::Op, target), SchemaRegistry::builtin());
  }
  TargetEffects declared(std::string_view target) {
    return declaredEffects(*context_.target(Target::Kind::Op, target), SchemaRegistry::builtin());
  }
  static size_t index(const TargetEffects& plan, std::string_view name) {
    return *plan.schema->argumentIndex(name);
  }
  Context context_;
};

using Return = TargetEffects::Return;

TEST_F(TargetEffectsTest, AliasingResultsBecomeViews) {
  // The schemas say fresh; the kernels return the argument itself (or a view of it).
  for (std::string_view op :
       {"torch.ops.aten._unsafe_view.default", "torch.ops.aten.dropout.default",
        "torch.ops.aten.type_as.default", "torch.ops.aten.unsafe_split.Tensor"}) {
    SCOPED_TRACE(op);
    EXPECT_EQ(declared(op).returns[0].kind, Return::Kind::Fresh);
    TargetEffects plan = effects(op);
    ASSERT_EQ(plan.action, TargetEffects::Action::Schema);
    EXPECT_EQ(plan.returns[0].kind, Return::Kind::AliasesArgument);
    EXPECT_EQ(plan.returns[0].argument, 0u);
    EXPECT_TRUE(plan.bindsArguments);
    // The kernel reads the argument when it does allocate.
    EXPECT_FALSE(plan.argumentFlags[0] & TargetEffects::kView);
  }
}

TEST_F(TargetEffectsTest, UndeclaredWritesAndTheirConditions) {
  TargetEffects stats = effects("torch.ops.aten.batch_norm_update_stats.default");
  for (std::string_view name : {"running_mean", "running_var"}) {
    EXPECT_EQ(declared("torch.ops.aten.batch_norm_update_stats.default")
                  .argumentFlags[index(stats, name)],
              0);
    EXPECT_EQ(stats.argumentFlags[index(stats, name)], TargetEffects::kWrite);
  }
  TargetEffects batchNorm = effects("torch.ops.aten.native_batch_norm.default");
  EXPECT_EQ(batchNorm.argumentFlags[index(batchNorm, "running_mean")],
            TargetEffects::kWrite | TargetEffects::kConditionalWrite);
  EXPECT_EQ(batchNorm.writeCondition, index(batchNorm, "training"));
  TargetEffects instanceNorm = effects("torch.ops.aten.instance_norm.default");
  EXPECT_EQ(instanceNorm.argumentFlags[index(instanceNorm, "running_var")],
            TargetEffects::kWrite | TargetEffects::kConditionalWrite);
  EXPECT_EQ(instanceNorm.writeCondition, index(instanceNorm, "use_input_stats"));
  // PyTorch 2.13's schema declares rrelu_with_noise's write of noise (`Tensor(b!) noise`), which
  // libtorch 1.13's left out: a declared write has no condition.
  TargetEffects rrelu = effects("torch.ops.aten.rrelu_with_noise_.default");
  EXPECT_TRUE(rrelu.argumentFlags[index(rrelu, "noise")] & TargetEffects::kWrite);
  EXPECT_EQ(
      declared("torch.ops.aten.rrelu_with_noise_.default").argumentFlags[index(rrelu, "noise")],
      TargetEffects::kWrite);
}

TEST_F(TargetEffectsTest, HandWrittenEntriesApply) {
  // wait_tensor cannot run on the CPU: its entry is written by hand.
  TargetEffects wait = effects("torch.ops._c10d_functional.wait_tensor.default");
  EXPECT_EQ(wait.returns[0].kind, Return::Kind::AliasesArgument);
  TargetEffects cudnn = effects("torch.ops.aten.cudnn_batch_norm.default");
  EXPECT_TRUE(cudnn.argumentFlags[index(cudnn, "running_mean")] & TargetEffects::kConditionalWrite);
}

TEST_F(TargetEffectsTest, EveryBuiltinEntryFitsItsSchema) {
  // An entry that names an argument its schema lacks would leave the op's effects unknown.
  ASSERT_TRUE(builtinEffectOverrides().ok());
  for (const EffectOverride& entry : *builtinEffectOverrides()) {
    size_t colons = entry.op.find("::");
    std::string rest = entry.op.substr(colons + 2);
    size_t dot = rest.find('.');
    std::string target = "torch.ops." + entry.op.substr(0, colons) + "." + rest.substr(0, dot) +
                         "." + (dot == std::string::npos ? "default" : rest.substr(dot + 1));
    SCOPED_TRACE(entry.toString());
    EXPECT_EQ(effects(target).action, TargetEffects::Action::Schema) << effects(target).reason;
  }
}

} // namespace
} // namespace declone
