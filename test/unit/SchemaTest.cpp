// Tests of the operator schema parser, the schema queries and the schema registry.
#include "declone/schema/Schema.h"

#include "declone/schema/SchemaRegistry.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace declone {
namespace {

using Kind = SchemaType::Kind;

OpSchema parseOk(std::string_view text) {
  Result<OpSchema> schema = parseSchema(text);
  EXPECT_TRUE(schema.ok()) << text << "\n" << (schema ? "" : schema.error().format("schema"));
  return schema ? std::move(schema).value() : OpSchema();
}

/// The single argument of `test::f(<argument>) -> ()`.
SchemaArgument parseArgument(const std::string& argument) {
  OpSchema schema = parseOk("test::f(" + argument + ") -> ()");
  EXPECT_EQ(schema.arguments.size(), 1u) << argument;
  return schema.arguments.empty() ? SchemaArgument() : schema.arguments[0];
}

const OpSchema& builtin(std::string_view ns, std::string_view name, std::string_view overload) {
  const OpSchema* schema = SchemaRegistry::builtin().lookup(ns, name, overload);
  if (!schema) {
    ADD_FAILURE() << "no built-in schema " << ns << "::" << name << "." << overload;
    static const OpSchema empty;
    return empty;
  }
  return *schema;
}

// --- names and structure ----------------------------------------------------------------------

TEST(SchemaParser, SplitsNamespaceNameAndOverload) {
  OpSchema schema =
      parseOk("aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  EXPECT_EQ(schema.opNamespace, "aten");
  EXPECT_EQ(schema.name, "add_");
  EXPECT_EQ(schema.overload, "Tensor");
  EXPECT_EQ(schema.qualifiedName(), "aten::add_");
  EXPECT_EQ(schema.fullName(), "aten::add_.Tensor");
  ASSERT_EQ(schema.arguments.size(), 3u);
  ASSERT_EQ(schema.returns.size(), 1u);
}

TEST(SchemaParser, DefaultOverloadIsEmpty) {
  OpSchema schema =
      parseOk("aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor");
  EXPECT_EQ(schema.overload, "");
  EXPECT_EQ(schema.fullName(), "aten::clone");
}

TEST(SchemaParser, NamespaceIsOptional) {
  // vLLM's ops.def("rms_norm(...)") text has none; the registry insists on one, the parser not.
  OpSchema schema = parseOk("rms_norm(Tensor! result, Tensor input) -> ()");
  EXPECT_EQ(schema.opNamespace, "");
  EXPECT_EQ(schema.qualifiedName(), "rms_norm");
}

// --- alias annotations ---------------------------------------------------------------------------

TEST(SchemaParser, WriteAnnotation) {
  SchemaArgument self = parseArgument("Tensor(a!) self");
  ASSERT_TRUE(self.alias);
  EXPECT_EQ(self.alias->beforeSets, std::vector<std::string>{"a"});
  EXPECT_EQ(self.alias->afterSets, std::vector<std::string>{"a"});
  EXPECT_TRUE(self.alias->isWrite);
  EXPECT_FALSE(self.alias->hasArrow);
  EXPECT_FALSE(self.elementAlias);
  EXPECT_TRUE(self.isWrite());
  EXPECT_EQ(self.type.kind, Kind::Tensor);
}

TEST(SchemaParser, ReadAnnotation) {
  SchemaArgument self = parseArgument("Tensor(a) self");
  ASSERT_TRUE(self.alias);
  EXPECT_FALSE(self.alias->isWrite);
  EXPECT_FALSE(self.isWrite());
  EXPECT_FALSE(self.hasWildcard());
}

TEST(SchemaParser, WildcardAfterSet) {
  SchemaArgument self = parseArgument("Tensor(a -> *) self");
  ASSERT_TRUE(self.alias);
  EXPECT_EQ(self.alias->beforeSets, std::vector<std::string>{"a"});
  EXPECT_EQ(self.alias->afterSets, std::vector<std::string>{"*"});
  EXPECT_TRUE(self.alias->hasArrow);
  EXPECT_FALSE(self.alias->isWildcardBefore());
  EXPECT_TRUE(self.alias->isWildcardAfter());
  EXPECT_TRUE(self.hasWildcard());
}

TEST(SchemaParser, WriteWithSeveralAfterSets) {
  SchemaArgument self = parseArgument("Tensor(a! -> a|b) self");
  ASSERT_TRUE(self.alias);
  EXPECT_TRUE(self.alias->isWrite);
  EXPECT_EQ(self.alias->beforeSets, std::vector<std::string>{"a"});
  EXPECT_EQ(self.alias->afterSets, (std::vector<std::string>{"a", "b"}));
}

TEST(SchemaParser, SeveralBeforeSets) {
  OpSchema schema = parseOk("aten::to.prim_other(Tensor(a) self, bool non_blocking=False, bool "
                            "copy=False) -> Tensor(b|a)");
  ASSERT_TRUE(schema.returns[0].alias);
  EXPECT_EQ(schema.returns[0].alias->beforeSets, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(schema.returnAliasesArgument(0), 0u);
}

TEST(SchemaParser, AliasOnListElements) {
  SchemaArgument self = parseArgument("Tensor(b!)[] self");
  EXPECT_EQ(self.type.kind, Kind::TensorList);
  EXPECT_FALSE(self.alias);
  ASSERT_TRUE(self.elementAlias);
  EXPECT_EQ(self.elementAlias->beforeSets, std::vector<std::string>{"b"});
  EXPECT_TRUE(self.elementAlias->isWrite);
  EXPECT_TRUE(self.isWrite());
}

TEST(SchemaParser, AliasOnList) {
  SchemaArgument inputs = parseArgument("Tensor[](a!) inputs");
  EXPECT_EQ(inputs.type.kind, Kind::TensorList);
  EXPECT_FALSE(inputs.elementAlias);
  ASSERT_TRUE(inputs.alias);
  EXPECT_TRUE(inputs.alias->isWrite);
  EXPECT_TRUE(inputs.isWrite());
}

TEST(SchemaParser, WildcardOnElements) {
  SchemaArgument value = parseArgument("t(*) value");
  ASSERT_TRUE(value.alias);
  EXPECT_TRUE(value.alias->isWildcardBefore());
  EXPECT_TRUE(value.hasWildcard());
}

TEST(SchemaParser, AliasOnNonTensorTypes) {
  SchemaArgument dict = parseArgument("Dict(str, t)(a!) self");
  EXPECT_EQ(dict.type.element, "Dict(str, t)");
  ASSERT_TRUE(dict.alias);
  EXPECT_TRUE(dict.alias->isWrite);
  SchemaArgument list = parseArgument("t[](a!) self");
  EXPECT_EQ(list.type.kind, Kind::Other);
  EXPECT_TRUE(list.isWrite());
  EXPECT_TRUE(list.type.mayContainTensor);
}

TEST(SchemaParser, BangShorthandIsAFreshWrittenSet) {
  // vLLM writes `Tensor! out`: written, in a set no other value shares.
  OpSchema schema = parseOk("_C::f(Tensor! a, Tensor! b, Tensor!? c, Tensor d) -> ()");
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(schema.arguments[i].alias) << i;
    EXPECT_TRUE(schema.arguments[i].alias->isShorthand);
    EXPECT_TRUE(schema.writesArgument(i));
  }
  EXPECT_FALSE(schema.writesArgument(3));
  EXPECT_FALSE(schema.arguments[0].sharesAliasSetWith(schema.arguments[1]));
  EXPECT_EQ(schema.arguments[2].type.kind, Kind::OptionalTensor);
  EXPECT_EQ(schema.toString(), "_C::f(Tensor! a, Tensor! b, Tensor!? c, Tensor d) -> ()");
}

TEST(SchemaParser, AliasOnOptionalTensor) {
  SchemaArgument out = parseArgument("Tensor(a6!)? output_block_scale=None");
  EXPECT_EQ(out.type.kind, Kind::OptionalTensor);
  ASSERT_TRUE(out.alias);
  EXPECT_TRUE(out.alias->isWrite);
  EXPECT_EQ(out.toString(), "Tensor(a6!)? output_block_scale=None");
}

// --- types
// -------------------------------------------------------------------------------------------

struct TypeCase {
  std::string text;
  Kind kind;
  bool mayContainTensor;
};

TEST(SchemaParser, Types) {
  const TypeCase cases[] = {
      {"Tensor", Kind::Tensor, true},
      {"Tensor?", Kind::OptionalTensor, true},
      {"Tensor[]", Kind::TensorList, true},
      {"Tensor?[]", Kind::OptionalTensorList, true},
      {"Tensor[]?", Kind::TensorList, true},
      {"Tensor[][]", Kind::Other, true},
      {"SymInt[]", Kind::Other, false},
      {"SymInt[]?", Kind::Other, false},
      {"int[2]", Kind::Other, false},
      {"int[1]?", Kind::Other, false},
      {"int", Kind::Other, false},
      {"float?", Kind::Other, false},
      {"bool[3]", Kind::Other, false},
      {"Scalar", Kind::Other, false},
      {"Scalar[]", Kind::Other, false},
      {"ScalarType?", Kind::Other, false},
      {"MemoryFormat?", Kind::Other, false},
      {"Device?", Kind::Other, false},
      {"Layout?", Kind::Other, false},
      {"Generator?", Kind::Other, false},
      {"str", Kind::Other, false},
      {"str[]?", Kind::Other, false},
      {"Dimname[]", Kind::Other, false},
      {"SymBool", Kind::Other, false},
      {"Storage", Kind::Other, false},
      {"Stream", Kind::Other, false},
      {"complex", Kind::Other, false},
      {"Any", Kind::Other, true},
      {"t", Kind::Other, true},
      {"t1", Kind::Other, true},
      {"t[]", Kind::Other, true},
      {"Dict(str, t)", Kind::Other, true},
      {"Dict(str, int)", Kind::Other, false},
      {"(int, int)?", Kind::Other, false},
      {"(Tensor, int)", Kind::Other, true},
      {"Future(t)", Kind::Other, true},
      {"__torch__.torch.classes.quantized.Conv2dPackedParamsBase", Kind::Other, true},
  };
  for (const TypeCase& c : cases) {
    SchemaArgument argument = parseArgument(c.text + " x");
    EXPECT_EQ(argument.type.kind, c.kind) << c.text;
    EXPECT_EQ(argument.type.mayContainTensor, c.mayContainTensor) << c.text;
    EXPECT_EQ(argument.type.text(), c.text);
    EXPECT_EQ(argument.toString(), c.text + " x");
  }
}

TEST(SchemaParser, SizedListParts) {
  SchemaArgument size = parseArgument("int[1]? dim");
  EXPECT_EQ(size.type.element, "int");
  EXPECT_EQ(size.type.listSuffix, "[1]");
  EXPECT_TRUE(size.type.optional);
  EXPECT_TRUE(size.type.isList());
}

// --- defaults and keyword-only arguments
// ---------------------------------------------------------------

TEST(SchemaParser, Defaults) {
  const std::pair<std::string, std::string> cases[] = {
      {"int", "1"},
      {"int", "-1"},
      {"float", "1e-05"},
      {"float", "1.0000000000000001e-05"},
      {"float", "0."},
      {"float", "-inf"},
      {"Tensor?", "None"},
      {"bool", "True"},
      {"bool", "False"},
      {"int[]", "[]"},
      {"int[]", "[0,1]"},
      {"int[]", "[-2, -1]"},
      {"int[2]", "1"},
      {"str", "\"mean\""},
      {"str", "'none'"},
      {"str", "\"\\\"\\'\\\\\""},
      {"MemoryFormat", "contiguous_format"},
      {"ScalarType?", "long"},
      {"int", "Mean"},
  };
  for (const auto& [type, value] : cases) {
    SchemaArgument argument = parseArgument(type + " x=" + value);
    ASSERT_TRUE(argument.defaultValue) << type << "=" << value;
    EXPECT_EQ(*argument.defaultValue, value);
    EXPECT_EQ(argument.toString(), type + " x=" + value);
  }
  EXPECT_FALSE(parseArgument("Tensor x").defaultValue);
}

TEST(SchemaParser, KeywordOnlyArguments) {
  OpSchema schema = parseOk(
      "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_FALSE(schema.arguments[0].kwargOnly);
  EXPECT_FALSE(schema.arguments[1].kwargOnly);
  EXPECT_TRUE(schema.arguments[2].kwargOnly);
  EXPECT_TRUE(schema.arguments[3].kwargOnly);
  // `*` first: every argument is keyword-only.
  OpSchema empty = parseOk("aten::_make_dep_token(*, ScalarType? dtype=None) -> Tensor");
  EXPECT_TRUE(empty.arguments[0].kwargOnly);
}

// --- returns and varargs
// -------------------------------------------------------------------------------

TEST(SchemaParser, MultipleNamedReturns) {
  OpSchema schema = parseOk("aten::sort.values(Tensor self, int dim=-1, bool descending=False, *, "
                            "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, "
                            "Tensor(b!) indices)");
  ASSERT_EQ(schema.returns.size(), 2u);
  EXPECT_EQ(schema.returns[0].name, "values");
  EXPECT_EQ(schema.returns[1].name, "indices");
  EXPECT_EQ(schema.returnAliasesArgument(0), schema.argumentIndex("values"));
  EXPECT_EQ(schema.returnAliasesArgument(1), schema.argumentIndex("indices"));
}

TEST(SchemaParser, ReturnForms) {
  EXPECT_TRUE(parseOk("aten::_foreach_zero_(Tensor(a!)[] self) -> ()").returns.empty());
  OpSchema list = parseOk("aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]");
  ASSERT_EQ(list.returns.size(), 1u);
  EXPECT_EQ(list.returns[0].type.kind, Kind::TensorList);
  OpSchema named = parseOk("_quantized::add(Tensor qa, Tensor qb) -> Tensor qc");
  EXPECT_EQ(named.returns[0].name, "qc");
  EXPECT_EQ(named.toString(), "_quantized::add(Tensor qa, Tensor qb) -> Tensor qc");
  OpSchema tuple = parseOk("test::f(Tensor a) -> ((int, int))");
  ASSERT_EQ(tuple.returns.size(), 1u);
  EXPECT_EQ(tuple.returns[0].type.element, "(int, int)");
  EXPECT_EQ(tuple.toString(), "test::f(Tensor a) -> ((int, int))");
}

TEST(SchemaParser, Varargs) {
  OpSchema schema = parseOk("prim::TupleConstruct(...) -> ...");
  EXPECT_TRUE(schema.isVararg);
  EXPECT_TRUE(schema.isVarret);
  EXPECT_TRUE(schema.arguments.empty());
  EXPECT_EQ(schema.toString(), "prim::TupleConstruct(...) -> ...");
  OpSchema mixed = parseOk("static_runtime::fused_equally_split(Tensor input, int num_split, int "
                           "dim) -> ...");
  EXPECT_FALSE(mixed.isVararg);
  EXPECT_TRUE(mixed.isVarret);
  OpSchema trailing = parseOk("test::f(Tensor a, ...) -> (Tensor, ...)");
  EXPECT_TRUE(trailing.isVararg);
  EXPECT_TRUE(trailing.isVarret);
  EXPECT_EQ(trailing.toString(), "test::f(Tensor a, ...) -> (Tensor, ...)");
}

// --- printing
// ----------------------------------------------------------------------------------------------

TEST(SchemaParser, ToStringRoundTrips) {
  const char* schemas[] = {
      "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
      "aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
      "aten::_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
      "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
      "aten::conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], str "
      "padding=\"valid\", int[1] dilation=[1], int groups=1) -> Tensor",
      "aten::__getitem__.Dict_bool(Dict(bool, t) self, bool key) -> t(*)",
      "aten::pop.Dict_bool(Dict(bool, t)(a!) self, bool key) -> t(*)",
      "_C_cache_ops::copy_blocks(Tensor(a!)[] key_caches, Tensor[](b!) value_caches, Tensor "
      "block_mapping) -> ()",
      "_C::static_scaled_fp8_quant(Tensor! result, Tensor input, Tensor scale, (int, int)? "
      "group_shape=None) -> ()",
      "test::f(Tensor(a! -> a|b) x, Tensor(a)?[] y, int!? z) -> Tensor(b)",
  };
  for (const char* text : schemas) {
    OpSchema schema = parseOk(text);
    EXPECT_EQ(schema.toString(), text);
    EXPECT_EQ(parseOk(schema.toString()), schema);
  }
}

TEST(SchemaParser, ToStringNormalizesSpacing) {
  OpSchema schema = parseOk("  aten::f( Tensor(a ! ->*)  self ,* , int[ 2 ]x = [ 1,2 ] )->( ) ");
  EXPECT_EQ(schema.toString(), "aten::f(Tensor(a! -> *) self, *, int[2] x=[ 1,2 ]) -> ()");
}

// --- errors
// -----------------------------------------------------------------------------------------------

struct ErrorCase {
  std::string text;
  uint32_t column;
  std::string message; ///< a substring of the message
};

TEST(SchemaParser, ReportsMalformedSchemasWithColumns) {
  const ErrorCase cases[] = {
      {"", 1, "expected an operator name"},
      {"aten::add", 10, "expected '('"},
      {"aten::add(Tensor self)", 23, "expected '->'"},
      {"aten::add(Tensor self) ->", 26, "expected a type"},
      {"aten::add(Tensor self) -> Tensor extra junk", 40, "expected end of schema"},
      {"aten:add(Tensor self) -> Tensor", 6, "expected ':'"},
      {"aten::add.(Tensor self) -> Tensor", 11, "expected an overload name"},
      {"aten::add(Tensor) -> Tensor", 17, "expected an argument name"},
      {"aten::add(Tensor self Tensor other) -> Tensor", 23, "expected ',' or ')'"},
      {"aten::add(Bogus self) -> Tensor", 11, "unknown type 'Bogus'"},
      {"aten::add(Tensor() self) -> Tensor", 18, "expected an alias set name"},
      {"aten::add(Tensor(a self) -> Tensor", 20, "expected ')'"},
      {"aten::add(Tensor(a -> ) self) -> Tensor", 23, "expected an alias set name"},
      {"aten::add(int[2 x) -> Tensor", 17, "expected ']'"},
      {"aten::add(int[x] y) -> Tensor", 15, "expected ']'"},
      {"aten::add(Tensor?? x) -> Tensor", 18, "repeated '?'"},
      {"aten::add(int x=) -> Tensor", 17, "expected a default value"},
      {"aten::add(int x=[1,) -> Tensor", 20, "expected a default value"},
      {"aten::add(int x=[1 2]) -> Tensor", 20, "expected ',' or ']'"},
      {"aten::add(int x=-) -> Tensor", 18, "expected a number after '-'"},
      {"aten::add(str x=\"abc) -> Tensor", 17, "unterminated string literal"},
      {"aten::add(float x=1e) -> Tensor", 19, "malformed exponent"},
      {"aten::add(float x=1.5abc) -> Tensor", 19, "malformed number"},
      {"aten::add(Tensor x) -> Tensor @", 31, "unexpected character '@'"},
      {"aten::add(..., Tensor x) -> Tensor", 16, "'...' must be the last argument"},
      {"aten::add(Tensor x) -> (..., Tensor)", 30, "'...' must be the last return"},
      {"aten::add(*, *, Tensor x) -> Tensor", 14, "duplicate '*'"},
      {"aten::add(Tensor(a)[](b)[](c) x) -> Tensor", 25, "nested lists"},
      {"aten::add(Dict(str) x) -> Tensor", 19, "expected ','"},
      {"aten::add(__torch__ x) -> Tensor", 21, "expected '.' after '__torch__'"},
  };
  for (const ErrorCase& c : cases) {
    Result<OpSchema> result = parseSchema(c.text);
    ASSERT_FALSE(result.ok()) << c.text;
    EXPECT_EQ(result.error().line, 1u) << c.text;
    EXPECT_EQ(result.error().column, c.column) << c.text << ": " << result.error().message;
    EXPECT_NE(result.error().message.find(c.message), std::string::npos)
        << c.text << ": " << result.error().message;
  }
}

TEST(SchemaParser, DeepNestingIsAnErrorNotACrash) {
  std::string type;
  for (int i = 0; i < 10000; ++i)
    type += "(";
  Result<OpSchema> result = parseSchema("test::f(" + type + "int x) -> ()");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("nested too deeply"), std::string::npos);
}

// Feeds the parser schemas mutated at random (deterministically seeded): it must never crash, every
// error must point into the text, and whatever it accepts must print back to an equal schema.
TEST(SchemaParser, SurvivesMutatedSchemas) {
  const std::string seeds[] = {
      "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      "aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
      "aten::sort.values(Tensor self, int dim=-1, *, Tensor(a!) values, Tensor(b!) indices) -> "
      "(Tensor(a!) values, Tensor(b!) indices)",
      "_C_cache_ops::copy_blocks(Tensor(a!)[] key_caches, Tensor[](b!) value_caches) -> ()",
      "aten::conv1d.padding(Tensor input, int[1] stride=[1], str padding=\"valid\") -> Tensor",
      "aten::pop.Dict_bool(Dict(bool, t)(a!) self, bool key, (int, float)? x=None) -> t(*)",
      "test::f(Tensor(a! -> a|b) x, Tensor!? y, float z=1e-05, ...) -> (Tensor(b), ...)",
  };
  const std::string alphabet = "()[]<>,.:=?!*|-> \"'\\aTtint0159e_";
  std::mt19937 rng(20240611);
  size_t accepted = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string text = seeds[rng() % std::size(seeds)];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = rng() % (text.size() + 1);
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 4) {
      case 0:
        text.insert(at, 1, c);
        break;
      case 1:
        if (at < text.size())
          text.erase(at, 1);
        break;
      case 2:
        if (at < text.size())
          text[at] = c;
        break;
      default:
        text.resize(at);
        break;
      }
    }
    Result<OpSchema> result = parseSchema(text);
    if (!result) {
      EXPECT_GE(result.error().column, 1u) << text;
      EXPECT_LE(result.error().column, text.size() + 1) << text;
      continue;
    }
    ++accepted;
    Result<OpSchema> reparsed = parseSchema(result->toString());
    ASSERT_TRUE(reparsed.ok()) << text << " printed as " << result->toString();
    EXPECT_EQ(*reparsed, *result) << text;
  }
  EXPECT_GT(accepted, 0u);
}

