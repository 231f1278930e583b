// Writer: canonical spelling of synthesized values, free lists, formats of signatures/returns.
#include "TestSupport.h"

#include <cerrno>
#include <cstdio>
#include <string>
#include <sys/types.h>

namespace declone::test {
namespace {

std::string floatText(double value) {
  Context context;
  Arg arg;
  arg.kind = ArgKind::Float;
  arg.real = value;
  std::string out;
  writeArg(context, arg, out);
  return out;
}

// A reader fuzzer's find: with LF breaks (the first line's), a blank line of a lone `\r` before a
// CRLF break was written back as `\r\n`, which reads as a CRLF break: print was no fixpoint.
TEST(Writer, LineBreaksAreAFixpoint) {
  for (std::string_view text : {"\n\r\r\ndef forward(self, x):\n    return (x,)\n",
                                "# a\r\n\r\r\r\ndef forward(self, x):\r\n    return (x,)\r\n",
                                "# a\r\r\n# b\n\r\ndef forward(self, x):\n    return (x,)\n"}) {
    auto first = readGraphFile(text);
    ASSERT_TRUE(first.ok()) << first.error().format("<text>");
    std::string printed = writeGraphFile(**first);
    auto second = readGraphFile(printed);
    ASSERT_TRUE(second.ok()) << second.error().format("<printed>");
    EXPECT_EQ(writeGraphFile(**second), printed) << printed;
  }
}

TEST(Writer, FloatsAsPythonRepr) {
  EXPECT_EQ(floatText(0.0), "0.0");
  EXPECT_EQ(floatText(-0.0), "-0.0");
  EXPECT_EQ(floatText(1.0), "1.0");
  EXPECT_EQ(floatText(1e-06), "1e-06");
  EXPECT_EQ(floatText(0.0001), "0.0001");
  EXPECT_EQ(floatText(0.125), "0.125");
  EXPECT_EQ(floatText(1e16), "1e+16");
  EXPECT_EQ(floatText(123456789012345.0), "123456789012345.0");
  EXPECT_EQ(floatText(0.1), "0.1");
  EXPECT_EQ(floatText(-2.5e-10), "-2.5e-10");
  EXPECT_EQ(floatText(1.0 / 0.0), "inf");
  EXPECT_EQ(floatText(-1.0 / 0.0), "-inf");
}

TEST(Writer, SynthesizedAnnotationsAreCanonical) {
  Context context;
  auto parsed = parseTypeAnnotation(context, "f32[s0, 4][8, 1]cuda:0@(2*s0)");
  ASSERT_TRUE(parsed.ok());
  TypeAnnotation type = *parsed;
  type.spelling = {};
  std::string out;
  writeTypeAnnotation(context, type, out);
  EXPECT_EQ(out, "f32[s0, 4][8, 1]cuda:0@(2*s0)");

  auto zeroOffset = parseTypeAnnotation(context, "f32[3][1]cpu@0");
  ASSERT_TRUE(zeroOffset.ok());
  type = *zeroOffset;
  type.spelling = {};
  out.clear();
  writeTypeAnnotation(context, type, out);
  EXPECT_EQ(out, "f32[3][1]cpu") << "a zero offset is not printed";
}

TEST(Writer, FreeListsFollowPyTorch) {
  // Last uses in order of first appearance (args then kwargs); unused nodes free themselves;
  // placeholders and the return line free nothing. The input's lists are wrong or missing.
  auto file = parseOrFail(R"FX(def forward(self, a: "f32[4]", b: "f32[4]"):
    add: "f32[4]" = torch.ops.aten.add.Tensor(b, a, alpha = 2);  a = None
    dead: "f32[4]" = torch.ops.aten.relu.default(add);  dead = None
    mul: "f32[4]" = torch.ops.aten.mul.Tensor(add, add, out = b);  b = add = None
    return (mul, a)
)FX");
  ASSERT_TRUE(file);
  EXPECT_EQ(writeGraphFile(*file), R"FX(def forward(self, a: "f32[4]", b: "f32[4]"):
    add: "f32[4]" = torch.ops.aten.add.Tensor(b, a, alpha = 2)
    dead: "f32[4]" = torch.ops.aten.relu.default(add);  dead = None
    mul: "f32[4]" = torch.ops.aten.mul.Tensor(add, add, out = b);  add = b = None
    return (mul, a)
)FX");
}

TEST(Writer, OldPyTorchDumpsKeepTheirFreeConvention) {
  // Before PyTorch 2.3 unused nodes did not free themselves; such dumps print back unchanged.
  constexpr std::string_view old = R"FX(def forward(self, a: "f32[4]"):
    copy_: "f32[4]" = torch.ops.aten.copy_.default(a, a);  a = None
    return ()
)FX";
  auto file = parseOrFail(old);
  ASSERT_TRUE(file);
  EXPECT_FALSE(firstGraph(*file).format().freeUnusedNodes);
  EXPECT_EQ(writeGraphFile(*file), old);
}

TEST(Writer, ExpandedSignatureAndReturnKeepTheirComments) {
  constexpr std::string_view expanded = R"FX(class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "Sym(s47)",  # PlainAOTInput(idx=0)
        primals_3: "f32[s47][1]cpu",  # PlainAOTInput(idx=2)
    ):
        sin: "f32[s47][1]cpu" = torch.ops.aten.sin.default(primals_3);  primals_3 = None
        return (
            sin,  # PlainAOTOutput(idx=0)
            primals_1,  # PlainAOTOutput(idx=1)
        )
)FX";
  auto file = parseOrFail(expanded);
  ASSERT_TRUE(file);
  EXPECT_TRUE(firstGraph(*file).format().multiLineSignature);
  EXPECT_TRUE(firstGraph(*file).format().multiLineReturn);
  EXPECT_EQ(writeGraphFile(*file), expanded);
}

