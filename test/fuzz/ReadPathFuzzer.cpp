// libFuzzer target: the reader's fast path and its general path read every input the same way.
#include "../support/ReadPathOracle.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string difference = declone::test::compareReadPaths(text);
  if (!difference.empty()) {
    std::fprintf(stderr, "the fast and the general reader paths disagree: %s\n",
                 difference.c_str());
    std::abort();
  }
  return 0;
}