// --- queries on real operators
// ------------------------------------------------------------------------

TEST(SchemaQueries, InPlaceAddWritesSelfAndReturnsIt) {
  const OpSchema& add = builtin("aten", "add_", "Tensor");
  EXPECT_TRUE(add.isMutable());
  EXPECT_TRUE(add.writesArgument(0));
  EXPECT_FALSE(add.writesArgument(1));
  EXPECT_FALSE(add.writesArgument(99));
  EXPECT_EQ(add.returnAliasesArgument(0), 0u);
  EXPECT_FALSE(add.returnIsFresh(0));
  EXPECT_FALSE(add.hasWildcard());
  EXPECT_TRUE(add.isTensorLike(0));
  EXPECT_FALSE(add.isTensorLike(2));
}

TEST(SchemaQueries, ViewAliasesSelfWithoutWriting) {
  const OpSchema& view = builtin("aten", "view", "default");
  EXPECT_FALSE(view.isMutable());
  EXPECT_EQ(view.returnAliasesArgument(0), 0u);
  EXPECT_FALSE(view.returnIsFresh(0));
}

TEST(SchemaQueries, CloneReturnsAFreshTensor) {
  const OpSchema& clone = builtin("aten", "clone", "");
  EXPECT_FALSE(clone.isMutable());
  EXPECT_TRUE(clone.returnIsFresh(0));
  EXPECT_EQ(clone.returnAliasesArgument(0), std::nullopt);
  EXPECT_EQ(clone.argumentIndex("memory_format"), 1u);
  EXPECT_TRUE(clone.arguments[1].kwargOnly);
  EXPECT_EQ(clone.argumentIndex("nonexistent"), std::nullopt);
}