TEST(Writer, NonCanonicalSpacingBecomesCanonicalThenStable) {
  auto file = parseOrFail("def forward(self, x: \"f32[4]\"):\n"
                          "    y = torch.ops.aten.add.Tensor( x,x , alpha=2 )\n"
                          "    z = y*2\n"
                          "    return (z ,)\n");
  ASSERT_TRUE(file);
  std::string printed = writeGraphFile(*file);
  EXPECT_EQ(printed, "def forward(self, x: \"f32[4]\"):\n"
                     "    y = torch.ops.aten.add.Tensor(x, x, alpha = 2);  x = None\n"
                     "    z = y * 2;  y = None\n"
                     "    return (z,)\n");
  auto again = parseOrFail(printed);
  ASSERT_TRUE(again);
  EXPECT_EQ(writeGraphFile(*again), printed);
}

TEST(Writer, MissingFinalNewlineIsKept) {
  std::string text = "def forward(self, x):\n    return (x,)\n    ";
  auto file = parseOrFail(text);
  ASSERT_TRUE(file);
  EXPECT_EQ(writeGraphFile(*file), text);
}

TEST(Writer, FreeListsAroundGetAttrsAndNestedArguments) {
  // A get_attr prints no free list of its own; values inside lists are freed in order of first
  // appearance, each once.
  constexpr std::string_view text = R"FX(def forward(self, a: "f32[4]", b: "f32[4]"):
    relu: "f32[4]" = torch.ops.aten.relu.default(a)
    _tensor_constant0 = self._tensor_constant0
    cat: "f32[12]" = torch.ops.aten.cat.default([b, relu, b], dim = 0);  b = relu = None
    _tensor_constant1 = self._tensor_constant1;  _tensor_constant1 = None
    add: "f32[4]" = torch.ops.aten.add.Tensor(a, _tensor_constant0);  a = _tensor_constant0 = None
    return (cat, add)
)FX";
  auto file = parseOrFail(text);
  ASSERT_TRUE(file);
  EXPECT_EQ(writeGraphFile(*file), text);
}

/// A chain of `count` statements, long enough to print in several chunks.
std::string longChain(size_t count) {
  std::string text = "def forward(self, x: \"f32[4, 8][8, 1]cpu\"):\n";
  std::string previous = "x";
  for (size_t i = 0; i < count; ++i) {
    std::string name = "relu_" + std::to_string(i);
    text += "    " + name + ": \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.relu.default(" + previous +
            ");  " + previous + " = None\n";
    previous = name;
  }
  text += "    return (" + previous + ",)\n";
  return text;
}

std::string writeThroughFile(const GraphFile& file) {
  std::FILE* stream = std::tmpfile();
  EXPECT_NE(stream, nullptr);
  if (!stream)
    return {};
  EXPECT_TRUE(writeGraphFile(file, stream));
  std::rewind(stream);
  std::string text;
  char buffer[1 << 16];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, stream))
    text.append(buffer, n);
  std::fclose(stream);
  return text;
}

TEST(Writer, StreamedTextEqualsTheString) {
  // 40k statements print about 3.6 MB: several chunks of the streaming writer.
  std::string text = longChain(40000);
  auto file = parseOrFail(text);
  ASSERT_TRUE(file);
  EXPECT_EQ(writeGraphFile(*file), text);
  EXPECT_EQ(writeThroughFile(*file), text);

  text.pop_back();
  auto unterminated = parseOrFail(text);
  ASSERT_TRUE(unterminated);
  EXPECT_EQ(writeGraphFile(*unterminated), text);
  EXPECT_EQ(writeThroughFile(*unterminated), text);
}

/// A stream whose first `failures` writes fail and whose later ones succeed (and are dropped).
std::FILE* streamFailingFirstWrites(int& failures) {
  cookie_io_functions_t functions{};
  functions.write = [](void* cookie, const char*, size_t size) -> ssize_t {
    int& left = *static_cast<int*>(cookie);
    if (left > 0) {
      --left;
      errno = EIO;
      return -1;
    }
    return static_cast<ssize_t>(size);
  };
  std::FILE* stream = ::fopencookie(&failures, "wb", functions);
  if (stream)
    std::setvbuf(stream, nullptr, _IONBF, 0); // so each fwrite meets the cookie
  return stream;
}

TEST(Writer, StreamedWriteFailuresAreReported) {
  // Only the first write fails: with 40k statements that is a chunk written on the sink's
  // thread, with 3 the one chunk, written on the caller's. Either must come back as false, though
  // glibc's cookie streams report the failure only in their error flag.
  for (size_t statements : {size_t(3), size_t(40000)}) {
    auto file = parseOrFail(longChain(statements));
    ASSERT_TRUE(file);
    int failures = 1;
    std::FILE* stream = streamFailingFirstWrites(failures);
    ASSERT_NE(stream, nullptr);
    EXPECT_FALSE(writeGraphFile(*file, stream)) << statements;
    EXPECT_EQ(failures, 0) << statements;
    std::fclose(stream);
  }
}

TEST(Writer, AppendsToWhatTheStringHolds) {
  std::string text = longChain(3);
  auto file = parseOrFail(text);
  ASSERT_TRUE(file);
  std::string out = "# before\n";
  writeGraphFile(*file, out);
  EXPECT_EQ(out, "# before\n" + text);

  Context context;
  Arg arg;
  arg.kind = ArgKind::Int;
  arg.integer = -42;
  out = "x = ";
  writeArg(context, arg, out);
  EXPECT_EQ(out, "x = -42");
}

} // namespace
} // namespace declone::test
