// Unit tests for SymContext: parsing, canonical equality, folding, printing, evaluation, errors.
#include "declone/support/SymExpr.h"

#include "TestSupport.h"

#include <chrono>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>

namespace declone {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

class SymExprTest : public ::testing::Test {
protected:
  /// Parses `text`, recording a test failure (and returning 0) if it does not parse.
  SymExpr p(std::string_view text) {
    Result<SymExpr> r = ctx.parse(text);
    if (!r) {
      ADD_FAILURE() << "failed to parse '" << text << "': col " << r.error().column << ": "
                    << r.error().message;
      return SymExpr();
    }
    return *r;
  }

  /// print(parse(text)).
  std::string roundTrip(std::string_view text) { return ctx.print(p(text)); }

  /// The error for `text`, which must not parse.
  Error parseError(std::string_view text) {
    Result<SymExpr> r = ctx.parse(text);
    if (r) {
      ADD_FAILURE() << "'" << text << "' unexpectedly parsed as " << ctx.print(*r);
      return Error{};
    }
    return r.error();
  }

  std::optional<int64_t> eval(std::string_view text,
                              const std::unordered_map<std::string, int64_t>& bindings = {}) {
    return ctx.evaluate(p(text), bindings);
  }

  SymContext ctx;
};

//===----------------------------------------------------------------------===//
// SymExpr values
//===----------------------------------------------------------------------===//

TEST_F(SymExprTest, DefaultIsZeroConstant) {
  SymExpr zero;
  EXPECT_TRUE(zero.isConstant());
  EXPECT_EQ(zero.constantValue(), 0);
  EXPECT_EQ(zero, SymExpr::constant(0));
  EXPECT_EQ(zero.hash(), SymExpr::constant(0).hash());
  EXPECT_TRUE(std::is_trivially_copyable_v<SymExpr>);
}

TEST_F(SymExprTest, ConstantsOfAnyValue) {
  for (int64_t v : {int64_t(0), int64_t(1), int64_t(-1), int64_t(64), int64_t(1) << 40,
                    -(int64_t(1) << 62), int64_t(1) << 62, kMin, kMax, kMin + 1, kMax - 1}) {
    SymExpr c = SymExpr::constant(v);
    EXPECT_TRUE(c.isConstant());
    EXPECT_EQ(c.constantValue(), v);
    EXPECT_EQ(c, SymExpr::constant(v));
    EXPECT_EQ(ctx.print(c), std::to_string(v));
    EXPECT_EQ(p(std::to_string(v)), c) << v;
    EXPECT_EQ(ctx.evaluate(c, {}), v);
  }
  EXPECT_NE(SymExpr::constant(kMin), SymExpr::constant(kMax));
  EXPECT_NE(SymExpr::constant(1), SymExpr::constant(-1));
}

TEST_F(SymExprTest, NonConstantsAreNotConstant) {
  SymExpr s0 = ctx.symbol("s0");
  EXPECT_FALSE(s0.isConstant());
  EXPECT_EQ(s0.constantValue(), std::nullopt);
  EXPECT_TRUE(ctx.isSymbol(s0));
  EXPECT_EQ(ctx.symbolName(s0), "s0");
  EXPECT_FALSE(ctx.isSymbol(p("s0 + 1")));
  EXPECT_FALSE(ctx.isSymbol(SymExpr::constant(3)));
  EXPECT_EQ(ctx.symbolName(p("2*s0")), std::nullopt);
}

TEST_F(SymExprTest, HashIsUsableInContainers) {
  std::unordered_set<SymExpr> set;
  for (std::string_view text : {"s0", "s0 + 1", "1 + s0", "s1", "7", "Max(1, s0)", "Max(s0, 1)"})
    set.insert(p(text));
  EXPECT_EQ(set.size(), 5u);
  EXPECT_EQ(p("s0*s1").hash(), p("s1*s0").hash());
}

TEST_F(SymExprTest, MovingAContextKeepsExpressionsValid) {
  auto make = [] {
    SymContext local;
    SymExpr e = *local.parse("Max(1, (s27//2))");
    return std::make_pair(std::move(local), e);
  };
  auto [moved, e] = make();
  EXPECT_EQ(moved.print(e), "Max(1, (s27//2))");
  EXPECT_EQ(*moved.parse("Max((s27//2), 1)"), e);
}

TEST_F(SymExprTest, InterningIsStructural) {
  SymExpr a = p("Min(16384, ((s72 + 1)//2))");
  size_t nodes = ctx.numNodes();
  SymExpr b = p("Min(((1 + s72)//2), 16384)");
  EXPECT_EQ(a, b);
  EXPECT_EQ(ctx.numNodes(), nodes);
  EXPECT_EQ(ctx.symbol("s72"), p("s72"));
  EXPECT_EQ(ctx.symbol("s72"), ctx.symbol(std::string("s72")));
}

//===----------------------------------------------------------------------===//
// Accepted forms and printing
//===----------------------------------------------------------------------===//

TEST_F(SymExprTest, CanonicalSpellingsPrintUnchanged) {
  for (std::string_view text : {"s0",
                                "u0",
                                "s27",
                                "s16*s47",
                                "64*s16*s82",
                                "2*s0",
                                "s0 + 1",
                                "s72 - 1",
                                "-s0",
                                "(s27//2)",
                                "((s72 + 1)//2)",
                                "Max(1, (s27//2))",
                                "Min(16384, ((s72 + 1)//2))",
                                "CeilDiv(s0, 2)",
                                "Mod(s0, 2)",
                                "s0**2",
                                "2*s0**2 + s0",
                                "9223372036854775807",
                                "-9223372036854775808",
                                "-5",
                                "0",
                                "s0*s1 + s0",
                                "-s0 + 4",
                                "s0 - s1",
                                "-2*s0 - 3",
                                "s0 + s1**2",
                                "Max(s0, s1)",
                                "Min(0, s0)",
                                "Max(1, s0, s1)",
                                "s0*s1*s2",
                                "s0**3 + 3*s0**2*s1 + 3*s0*s1**2 + s1**3",
                                "Max(1, s0)**2",
                                "2*((s0//2))",
                                "-(s0//2)",
                                "((s0//2))**2",
                                "((2*s0 + 1)//3)",
                                "(s0**2//3)",
                                "(Max(1, s0)//2)",
                                "(s0//(s1 + 1))",
                                "((-s0)//2)",
                                "s0 + (s1//2)",
                                "Mod(s0 + 1, 2)",
                                "ModularIndexing(s0, 1, 64)",
                                "PythonMod(s0, 3)",
                                "TruncToInt(s0)",
                                "Eq(s0, 1)",
                                "Piecewise((1, Eq(s0, 1)), (s0, True))",
                                "s0 < 5",
                                "s0 <= 5",
                                "s0 > 5",
                                "s0 >= 5",
                                "s0 == 5",
                                "s0 != 5",
                                "s0 + 1 < 2*s1",
                                "s0/2",
                                "s0/(2*s1)",
                                "s0**s1",
                                "s0**(-1)",
                                "Foo()",
                                "oo",
                                "-oo",
                                "True",
                                "s10*s2",
                                "s0*Max(1, s1)",
                                "s0 + Max(1, s1)",
                                "u0 + u1 - 1"}) {
    EXPECT_EQ(roundTrip(text), text);
  }
}

TEST_F(SymExprTest, NonCanonicalSpellingsPrintCanonically) {
  EXPECT_EQ(roundTrip("FloorDiv(s0, 2)"), "(s0//2)");
  EXPECT_EQ(roundTrip("s0 % 2"), "Mod(s0, 2)");
  EXPECT_EQ(roundTrip("s0 + s0"), "2*s0");
  EXPECT_EQ(roundTrip("s0*2"), "2*s0");
  EXPECT_EQ(roundTrip("1 + s0"), "s0 + 1");
  EXPECT_EQ(roundTrip("4 - s0"), "-s0 + 4");
  EXPECT_EQ(roundTrip("s47*s16"), "s16*s47");
  EXPECT_EQ(roundTrip("s0 + 2*s0**2"), "2*s0**2 + s0");
  EXPECT_EQ(roundTrip("s0 + s0*s1"), "s0*s1 + s0");
  EXPECT_EQ(roundTrip("Max((s27//2), 1)"), "Max(1, (s27//2))");
  EXPECT_EQ(roundTrip("(s0 + 1)*(s0 - 1)"), "s0**2 - 1");
  EXPECT_EQ(roundTrip("(s0 + 1)**2"), "s0**2 + 2*s0 + 1");
  EXPECT_EQ(roundTrip("--s0"), "s0");
  EXPECT_EQ(roundTrip("+s0"), "s0");
  EXPECT_EQ(roundTrip("s0 - -1"), "s0 + 1");
  EXPECT_EQ(roundTrip("2*-s0"), "-2*s0");
  EXPECT_EQ(roundTrip("-2**2"), "-4");
  EXPECT_EQ(roundTrip("(-2)**2"), "4");
  EXPECT_EQ(roundTrip("2**3**2"), "512");
  EXPECT_EQ(roundTrip("2**-1"), "2**(-1)");
  EXPECT_EQ(roundTrip("s0 - s0"), "0");
  EXPECT_EQ(roundTrip("s0*0"), "0");
  EXPECT_EQ(roundTrip("s0*1"), "s0");
}

TEST_F(SymExprTest, WhitespaceAndParentheses) {
  EXPECT_EQ(p("  s0  "), p("s0"));
  EXPECT_EQ(p("\ts0\n+\r\n1 "), p("s0 + 1"));
  EXPECT_EQ(p("((((s0))))"), p("s0"));
  EXPECT_EQ(p("( ( s72+1 ) // 2 )"), p("((s72 + 1)//2)"));
  EXPECT_EQ(p("Max ( 1 , ( s27 // 2 ) )"), p("Max(1, (s27//2))"));
  EXPECT_EQ(p(" 42 "), SymExpr::constant(42));
  EXPECT_EQ(p(" -42 "), SymExpr::constant(-42));
  EXPECT_EQ(p("- 42"), SymExpr::constant(-42));
  EXPECT_EQ(p("-0"), SymExpr::constant(0));
  EXPECT_EQ(p("007"), SymExpr::constant(7));
  EXPECT_EQ(p("(((-9223372036854775808)))"), SymExpr::constant(kMin));
}

//===----------------------------------------------------------------------===//
// Canonical equality
//===----------------------------------------------------------------------===//

TEST_F(SymExprTest, RequiredEqualities) {
  EXPECT_EQ(p("2*s0"), p("s0 + s0"));
  EXPECT_EQ(p("2*s0"), p("s0*2"));
  EXPECT_EQ(p("s16*s47"), p("s47*s16"));
  EXPECT_EQ(p("(s0 + 1) - 1"), p("s0"));
  EXPECT_EQ(p("Max(1, (s27//2))"), p("Max((s27//2), 1)"));
  EXPECT_EQ(p("Max(1, (s27//2))"), p("Max(FloorDiv(s27, 2), 1)"));
  EXPECT_EQ(p("(2*s0)//2"), p("s0"));
  EXPECT_NE(p("s0"), p("s1"));
  EXPECT_NE(p("s0"), p("s0 + 1"));
}

TEST_F(SymExprTest, PolynomialIdentities) {
  EXPECT_EQ(p("s0*(s1 + 2)"), p("s0*s1 + 2*s0"));
  EXPECT_EQ(p("(s0 + s1)*(s0 - s1)"), p("s0**2 - s1**2"));
  EXPECT_EQ(p("s0*s0*s0"), p("s0**3"));
  EXPECT_EQ(p("s0**2*s0**3"), p("s0**5"));
  EXPECT_EQ(p("(2*s0*s1)**2"), p("4*s0**2*s1**2"));
  EXPECT_EQ(p("64*s16*s82"), p("s82*(s16*64)"));
  EXPECT_EQ(p("s0 - s1 + s1"), p("s0"));
  EXPECT_EQ(p("-(-s0)"), p("s0"));
  EXPECT_EQ(p("3*(s0 + 1) - 3"), p("3*s0"));
  EXPECT_EQ(p("Max(1, s0) - Max(s0, 1)"), SymExpr::constant(0));
  EXPECT_EQ(p("(s27//2)*2 - 2*(s27//2)"), SymExpr::constant(0));
  EXPECT_EQ(p("Foo(s0 + s0, s1)"), p("Foo(2*s0, s1)"));
  EXPECT_NE(p("s0**2"), p("2*s0"));
  EXPECT_NE(p("s0*s1"), p("s0 + s1"));
  EXPECT_NE(p("Foo(s0, s1)"), p("Foo(s1, s0)"));
  EXPECT_NE(p("Foo(s0)"), p("Bar(s0)"));
  EXPECT_NE(p("Foo(s0)"), p("Foo(s0, s0)"));
}

TEST_F(SymExprTest, ApiMatchesParse) {
  SymExpr s0 = ctx.symbol("s0"), s1 = ctx.symbol("s1");
  SymExpr two = SymExpr::constant(2);
  EXPECT_EQ(ctx.add(s0, SymExpr::constant(1)), p("s0 + 1"));
  EXPECT_EQ(ctx.sub(s0, s1), p("s0 - s1"));
  EXPECT_EQ(ctx.mul(s0, s1), p("s1*s0"));
  EXPECT_EQ(ctx.neg(s0), p("-s0"));
  EXPECT_EQ(ctx.floorDiv(s0, two), p("(s0//2)"));
  EXPECT_EQ(ctx.mod(s0, two), p("Mod(s0, 2)"));
  EXPECT_EQ(ctx.ceilDiv(s0, two), p("CeilDiv(s0, 2)"));
  EXPECT_EQ(ctx.pow(s0, two), p("s0**2"));
  EXPECT_EQ(ctx.max(s0, SymExpr::constant(1)), p("Max(1, s0)"));
  EXPECT_EQ(ctx.min(s0, s1), p("Min(s1, s0)"));
  EXPECT_EQ(ctx.add(SymExpr::constant(2), SymExpr::constant(3)), SymExpr::constant(5));
  SymExpr parts[] = {s0, SymExpr::constant(1), s1, s0};
  EXPECT_EQ(ctx.sum(parts), p("2*s0 + s1 + 1"));
  EXPECT_EQ(ctx.sum({}), SymExpr());
  SymExpr huge[] = {SymExpr::constant(kMax), SymExpr::constant(1), SymExpr::constant(-1)};
  EXPECT_EQ(ctx.sum(huge), ctx.add(ctx.add(huge[0], huge[1]), huge[2]));
}

//===----------------------------------------------------------------------===//
// Folding rules
//===----------------------------------------------------------------------===//

TEST_F(SymExprTest, ConstantFoldingUsesPythonSemantics) {
  EXPECT_EQ(p("7//2"), SymExpr::constant(3));
  EXPECT_EQ(p("-7//2"), SymExpr::constant(-4));
  EXPECT_EQ(p("7//-2"), SymExpr::constant(-4));
  EXPECT_EQ(p("-7//-2"), SymExpr::constant(3));
  EXPECT_EQ(p("7 % 3"), SymExpr::constant(1));
  EXPECT_EQ(p("-7 % 3"), SymExpr::constant(2));
  EXPECT_EQ(p("7 % -3"), SymExpr::constant(-2));
  EXPECT_EQ(p("Mod(-7, -3)"), SymExpr::constant(-1));
  EXPECT_EQ(p("FloorDiv(-1, 3)"), SymExpr::constant(-1));
  EXPECT_EQ(p("CeilDiv(7, 2)"), SymExpr::constant(4));
  EXPECT_EQ(p("CeilDiv(-7, 2)"), SymExpr::constant(-3));
  EXPECT_EQ(p("CeilDiv(6, 2)"), SymExpr::constant(3));
  EXPECT_EQ(p("Max(3, 7, -1)"), SymExpr::constant(7));
  EXPECT_EQ(p("Min(3, 7, -1)"), SymExpr::constant(-1));
  EXPECT_EQ(p("2**10"), SymExpr::constant(1024));
  EXPECT_EQ(p("0**0"), SymExpr::constant(1));
  EXPECT_EQ(p("(-1)**9223372036854775807"), SymExpr::constant(-1));
  EXPECT_EQ(p("-9223372036854775808 % -1"), SymExpr::constant(0));
  EXPECT_EQ(p("2*3 + 4*5 - 6"), SymExpr::constant(20));
}

TEST_F(SymExprTest, MaxMinCanonicalisation) {
  EXPECT_EQ(p("Max(s0)"), p("s0"));
  EXPECT_EQ(p("Max(s0, s0)"), p("s0"));
  EXPECT_EQ(p("Max(s0, Max(s1, s2))"), p("Max(Max(s2, s0), s1)"));
  EXPECT_EQ(roundTrip("Max(s0, Max(s1, s2))"), "Max(s0, s1, s2)");
  EXPECT_EQ(roundTrip("Max(3, s0, 5, Max(7, s1))"), "Max(7, s0, s1)");
  EXPECT_EQ(roundTrip("Min(3, s0, 5, Min(7, s1))"), "Min(3, s0, s1)");
  EXPECT_NE(p("Max(s0, s1)"), p("Min(s0, s1)"));
  EXPECT_NE(p("Max(s0, Min(s1, s2))"), p("Max(s0, s1, s2)"));
  EXPECT_EQ(roundTrip("Max(s0 + 1, s0)"), "Max(s0, s0 + 1)");
}

TEST_F(SymExprTest, FloorDivCanonicalisation) {
  EXPECT_EQ(p("FloorDiv(s0, 1)"), p("s0"));
  EXPECT_EQ(p("s0//-1"), p("-s0"));
  EXPECT_EQ(p("(6*s0)//3"), p("2*s0"));
  EXPECT_EQ(p("(2*s0 + 4)//2"), p("s0 + 2"));
  EXPECT_EQ(p("(2*s0)//4"), p("s0//2"));
  EXPECT_EQ(p("(2*s0 + 1)//2"), p("s0"));
  EXPECT_EQ(p("(2*s0 + s1)//2"), p("s0 + (s1//2)"));
  EXPECT_EQ(p("(s0//2)//3"), p("s0//6"));
  EXPECT_EQ(p("s0//-2"), p("(-s0)//2"));
  EXPECT_EQ(p("0//s0"), SymExpr::constant(0));
  EXPECT_EQ(p("s0//s0"), SymExpr::constant(1));
  EXPECT_EQ(p("(2*s0)//(2*s1)"), p("s0//s1"));
  EXPECT_NE(p("(s0 + 1)//2"), p("s0//2"));
  EXPECT_NE(p("(3*s0)//2"), p("s0 + (s0//2)")); // kept as PyTorch spells it
  EXPECT_EQ(roundTrip("(3*s0)//2"), "((3*s0)//2)");
  // Division by a zero constant stays symbolic.
  EXPECT_EQ(roundTrip("s0//0"), "(s0//0)");
  EXPECT_EQ(roundTrip("1//0"), "(1//0)");
}

TEST_F(SymExprTest, ModAndCeilDivCanonicalisation) {
  EXPECT_EQ(p("Mod(s0, 1)"), SymExpr::constant(0));
  EXPECT_EQ(p("Mod(s0, -1)"), SymExpr::constant(0));
  EXPECT_EQ(p("Mod(2*s0, 2)"), SymExpr::constant(0));
  EXPECT_EQ(p("Mod(2*s0 + 3, 2)"), SymExpr::constant(1));
  EXPECT_EQ(p("Mod(s0 + 2, 2)"), p("Mod(s0, 2)"));
  EXPECT_EQ(p("Mod(3*s0, 2)"), p("s0 % 2"));
  EXPECT_EQ(p("Mod(Mod(s0, 4), 4)"), p("Mod(s0, 4)"));
  EXPECT_EQ(p("Mod(s0, s0)"), SymExpr::constant(0));
  EXPECT_EQ(p("Mod(0, s0)"), SymExpr::constant(0));
  EXPECT_NE(p("Mod(s0, 2)"), p("Mod(s0, 3)"));
  EXPECT_EQ(p("CeilDiv(s0, 1)"), p("s0"));
  EXPECT_EQ(p("CeilDiv(4*s0, 2)"), p("2*s0"));
  EXPECT_EQ(p("CeilDiv(2*s0 + s1, 2)"), p("s0 + CeilDiv(s1, 2)"));
  EXPECT_NE(p("CeilDiv(s0, 2)"), p("FloorDiv(s0, 2)"));
}

TEST_F(SymExprTest, OpaqueFunctionsCompareStructurally) {
  EXPECT_EQ(p("ModularIndexing(s0, 1, 64)"), p("ModularIndexing(s0,1,64)"));
  EXPECT_NE(p("ModularIndexing(s0, 1, 64)"), p("ModularIndexing(s0, 1, 32)"));
  EXPECT_NE(p("PythonMod(s0, 2)"), p("Mod(s0, 2)"));
  EXPECT_EQ(p("TruncToInt(s0 + s0)"), p("TruncToInt(2*s0)"));
  EXPECT_EQ(p("2*Foo(s0) + Foo(s0)"), p("3*Foo(s0)"));
  EXPECT_EQ(p("Foo(s0)*Foo(s0)"), p("Foo(s0)**2"));
}

TEST_F(SymExprTest, ComparisonsAndTrueDivision) {
  EXPECT_EQ(p("s0 < 5"), p("s0<5"));
  EXPECT_NE(p("s0 < 5"), p("s0 <= 5"));
  EXPECT_NE(p("s0 < 5"), p("5 > s0")); // opaque: no normalisation
  EXPECT_EQ(p("s0 + s0 == 4"), p("2*s0 == 4"));
  EXPECT_EQ(roundTrip("(s0 < 5) + 1"), "(s0 < 5) + 1");
  EXPECT_EQ(roundTrip("2*(s0 < 5)"), "2*(s0 < 5)");
  EXPECT_EQ(roundTrip("(s0 < 5) < 1"), "(s0 < 5) < 1");
  EXPECT_EQ(roundTrip("s0 / 2"), "s0/2");
  EXPECT_EQ(roundTrip("(s0 + 1)/2"), "(s0 + 1)/2");
  EXPECT_EQ(roundTrip("-(s0/2)"), "-(s0/2)");
  EXPECT_EQ(roundTrip("(-s0)/2"), "(-s0)/2");
  EXPECT_NE(p("-(s0/2)"), p("(-s0)/2"));
  EXPECT_NE(p("s0/2"), p("s0//2"));
}

//===----------------------------------------------------------------------===//
// Overflow
//===----------------------------------------------------------------------===//

TEST_F(SymExprTest, OverflowKeepsArithmeticUnfolded) {
  for (std::string_view text :
       {"9223372036854775807 + 1", "-9223372036854775808 - 1", "9223372036854775807*2",
        "-(-9223372036854775808)", "-9223372036854775808//-1", "CeilDiv(-9223372036854775808, -1)",
        "2**64", "3**40", "9223372036854775807*s0 + 9223372036854775807*s0",
        "-9223372036854775808*s0 + -9223372036854775808*s0", "(9223372036854775807*s0)*(2*s1)",
        "s0**9223372036854775807*s0", "(s0 + 1)**1000", "(s0 + 1)**70",
        "(s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7)*(s8 + s9 + s10 + s11 + s12 + s13 + s14 + s15)*"
        "(s16 + s17 + s18 + s19 + s20 + s21 + s22 + s23)*(s24 + s25 + s26 + s27 + s28 + s29)*"
        "(s30 + s31 + s32 + s33 + s34 + s35)"}) {
    SymExpr e = p(text);
    std::string printed = ctx.print(e);
    Result<SymExpr> again = ctx.parse(printed);
    ASSERT_TRUE(again.ok()) << text << " printed as " << printed << ": " << again.error().message;
    EXPECT_EQ(*again, e) << text << " printed as " << printed;
  }
  EXPECT_FALSE(p("9223372036854775807 + 1").isConstant());
  EXPECT_EQ(eval("9223372036854775807 + 1"), std::nullopt);
  EXPECT_EQ(eval("9223372036854775807 + 1 - 2"), std::nullopt);
  EXPECT_EQ(eval("-9223372036854775808//-1"), std::nullopt);
  EXPECT_EQ(eval("2**64"), std::nullopt);
  EXPECT_EQ(eval("9223372036854775807*s0 + 9223372036854775807*s0", {{"s0", 0}}), 0);
  EXPECT_EQ(eval("(s0 + 1)**70", {{"s0", 1}}), std::nullopt);
  EXPECT_EQ(eval("(s0 + 1)**70", {{"s0", 0}}), 1);
  // Subtraction of equal huge coefficients cancels exactly.
  EXPECT_EQ(p("-9223372036854775808*s0 - (-9223372036854775808*s0)"), SymExpr::constant(0));
  // INT64_MIN coefficients print with `+ -` since 9223372036854775808 is not an int64 literal.
  EXPECT_EQ(roundTrip("s0 - 9223372036854775807*s1 - s1"), "s0 + -9223372036854775808*s1");
  EXPECT_EQ(roundTrip("s0 - 9223372036854775807 - 1"), "s0 + -9223372036854775808");
  EXPECT_EQ(roundTrip("s0 - 9223372036854775807*s1 - s1 - s1"),
            "(-s1) + (s0 + -9223372036854775808*s1)");
  EXPECT_EQ(parseError("s0 - 9223372036854775808").column, 6u);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST_F(SymExprTest, ParseErrorsHaveColumns) {
  struct Case {
    std::string_view text;
    uint32_t column;
  };
  for (Case c : std::initializer_list<Case>{
           {"", 1},
           {"   ", 4},
           {"(s0", 4},
           {"((s0 + 1)//2", 13},
           {"s0)", 3},
           {"s0 +", 5},
           {"s0 + * 2", 6},
           {"* s0", 1},
           {"s0 $ 1", 4},
           {"s0 s1", 4},
           {"2.0", 1},
           {"s0 + 1.5", 6},
           {"1e5", 1},
           {"Max()", 1},
           {"FloorDiv(s0)", 1},
           {"s0 + Mod(s0, 2, 3)", 6},
           {"Foo(s0,)", 8},
           {"Foo(s0 s1)", 8},
           {"9223372036854775808", 1},
           {"-9223372036854775809", 2},
           {"s0 = 1", 4},
           {"s0 ! 1", 4},
           {"()", 2},
           {"s0 +\x01", 5},
           {"Max(1, (s27//2)", 16},
       }) {
    Error e = parseError(c.text);
    EXPECT_EQ(e.line, 0u) << c.text;
    EXPECT_EQ(e.column, c.column) << "'" << c.text << "': " << e.message;
    EXPECT_FALSE(e.message.empty()) << c.text;
  }
  EXPECT_NE(parseError("(s0").message.find("')'"), std::string::npos);
  EXPECT_NE(parseError("2.0").message.find("floating-point"), std::string::npos);
  EXPECT_NE(parseError("").message.find("empty"), std::string::npos);
}

TEST_F(SymExprTest, NestingIsBounded) {
  auto nested = [](int depth, std::string_view inner) {
    return std::string(depth, '(') + std::string(inner) + std::string(depth, ')');
  };
  EXPECT_EQ(p(nested(256, "s0")), p("s0"));
  Error e = parseError(nested(257, "s0"));
  EXPECT_NE(e.message.find("too deeply"), std::string::npos);
  EXPECT_EQ(e.column, 257u);
  EXPECT_NE(parseError(nested(100000, "s0")).message.find("too deeply"), std::string::npos);
  EXPECT_NE(parseError(std::string(100000, '(')).message.find("too deeply"), std::string::npos);
  EXPECT_NE(parseError(std::string(100000, '-') + "s0").message.find("too deeply"),
            std::string::npos);
  std::string calls;
  for (int i = 0; i < 100000; ++i)
    calls += "Max(";
  EXPECT_NE(parseError(calls + "s0").message.find("too deeply"), std::string::npos);
  std::string powers = "s0";
  for (int i = 0; i < 100000; ++i)
    powers += "**2";
  EXPECT_NE(parseError(powers).message.find("too deeply"), std::string::npos);
  // Operator chains nest without parentheses, so tree depth is limited too; whatever parses
  // must still print within the nesting limit and re-parse to the same expression.
  std::string chain = "s0";
  for (int i = 0; i < 300; ++i)
    chain += "//s1";
  EXPECT_NE(parseError(chain).message.find("too deeply"), std::string::npos);
  for (std::string_view pattern :
       {"({}//s1)",         "-({}//s1)", "2*(({}//s1))",  "(s2*{}//s1)", "-2*({}//3)",
        "((-{})//s1)",      "Foo({})",   "-Foo(-{})",     "({} < 1)",    "-({})/2",
        "({})/s1",          "({})**s1",  "-(({})/s1)**2", "Max({}, s0)", "Mod({}, s1)",
        "CeilDiv(-{}, s1)", "({}, 1)",   "2*({} + s1)",   "-{}*s1",      "-(({})**2 - 1)"}) {
    std::string text = "s0";
    bool limited = false;
    for (int n = 0; n < 300 && !limited; ++n) {
      std::string next(pattern);
      next.replace(next.find("{}"), 2, text);
      text = std::move(next);
      Result<SymExpr> r = ctx.parse(text);
      if (!r) {
        EXPECT_NE(r.error().message.find("too deeply"), std::string::npos) << r.error().message;
        limited = true;
        break;
      }
      std::string printed = ctx.print(*r);
      Result<SymExpr> again = ctx.parse(printed);
      ASSERT_TRUE(again.ok()) << pattern << " x" << n + 1 << ": " << again.error().message;
      EXPECT_EQ(*again, *r) << pattern << " x" << n + 1;
    }
  }
  // Long flat expressions are fine: only nesting is limited.
  std::string sum = "s0";
  for (int i = 1; i < 2000; ++i)
    sum += " + s" + std::to_string(i);
  SymExpr big = p(sum);
  EXPECT_EQ(p(ctx.print(big)), big);
}

//===----------------------------------------------------------------------===//
// Evaluation, symbols and signs
//===----------------------------------------------------------------------===//

TEST_F(SymExprTest, Evaluate) {
  std::unordered_map<std::string, int64_t> b{{"s0", 7}, {"s1", -3}, {"s27", 9}, {"s72", 40000}};
  EXPECT_EQ(eval("2*s0**2 + s0", b), 105);
  EXPECT_EQ(eval("(s27//2)", b), 4);
  EXPECT_EQ(eval("Max(1, (s27//2))", b), 4);
  EXPECT_EQ(eval("Min(16384, ((s72 + 1)//2))", b), 16384);
  EXPECT_EQ(eval("s0//s1", b), -3);
  EXPECT_EQ(eval("s0 % s1", b), -2);
  EXPECT_EQ(eval("s1 % s0", b), 4);
  EXPECT_EQ(eval("CeilDiv(s0, 2)", b), 4);
  EXPECT_EQ(eval("CeilDiv(s1, 2)", b), -1);
  EXPECT_EQ(eval("s0 < 8", b), 1);
  EXPECT_EQ(eval("s0 >= 8", b), 0);
  EXPECT_EQ(eval("s0 != s1", b), 1);
  EXPECT_EQ(eval("ModularIndexing(s72, 3, 7)", b), (40000 / 3) % 7);
  EXPECT_EQ(eval("PythonMod(s1, 2)", b), 1);
  EXPECT_EQ(eval("Eq(s0, 7)", b), 1);
  EXPECT_EQ(eval("s0**s0", b), 823543);
  // Undefined cases.
  EXPECT_EQ(eval("s0 + s9", b), std::nullopt);
  EXPECT_EQ(eval("s0//(s0 - 7)", b), std::nullopt);
  EXPECT_EQ(eval("Mod(s0, s0 - 7)", b), std::nullopt);
  EXPECT_EQ(eval("s0//0", b), std::nullopt);
  EXPECT_EQ(eval("s0/2", b), std::nullopt);
  EXPECT_EQ(eval("Unknown(s0)", b), std::nullopt);
  EXPECT_EQ(eval("s0**(-1)", b), std::nullopt);
  EXPECT_EQ(eval("s72**5", b), std::nullopt);
  EXPECT_EQ(eval("oo", b), std::nullopt);
}

TEST_F(SymExprTest, CollectSymbols) {
  std::vector<std::string> names;
  ctx.collectSymbols(p("Max(s27, s27*s3) + Min(16384, ((s72 + 1)//2)) + Foo(s3, True)"), names);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"s27", "s3", "s72"}));
  names.clear();
  ctx.collectSymbols(SymExpr::constant(5), names);
  EXPECT_TRUE(names.empty());
  ctx.collectSymbols(p("u0"), names);
  EXPECT_EQ(names, std::vector<std::string>{"u0"});
}