TEST(SchemaQueries, OutVariantWritesItsKeywordOnlyOut) {
  const OpSchema& add = builtin("aten", "add", "out");
  std::optional<size_t> out = add.argumentIndex("out");
  ASSERT_TRUE(out);
  EXPECT_TRUE(add.arguments[*out].kwargOnly);
  EXPECT_TRUE(add.writesArgument(*out));
  EXPECT_FALSE(add.writesArgument(0));
  EXPECT_EQ(add.returnAliasesArgument(0), out);
}

TEST(SchemaQueries, SplitReturnsAListOfViews) {
  const OpSchema& split = builtin("aten", "split", "Tensor");
  ASSERT_EQ(split.returns.size(), 1u);
  EXPECT_EQ(split.returns[0].type.kind, Kind::TensorList);
  ASSERT_TRUE(split.returns[0].elementAlias);
  EXPECT_EQ(split.returns[0].elementAlias->beforeSets, std::vector<std::string>{"a"});
  EXPECT_EQ(split.returnAliasesArgument(0), 0u);
  EXPECT_TRUE(split.hasWildcard()); // `Tensor(a -> *) self`
  EXPECT_FALSE(split.isMutable());
}

TEST(SchemaQueries, ForeachInPlaceWritesListElements) {
  const OpSchema& foreach = builtin("aten", "_foreach_add_", "Scalar");
  ASSERT_TRUE(foreach.arguments[0].elementAlias);
  EXPECT_TRUE(foreach.arguments[0].elementAlias->isWrite);
  EXPECT_FALSE(foreach.arguments[0].alias);
  EXPECT_TRUE(foreach.writesArgument(0));
  EXPECT_TRUE(foreach.returns.empty());
}

