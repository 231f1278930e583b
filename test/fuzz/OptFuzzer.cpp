// libFuzzer target: clone elimination, in both modes, never crashes on anything the reader
// accepts, and what it writes reads back and prints the same.
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/transforms/CloneElimination.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (declone::CloneEliminationMode mode :
       {declone::CloneEliminationMode::Safe, declone::CloneEliminationMode::Vllm}) {
    auto file = declone::readGraphFile(text);
    if (!file.ok())
      return 0;
    declone::CloneEliminationOptions options;
    options.mode = mode;
    // Donate every other placeholder, so that both sides of the donation rules run.
    for (size_t i = 0; i < 64; ++i)
      options.donated.push_back(i % 2 == 0);
    for (auto& module : (*file)->modules) {
      auto result = declone::eliminateClones(*module, options);
      if (result.remarks.size() != result.stats.clones)
        std::abort();
    }
    std::string printed = declone::writeGraphFile(**file);
    auto reread = declone::readGraphFile(printed);
    if (!reread.ok()) {
      std::fprintf(stderr, "optimized text does not re-parse: %s\n---\n%s\n",
                   reread.error().format("<optimized>").c_str(), printed.c_str());
      std::abort();
    }
    if (declone::writeGraphFile(**reread) != printed)
      std::abort();
  }
  return 0;
}
