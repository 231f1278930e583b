// libFuzzer target: the reader never crashes, and whatever it accepts round-trips.
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto file = declone::readGraphFile(text);
  if (!file.ok()) {
    // Errors must carry a position inside the text.
    if (file.error().line == 0)
      std::abort();
    return 0;
  }
  // Accepted text: printing is a fixpoint after one round.
  std::string printed = declone::writeGraphFile(**file);
  auto reread = declone::readGraphFile(printed);
  if (!reread.ok()) {
    std::fprintf(stderr, "printed text does not re-parse: %s\n---\n%s\n",
                 reread.error().format("<printed>").c_str(), printed.c_str());
    std::abort();
  }
  if (declone::writeGraphFile(**reread) != printed) {
    std::fprintf(stderr, "print is not a fixpoint\n");
    std::abort();
  }
  return 0;
}