TEST(SchemaQueries, CustomOpsFromTheSupplement) {
  const OpSchema& fused = builtin("_C", "fused_add_rms_norm", "default");
  EXPECT_TRUE(fused.writesArgument(*fused.argumentIndex("input")));
  EXPECT_TRUE(fused.writesArgument(*fused.argumentIndex("residual")));
  EXPECT_FALSE(fused.writesArgument(*fused.argumentIndex("weight")));
  const OpSchema& attention = builtin("vllm", "unified_attention_with_output", "");
  EXPECT_TRUE(attention.writesArgument(*attention.argumentIndex("output")));
  EXPECT_FALSE(attention.writesArgument(*attention.argumentIndex("query")));
  const OpSchema& wait = builtin("_c10d_functional", "wait_tensor", "default");
  EXPECT_TRUE(wait.returnIsFresh(0));
  const OpSchema& iota = builtin("prims", "iota", "default");
  EXPECT_TRUE(iota.returnIsFresh(0));
  EXPECT_TRUE(iota.arguments[1].kwargOnly);
}

// --- registry
// ----------------------------------------------------------------------------------------------

TEST(SchemaRegistry, DefaultOverloadLookup) {
  SchemaRegistry registry;
  ASSERT_TRUE(registry.addSchema("mylib::foo(Tensor(a!) x) -> ()").ok());
  ASSERT_TRUE(registry.addSchema("mylib::foo.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)").ok());
  const OpSchema* byDefault = registry.lookup("mylib", "foo", "default");
  ASSERT_NE(byDefault, nullptr);
  EXPECT_EQ(byDefault, registry.lookup("mylib", "foo", ""));
  EXPECT_EQ(byDefault->overload, "");
  EXPECT_NE(registry.lookup("mylib", "foo", "out"), nullptr);
  EXPECT_EQ(registry.lookup("mylib", "foo", "Tensor"), nullptr);
  EXPECT_EQ(registry.lookup("mylib", "bar", ""), nullptr);
  EXPECT_EQ(registry.lookup("other", "foo", ""), nullptr);
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_TRUE(registry.hasPacket("mylib", "foo"));
  EXPECT_FALSE(registry.hasPacket("mylib", "bar"));
}