TEST_F(SymExprTest, UndeclaredSymbolsAreUnbounded) {
  // A dynamic int argument is named s<N> too, and may be 0, 1 or negative.
  EXPECT_EQ(ctx.lowerBound(p("s0")), std::nullopt);
  EXPECT_EQ(ctx.lowerBound(p("64*s0 - 64")), std::nullopt);
  EXPECT_EQ(ctx.lowerBound(p("Max(1, s0)")), 1);
  EXPECT_EQ(ctx.print(ctx.simplifyForSizes(p("Max(1, s0)"))), "Max(1, s0)");
  EXPECT_EQ(ctx.lowerBound(p("7")), 7);
  // The larger of two declarations holds.
  ctx.declareLowerBound("s0", 0);
  ctx.declareLowerBound("s0", 2);
  ctx.declareLowerBound("s0", 0);
  EXPECT_EQ(ctx.lowerBound(p("s0")), 2);
}

TEST_F(SymExprTest, LowerBounds) {
  test::declareInputSizes(ctx);
  ctx.declareLowerBound("s27", 2);
  EXPECT_EQ(ctx.lowerBound(p("s0")), 2);
  EXPECT_EQ(ctx.lowerBound(p("u0")), 0);
  EXPECT_EQ(ctx.lowerBound(p("x")), std::nullopt);
  EXPECT_EQ(ctx.lowerBound(p("s0 - 1")), 1);
  EXPECT_EQ(ctx.lowerBound(p("3*s0*s1 + 4")), 16);
  EXPECT_EQ(ctx.lowerBound(p("(s27//2)")), 1);
  EXPECT_EQ(ctx.lowerBound(p("CeilDiv(s0, 4)")), 1);
  EXPECT_EQ(ctx.lowerBound(p("Mod(s0, 3)")), 0); // Mod is not monotone: 0 at s0 = 3
  EXPECT_EQ(ctx.lowerBound(p("Max(u0, 5)")), 5);
  EXPECT_EQ(ctx.lowerBound(p("Min(u0, 5)")), 0);
  EXPECT_EQ(ctx.lowerBound(p("s0 - s1")), std::nullopt); // needs an upper bound of s1
  // A negative term is covered by a positive one it divides: 64*s0 - 64 = 64*(s0 - 1) >= 64.
  // That is what orders strides such as 64*s0 and 64.
  EXPECT_EQ(ctx.lowerBound(p("64*s0 - 64")), 64);
  EXPECT_EQ(ctx.lowerBound(p("s0*s1 - s0")), 2);
  EXPECT_EQ(ctx.lowerBound(p("2*s0 - 4")), 0);
  EXPECT_EQ(ctx.lowerBound(p("s0*s1 + s1 - s0")), 4);
  EXPECT_EQ(ctx.lowerBound(p("u0*s1 - u0")), 0);              // u0 may be 0
  EXPECT_EQ(ctx.lowerBound(p("s0*s1 - 3*s0")), std::nullopt); // 2*s0 - 3*s0 < 0
  EXPECT_EQ(ctx.lowerBound(p("s0 - 64")), -62);
  EXPECT_EQ(ctx.lowerBound(p("s1**2 - s0*s1")), std::nullopt); // s0 does not divide s1**2
  EXPECT_EQ(ctx.lowerBound(p("s0 - x")), std::nullopt);
  EXPECT_EQ(ctx.lowerBound(p("(s0//x)")), std::nullopt);
}

