// End-to-end and floor benchmarks: a memchr scan of the text (the floor), the names of the text
// resolved and nothing else (a reader's floor), alias analysis alone, and read + safe clone
// elimination + write of an in-memory text, at 1k to 1M nodes.
#include "BenchSupport.h"
#include "GraphGenerator.h"
#include "declone/analysis/AliasAnalysis.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/support/OpenTable.h"
#include "declone/transforms/CloneElimination.h"
#include "io/FastHash.h"
#include "io/Lexer.h"

#include <benchmark/benchmark.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <malloc.h>
#include <memory>
#include <string>
#include <vector>

namespace {

using declone::bench::LazyGraphText;
using declone::bench::prepare;
using declone::bench::reportThroughput;

/// Bytes the allocator has handed out and not had back (arena chunks and mmapped blocks).
size_t allocatedBytes() {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

void reportBytesPerNode(benchmark::State& state, const LazyGraphText& input, size_t bytes) {
  state.counters["bytes/node"] =
      static_cast<double>(bytes) / static_cast<double>(input.graphNodes());
}

/// The floor every reader is measured against: count the lines with memchr, as `wc -l` does.
void benchScan(benchmark::State& state, LazyGraphText& input) {
  if (!prepare(state, input))
    return;
  const std::string& text = input.text();
  for (auto _ : state) {
    size_t lines = 0;
    const char* at = text.data();
    const char* end = at + text.size();
    while (const void* found = std::memchr(at, '\n', static_cast<size_t>(end - at))) {
      ++lines;
      at = static_cast<const char*>(found) + 1;
    }
    benchmark::DoNotOptimize(lines);
  }
  reportThroughput(state, input);
}

/// The name floor's slots: a name's hash with its low bit set, so that 0 is an empty slot.
struct HashTraits {
  using Slot = uint64_t;
  bool isEmpty(Slot slot) const { return slot == 0; }
  uint64_t hash(Slot slot) const { return slot; }
  bool matches(Slot slot, uint64_t key, uint64_t) const { return slot == key; }
};

/// The least a reader that resolves names must do, as a second floor: every name outside quoted
/// text (a dotted name such as `torch.ops.aten.add.Tensor` counts as one), told apart by the
/// reader's character classes, is hashed with the reader's hash; a statement's first name is
/// entered in an open-addressed table of 8-byte slots (prefetched when met and entered at the end
/// of its line, as the reader does) and every other name is looked up. No node, argument,
/// annotation or value is made. It is a plain scalar sketch, not the fastest conceivable one: what
/// it shows is how much of a reader's time is the bytes and the names alone.
void benchNameFloor(benchmark::State& state, LazyGraphText& input) {
  if (!prepare(state, input))
    return;
  const std::string& text = input.text();
  declone::OpenTable<HashTraits> table;
  for (auto _ : state) {
    state.PauseTiming();
    table.reset(input.graphNodes());
    state.ResumeTiming();
    size_t found = 0;
    const char* at = text.data();
    const char* const end = at + text.size();
    while (at < end) {
      const char* lineEnd = static_cast<const char*>(std::memchr(at, '\n', size_t(end - at)));
      if (!lineEnd)
        lineEnd = end;
      uint64_t defined = 0;
      bool first = true;
      while (at < lineEnd) {
        auto c = static_cast<unsigned char>(*at);
        if (c == '"' || c == '\'') {
          const void* close = std::memchr(at + 1, c, size_t(lineEnd - at - 1));
          at = close ? static_cast<const char*>(close) + 1 : lineEnd;
          continue;
        }
        if (!declone::io::isNameStart(static_cast<char>(c))) {
          ++at;
          continue;
        }
        const char* start = at;
        do {
          ++at;
          while (at < lineEnd && declone::io::isNameChar(*at))
            ++at;
        } while (at + 1 < lineEnd && *at == '.' && declone::io::isNameStart(at[1]));
        uint64_t hash = declone::io::fastHash({start, size_t(at - start)}) | 1;
        if (first) {
          defined = hash;
          table.prefetch(hash);
          first = false;
        } else {
          found += table.find(hash, hash) != nullptr;
        }
      }
      if (defined)
        table.insertOrFind(defined, defined, [&] { return defined; });
      at = lineEnd + 1;
    }
    benchmark::DoNotOptimize(found);
  }
  reportThroughput(state, input);
}

/// Effects and alias analysis on a parsed graph; bytes/node is what the two analyses hold.
void benchAliasAnalysis(benchmark::State& state, LazyGraphText& input) {
  std::unique_ptr<declone::GraphFile> file = declone::bench::prepareParsed(state, input);
  if (!file)
    return;
  const declone::Graph& graph = file->modules.front()->graph;
  const declone::SchemaRegistry& schemas = declone::SchemaRegistry::builtin();
  std::vector<bool> donated;
  size_t bytes = 0;
  for (auto _ : state) {
    {
      size_t before = allocatedBytes();
      declone::EffectAnalysis effects(graph, schemas);
      declone::AliasAnalysis alias(graph, effects, donated);
      bytes = allocatedBytes() - before;
      benchmark::DoNotOptimize(alias.numStorages());
      state.PauseTiming(); // freeing the analyses is not analysing
    }
    state.ResumeTiming();
  }
  reportThroughput(state, input);
  reportBytesPerNode(state, input, bytes);
}

/// The text as PyTorch printed it before 2.2: every annotation without its strides and storage
/// offset (`"f32[4, 5][5, 1]cpu@2"` becomes `"f32[4, 5]cpu"`).
std::string stripStrides(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"')
      quoted = !quoted;
    if (quoted && c == ']' && i + 1 < text.size() && text[i + 1] == '[') {
      out += c;
      i = text.find(']', i + 1); // the stride list's end (no brackets inside it)
      continue;
    }
    if (quoted && c == '@') {
      i = text.find('"', i) - 1; // the offset, up to the closing quote
      continue;
    }
    out += c;
  }
  return out;
}

/// What `declone opt FILE -o OUT` does after reading `text`: parse (taking over the text), run
/// the pass without remarks, stream the result out in chunks (to /dev/null). bytes/node is what
/// the graph holds once read: its arenas (mapped directly, so mallinfo does not see them) and
/// what the reader left on the heap; not the text it took over.
void runOptEndToEnd(benchmark::State& state, LazyGraphText& input, const std::string& source,
                    bool assumeDenseInputs) {
  declone::CloneEliminationOptions options;
  options.collectRemarks = false; // as opt without --remarks
  options.layout.assumeDenseInputs = assumeDenseInputs;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::fopen("/dev/null", "wb"), std::fclose);
  if (!sink) {
    state.SkipWithError("cannot open /dev/null");
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    state.PauseTiming(); // the file's bytes arrive in a buffer the graph takes over
    std::string text = source;
    size_t before = allocatedBytes();
    state.ResumeTiming();
    auto file = declone::readOwnedGraphFile(std::move(text));
    if (!file.ok()) {
      state.SkipWithError(file.error().format("<generated>").c_str());
      return;
    }
    bytes = allocatedBytes() - before + (*file)->context->arenaBytes();
    for (auto& module : (*file)->modules) {
      declone::CloneEliminationResult result = declone::eliminateClones(*module, options);
      benchmark::DoNotOptimize(result);
    }
    if (!declone::writeGraphFile(**file, sink.get())) {
      state.SkipWithError("writing failed");
      return;
    }
    state.PauseTiming();
    file->reset();
    state.ResumeTiming();
  }
  reportThroughput(state, input);
  reportBytesPerNode(state, input, bytes);
}

void benchOptEndToEnd(benchmark::State& state, LazyGraphText& input) {
  if (prepare(state, input))
    runOptEndToEnd(state, input, input.text(), false);
}

/// The same graph printed without strides, read with --assume-dense-inputs: what layout
/// inference costs (issue 19's target: within 2x of the annotated text).
void benchOptInferred(benchmark::State& state, LazyGraphText& input) {
  if (prepare(state, input))
    runOptEndToEnd(state, input, stripStrides(input.text()), true);
}

[[maybe_unused]] const bool kRegistered = declone::bench::registerForEachSize({
    {"BM_Scan", benchScan},
    {"BM_NameFloor", benchNameFloor},
    {"BM_AliasAnalysis", benchAliasAnalysis},
    {"BM_OptEndToEnd", benchOptEndToEnd},
    {"BM_OptEndToEndInferred", benchOptInferred},
});

} // namespace