TEST(SchemaRegistry, OverloadsOfAPacket) {
  std::vector<const OpSchema*> adds = SchemaRegistry::builtin().overloads("aten", "add");
  std::set<std::string> names;
  for (const OpSchema* schema : adds)
    names.insert(schema->overload);
  EXPECT_TRUE(names.count("Tensor"));
  EXPECT_TRUE(names.count("Scalar"));
  EXPECT_TRUE(names.count("out"));
  EXPECT_TRUE(SchemaRegistry::builtin().overloads("aten", "no_such_op").empty());
}

TEST(SchemaRegistry, LaterSchemasReplaceEarlierOnes) {
  SchemaRegistry registry;
  ASSERT_TRUE(registry.addSchema("mylib::foo(Tensor x) -> Tensor").ok());
  const OpSchema* before = registry.lookup("mylib", "foo", "");
  ASSERT_NE(before, nullptr);
  EXPECT_FALSE(before->isMutable());
  ASSERT_TRUE(registry.addSchema("mylib::foo(Tensor(a!) x) -> Tensor(a!)").ok());
  EXPECT_EQ(registry.size(), 1u);
  EXPECT_EQ(registry.lookup("mylib", "foo", ""), before); // replaced in place
  EXPECT_TRUE(before->isMutable());
}