TEST_F(SymExprTest, SimplifyForSizes) {
  test::declareInputSizes(ctx);
  ctx.declareLowerBound("s27", 2);
  auto simplified = [&](std::string_view text) { return ctx.print(ctx.simplifyForSizes(p(text))); };
  EXPECT_EQ(simplified("Max(1, s0)"), "s0");
  EXPECT_EQ(simplified("Max(1, (s27//2))"), "(s27//2)");
  EXPECT_EQ(simplified("Max(1, s0 - 1)"), "s0 - 1");
  EXPECT_EQ(simplified("Max(2, s0)"), "s0");
  EXPECT_EQ(simplified("Max(1, s0)*Max(1, s1)"), "s0*s1");
  EXPECT_EQ(simplified("8*Max(1, s0) + 1"), "8*s0 + 1");
  EXPECT_EQ(simplified("((Max(1, s0) + 1)//2)"), "((s0 + 1)//2)");
  EXPECT_EQ(simplified("Min(1, s0)"), "1");
  // What the ranges do not settle stays.
  EXPECT_EQ(simplified("Max(1, u0)"), "Max(1, u0)");
  EXPECT_EQ(simplified("Max(3, s0)"), "Max(3, s0)");
  EXPECT_EQ(simplified("Max(1, Mod(s0, 3))"), "Max(1, Mod(s0, 3))");
  EXPECT_EQ(simplified("Max(1, x)"), "Max(1, x)");
  EXPECT_EQ(simplified("Max(s0, s1)"), "Max(s0, s1)");
  SymExpr unchanged = p("64*s16*s82");
  EXPECT_EQ(ctx.simplifyForSizes(unchanged), unchanged);
}