TEST(SchemaRegistry, SchemasNeedANamespace) {
  SchemaRegistry registry;
  Status status = registry.addSchema("foo(Tensor x) -> Tensor");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("no namespace"), std::string::npos);
  EXPECT_EQ(registry.size(), 0u);
}

TEST(SchemaRegistry, LoadTextSkipsCommentsAndReportsLines) {
  SchemaRegistry registry;
  const std::string text = "# vendor ops\n"
                           "\n"
                           "vendor::a(Tensor x) -> Tensor\n"
                           "   # indented comment\r\n"
                           "vendor::b(Tensor(a!) x) -> Tensor(a!)\r\n"
                           "  vendor::c(Tensor x, Bogus y) -> Tensor\n"
                           "vendor::d(Tensor x) -> Tensor\n";
  Status status = registry.loadText(text);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().line, 6u);
  EXPECT_EQ(status.error().column, 23u);
  EXPECT_EQ(status.error().format("ops.schemas"), "ops.schemas:6:23: error: unknown type 'Bogus'");
  // The lines before the error stay loaded.
  EXPECT_NE(registry.lookup("vendor", "a", ""), nullptr);
  EXPECT_NE(registry.lookup("vendor", "b", ""), nullptr);
  EXPECT_EQ(registry.lookup("vendor", "d", ""), nullptr);
}

TEST(SchemaRegistry, LoadFile) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "declone-schema-test.schemas";
  {
    std::ofstream out(path);
    out << "# extra ops\nvendor::scale_(Tensor(a!) self, float factor) -> Tensor(a!)\n"
        << "aten::clone(Tensor(a!) self) -> Tensor(a!)\n";
  }
  // A user file on top of the built-ins overrides them.
  SchemaRegistry registry = SchemaRegistry::builtin();
  ASSERT_TRUE(registry.loadFile(path.string()).ok());
  const OpSchema* scale = registry.lookup("vendor", "scale_", "default");
  ASSERT_NE(scale, nullptr);
  EXPECT_TRUE(scale->writesArgument(0));
  EXPECT_TRUE(registry.lookup("aten", "clone", "")->isMutable());
  EXPECT_FALSE(SchemaRegistry::builtin().lookup("aten", "clone", "")->isMutable());
  std::filesystem::remove(path);

  Status missing = registry.loadFile(path.string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot open"), std::string::npos);
}

// The built-in registry parses a packet on its first lookup, from any thread.
TEST(SchemaRegistry, BuiltinLookupsFromManyThreadsAgree) {
  const char* const names[] = {"add",   "mul",   "view",        "clone",
                               "relu_", "split", "convolution", "native_batch_norm",
                               "copy_", "slice"};
  std::vector<std::vector<const OpSchema*>> found(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < found.size(); ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round)
        for (const char* name : names)
          if (round == 0)
            found[t].push_back(SchemaRegistry::builtin().lookup("aten", name, "default"));
          else
            (void)SchemaRegistry::builtin().overloads("aten", name);
    });
  for (std::thread& thread : threads)
    thread.join();
  for (size_t t = 1; t < found.size(); ++t)
    EXPECT_EQ(found[t], found[0]); // the same schema objects: parsed once
  EXPECT_NE(SchemaRegistry::builtin().lookup("aten", "clone", "default"), nullptr);
  EXPECT_EQ(SchemaRegistry::builtin().lookup("aten", "no_such_op", "default"), nullptr);
}