TEST_F(SymExprTest, CompareIsATotalOrder) {
  std::vector<SymExpr> exprs;
  for (std::string_view text :
       {"3", "-2", "s0", "s1", "s10", "2*s0", "s0**2", "s0*s1", "s0 + 1", "(s0//2)", "Max(1, s0)",
        "Mod(s0, 2)", "Foo(s0)", "s0 < 1", "s0/2", "-s0", "True"})
    exprs.push_back(p(text));
  for (SymExpr a : exprs) {
    EXPECT_EQ(ctx.compare(a, a), 0);
    for (SymExpr b : exprs) {
      if (a == b)
        continue;
      int ab = ctx.compare(a, b), ba = ctx.compare(b, a);
      EXPECT_NE(ab, 0) << ctx.print(a) << " vs " << ctx.print(b);
      EXPECT_EQ(ab<0, ba> 0) << ctx.print(a) << " vs " << ctx.print(b);
      for (SymExpr c : exprs) {
        if (ab < 0 && ctx.compare(b, c) < 0) {
          EXPECT_LT(ctx.compare(a, c), 0);
        }
      }
    }
  }
  EXPECT_LT(ctx.compare(SymExpr::constant(1000), p("s0")), 0);
  EXPECT_LT(ctx.compare(p("s0"), p("s1")), 0);
  EXPECT_LT(ctx.compare(p("s1"), p("Max(1, s0)")), 0);
}