// Every embedded schema parses and prints back to itself; the supplement is loaded after libtorch.
TEST(SchemaRegistry, BuiltinSourcesParseAndRoundTrip) {
  std::vector<SchemaRegistry::Source> sources = SchemaRegistry::builtinSources();
  ASSERT_EQ(sources.size(), 2u);
  EXPECT_EQ(sources[0].name, "libtorch");
  EXPECT_EQ(sources[1].name, "supplement");
  size_t lines = 0;
  for (const SchemaRegistry::Source& source : sources) {
    SchemaRegistry registry;
    Status status = registry.loadText(source.text);
    ASSERT_TRUE(status.ok()) << status.error().format(source.name);
    std::istringstream in(source.text);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#')
        continue;
      ++lines;
      Result<OpSchema> schema = parseSchema(line);
      ASSERT_TRUE(schema.ok()) << line;
      EXPECT_EQ(parseSchema(schema->toString()).value(), *schema) << line;
    }
  }
  EXPECT_LE(SchemaRegistry::builtin().size(), lines);
  if (!sources[0].text.empty()) { // built against libtorch
    EXPECT_GT(SchemaRegistry::builtin().size(), 3000u);
  }
}

// The built-in registry indexes its lines without parsing them: it must hold what loading both
// sources one after the other holds, each overload once (the supplement replaces libtorch's),
// and a lookup must give the schema of the last source that has it.
TEST(SchemaRegistry, BuiltinIndexAgreesWithLoadingTheSources) {
  SchemaRegistry loaded;
  for (const SchemaRegistry::Source& source : SchemaRegistry::builtinSources())
    ASSERT_TRUE(loaded.loadText(source.text).ok()) << source.name;
  EXPECT_EQ(SchemaRegistry::builtin().size(), loaded.size());
  size_t compared = 0;
  for (const SchemaRegistry::Source& source : SchemaRegistry::builtinSources())
    for (std::istringstream in(source.text); !in.eof();) {
      std::string line;
      std::getline(in, line);
      Result<OpSchema> schema = parseSchema(line);
      if (line.empty() || line[0] == '#' || !schema.ok())
        continue;
      const OpSchema* built =
          SchemaRegistry::builtin().lookup(schema->opNamespace, schema->name, schema->overload);
      const OpSchema* expected = loaded.lookup(schema->opNamespace, schema->name, schema->overload);
      ASSERT_NE(built, nullptr) << line;
      ASSERT_NE(expected, nullptr) << line;
      EXPECT_EQ(*built, *expected) << line;
      ++compared;
    }
  EXPECT_GE(compared, loaded.size());
}

// Every `torch.ops.NS.NAME[.OVERLOAD]` target of the real graph dumps must resolve, except
// higher-order ops (not operators) and the custom test namespaces that the dumps define inline.
TEST(SchemaRegistry, CorpusTargetsResolve) {
  const std::set<std::string> skipped = {"higher_order", "mylib", "tg"};
  const SchemaRegistry& registry = SchemaRegistry::builtin();
  std::set<std::string> missing;
  size_t checked = 0;
  auto identifier = [](const std::string& text, size_t& pos) {
    const size_t start = pos;
    while (pos < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_'))
      ++pos;
    return text.substr(start, pos - start);
  };
  for (const auto& entry : std::filesystem::recursive_directory_iterator(DECLONE_CORPUS_DIR)) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() || (extension != ".py" && extension != ".fx"))
      continue;
    std::ifstream in(entry.path());
    std::stringstream contents;
    contents << in.rdbuf();
    const std::string text = contents.str();
    constexpr std::string_view prefix = "torch.ops.";
    for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at)) {
      size_t pos = at + prefix.size();
      at = pos;
      const std::string ns = identifier(text, pos);
      if (pos >= text.size() || text[pos] != '.')
        continue;
      ++pos;
      const std::string name = identifier(text, pos);
      std::string overload;
      if (pos < text.size() && text[pos] == '.') {
        ++pos;
        overload = identifier(text, pos);
      }
      if (ns.empty() || name.empty() || skipped.count(ns))
        continue;
      ++checked;
      const bool found = overload.empty() ? registry.hasPacket(ns, name)
                                          : registry.lookup(ns, name, overload) != nullptr;
      if (!found)
        missing.insert(ns + "." + name + (overload.empty() ? "" : "." + overload));
    }
  }
  EXPECT_GT(checked, 100u);
  std::string list;
  for (const std::string& target : missing)
    list += "\n  torch.ops." + target;
  EXPECT_TRUE(missing.empty()) << "targets without a schema:" << list;
}

} // namespace
} // namespace declone