//===----------------------------------------------------------------------===//
// Randomised: soundness of canonicalisation, print/parse round trip, garbage input
//===----------------------------------------------------------------------===//

/// A reference expression tree evaluated directly with Python semantics, to check that the
/// canonical form keeps the value.
struct Ref {
  enum Op { Const, Sym, Add, Sub, Mul, Neg, FloorDiv, Mod, CeilDiv, Max, Min, Pow, Lt, ModIdx };
  Op op;
  int64_t value = 0;
  std::string name;
  std::unique_ptr<Ref> a, b;

  std::optional<int64_t> eval(const std::unordered_map<std::string, int64_t>& env) const {
    if (op == Const)
      return value;
    if (op == Sym)
      return env.at(name);
    std::optional<int64_t> x = a->eval(env);
    if (!x)
      return std::nullopt;
    if (op == Neg)
      return *x == kMin ? std::nullopt : std::optional<int64_t>(-*x);
    if (op == Pow) { // b is a small non-negative constant
      int64_t r = 1;
      for (int64_t i = 0; i < b->value; ++i)
        if (__builtin_mul_overflow(r, *x, &r))
          return std::nullopt;
      return r;
    }
    std::optional<int64_t> y = b->eval(env);
    if (!y)
      return std::nullopt;
    int64_t r;
    switch (op) {
    case Add:
      return __builtin_add_overflow(*x, *y, &r) ? std::nullopt : std::optional<int64_t>(r);
    case Sub:
      return __builtin_sub_overflow(*x, *y, &r) ? std::nullopt : std::optional<int64_t>(r);
    case Mul:
      return __builtin_mul_overflow(*x, *y, &r) ? std::nullopt : std::optional<int64_t>(r);
    case FloorDiv:
    case ModIdx: {
      if (*y == 0 || (*x == kMin && *y == -1))
        return std::nullopt;
      int64_t q = *x / *y;
      if (*x % *y != 0 && ((*x < 0) != (*y < 0)))
        --q;
      if (op == FloorDiv)
        return q;
      int64_t m = ((q % 5) + 5) % 5; // ModularIndexing(x, y, 5)
      return m;
    }
    case CeilDiv: {
      if (*y == 0 || (*x == kMin && *y == -1))
        return std::nullopt;
      int64_t q = *x / *y;
      if (*x % *y != 0 && ((*x < 0) == (*y < 0)))
        ++q;
      return q;
    }
    case Mod: {
      if (*y == 0)
        return std::nullopt;
      if (*y == -1)
        return 0;
      int64_t m = *x % *y;
      if (m != 0 && ((m < 0) != (*y < 0)))
        m += *y;
      return m;
    }
    case Max:
      return std::max(*x, *y);
    case Min:
      return std::min(*x, *y);
    case Lt:
      return *x < *y;
    default:
      return std::nullopt;
    }
  }
};

struct Generated {
  SymExpr expr;
  std::unique_ptr<Ref> ref;
};

class Generator {
public:
  Generator(SymContext& ctx, uint32_t seed, bool extremeConstants)
      : ctx_(ctx), rng_(seed), extreme_(extremeConstants) {}

  Generated make(int depth) {
    int choice = depth <= 0 ? pick(0, 2) : pick(0, 16);
    auto ref = std::make_unique<Ref>();
    if (choice <= 1) {
      ref->op = Ref::Sym;
      ref->name = "s" + std::to_string(pick(0, 3));
      return {ctx_.symbol(ref->name), std::move(ref)};
    }
    if (choice == 2) {
      ref->op = Ref::Const;
      ref->value = constant();
      return {SymExpr::constant(ref->value), std::move(ref)};
    }
    Generated x = make(depth - 1);
    if (choice == 3) {
      ref->op = Ref::Neg;
      ref->a = std::move(x.ref);
      return {ctx_.neg(x.expr), std::move(ref)};
    }
    if (choice == 4) {
      int64_t n = pick(0, 3);
      ref->op = Ref::Pow;
      ref->a = std::move(x.ref);
      ref->b = std::make_unique<Ref>();
      ref->b->op = Ref::Const;
      ref->b->value = n;
      return {ctx_.pow(x.expr, SymExpr::constant(n)), std::move(ref)};
    }
    Generated y = make(depth - 1);
    ref->a = std::move(x.ref);
    ref->b = std::move(y.ref);
    SymExpr e;
    switch (choice) {
    case 5:
    case 6:
      ref->op = Ref::Add;
      e = ctx_.add(x.expr, y.expr);
      break;
    case 7:
      ref->op = Ref::Sub;
      e = ctx_.sub(x.expr, y.expr);
      break;
    case 8:
    case 9:
      ref->op = Ref::Mul;
      e = ctx_.mul(x.expr, y.expr);
      break;
    case 10:
      ref->op = Ref::FloorDiv;
      e = ctx_.floorDiv(x.expr, y.expr);
      break;
    case 11:
      ref->op = Ref::Mod;
      e = ctx_.mod(x.expr, y.expr);
      break;
    case 12:
      ref->op = Ref::CeilDiv;
      e = ctx_.ceilDiv(x.expr, y.expr);
      break;
    case 13:
      ref->op = Ref::Max;
      e = ctx_.max(x.expr, y.expr);
      break;
    case 14:
      ref->op = Ref::Min;
      e = ctx_.min(x.expr, y.expr);
      break;
    case 15:
      ref->op = Ref::Lt;
      e = parseText("(" + ctx_.print(x.expr) + ") < (" + ctx_.print(y.expr) + ")");
      break;
    default:
      ref->op = Ref::ModIdx;
      e = parseText("ModularIndexing(" + ctx_.print(x.expr) + ", " + ctx_.print(y.expr) + ", 5)");
      break;
    }
    return {e, std::move(ref)};
  }

  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }

private:
  int64_t constant() {
    if (extreme_ && pick(0, 5) == 0) {
      static constexpr int64_t kExtremes[] = {
          kMin, kMax, kMin + 1, kMax - 1, int64_t(1) << 62, -(int64_t(1) << 62), 3037000500};
      return kExtremes[pick(0, 6)];
    }
    return pick(-4, 6);
  }

  SymExpr parseText(const std::string& text) {
    Result<SymExpr> r = ctx_.parse(text);
    if (!r) {
      ADD_FAILURE() << "generated text failed to parse: " << text << ": " << r.error().message;
      return SymExpr();
    }
    return *r;
  }

  SymContext& ctx_;
  std::mt19937 rng_;
  bool extreme_;
};

TEST_F(SymExprTest, RandomExpressionsRoundTrip) {
  for (uint32_t seed = 0; seed < 3000; ++seed) {
    Generator gen(ctx, seed, /*extremeConstants=*/seed % 2 == 1);
    Generated g = gen.make(static_cast<int>(seed % 6));
    std::string printed = ctx.print(g.expr);
    Result<SymExpr> again = ctx.parse(printed);
    ASSERT_TRUE(again.ok()) << "seed " << seed << ": '" << printed << "': col "
                            << again.error().column << ": " << again.error().message;
    EXPECT_EQ(*again, g.expr) << "seed " << seed << ": " << printed << " reparsed as "
                              << ctx.print(*again);
    EXPECT_EQ(ctx.print(*again), printed);
  }
}

TEST_F(SymExprTest, CanonicalisationPreservesValues) {
  int compared = 0;
  for (uint32_t seed = 0; seed < 3000; ++seed) {
    Generator gen(ctx, seed + 100000, /*extremeConstants=*/false);
    Generated g = gen.make(static_cast<int>(seed % 5) + 1);
    for (int trial = 0; trial < 4; ++trial) {
      std::unordered_map<std::string, int64_t> env;
      for (int i = 0; i < 4; ++i)
        env["s" + std::to_string(i)] = gen.pick(-6, 9);
      std::optional<int64_t> expected = g.ref->eval(env);
      std::optional<int64_t> actual = ctx.evaluate(g.expr, env);
      if (!expected || !actual)
        continue; // Canonical forms may remove (or, via expansion, add) undefined points.
      ++compared;
      ASSERT_EQ(*actual, *expected)
          << "seed " << seed << ": " << ctx.print(g.expr) << " with s0=" << env["s0"]
          << " s1=" << env["s1"] << " s2=" << env["s2"] << " s3=" << env["s3"];
    }
  }
  EXPECT_GT(compared, 6000);
}

TEST_F(SymExprTest, GarbageNeverCrashes) {
  static constexpr std::string_view kAlphabet = "s0u1 27()+-*/%<>=!,.Max(Min(FloorDiv(Mod(9_x\t";
  std::mt19937 rng(12345);
  auto start = std::chrono::steady_clock::now();
  int parsed = 0;
  auto check = [&](const std::string& text) {
    Result<SymExpr> r = ctx.parse(text);
    if (!r) {
      EXPECT_GE(r.error().column, 1u) << text;
      EXPECT_LE(r.error().column, text.size() + 1) << text;
      EXPECT_EQ(r.error().line, 0u);
      return;
    }
    ++parsed;
    std::string printed = ctx.print(*r);
    Result<SymExpr> again = ctx.parse(printed);
    ASSERT_TRUE(again.ok()) << "'" << text << "' printed as '" << printed << "'";
    EXPECT_EQ(*again, *r) << "'" << text << "' printed as '" << printed << "'";
  };
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    size_t len = std::uniform_int_distribution<size_t>(0, 40)(rng);
    for (size_t j = 0; j < len; ++j) {
      if (rng() % 16 == 0)
        text += static_cast<char>(rng() % 256); // arbitrary bytes, including NUL
      else
        text += kAlphabet[rng() % kAlphabet.size()];
    }
    check(text);
  }
  // Mutations of valid expressions are more likely to reach deep into the parser.
  const std::string seeds[] = {"Min(16384, ((s72 + 1)//2))",
                               "Max(1, (s27//2))",
                               "2*s0**2 + s0 - 9223372036854775807",
                               "CeilDiv(s0, 2) % 3",
                               "Piecewise((1, Eq(s0, 1)), (s0, True))",
                               "(s0 + s1)**4 // -3"};
  for (int i = 0; i < 20000; ++i) {
    std::string text = seeds[rng() % std::size(seeds)];
    for (int m = 0, n = 1 + rng() % 4; m < n && !text.empty(); ++m) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
      case 0:
        text.erase(at, 1);
        break;
      case 1:
        text.insert(at, 1, kAlphabet[rng() % kAlphabet.size()]);
        break;
      default:
        text[at] = kAlphabet[rng() % kAlphabet.size()];
        break;
      }
    }
    check(text);
  }
  EXPECT_GT(parsed, 1000);
  // Generous bound: the point is that no input makes the parser hang or blow up.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
}

} // namespace
} // namespace declone
