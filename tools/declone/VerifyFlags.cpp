// The declaration of `declone verify`'s arguments.
#include "VerifyFlags.h"

#include "Input.h"

namespace declone::cli {

ArgumentParser VerifyFlags::parser() {
  ArgumentParser parser("verify",
                        "Run BEFORE and AFTER with libtorch on the same random inputs (honouring\n"
                        "sizes, strides, offsets, symbols and dtypes; CUDA maps to CPU) and\n"
                        "compare outputs, final input contents and aliasing. Values from\n"
                        "uninitialized memory (empty, resize_) are compared by metadata only,\n"
                        "with a note. Exit 0 when equivalent, 1 at the first difference, 2 when\n"
                        "a graph cannot run.");
  parser.positional("BEFORE AFTER", "the two graph files", &files, 2, 2);
  parser.option("--donated", "LIST",
                "donated placeholders (index or name): their final contents are not compared",
                &donated);
  parser.option("--seed", "N", "seed of the random inputs (default 1)", &seed);
  parser.option("--trials", "N", "runs with new inputs and symbol values (default 1)", &trials);
  parser.option("--int-range", "LO:HI",
                "integer inputs are drawn from [LO, HI) (default: [0, 16), and below the\n"
                "                          extent they index where they feed an index argument)",
                &intRange);
  parser.option("--memory-limit", "SIZE",
                "refuse graphs whose run needs more than SIZE bytes, estimated (K, M, G, T;\n"
                "                          0: no limit; default: half the memory of the\n          "
                "                machine or its container (cgroup), whichever is less)",
                &memoryLimit);
  parser.flag("--full-size", "run at the printed sizes, however large (see --memory-limit)",
              &fullSize);
  parser.option("--budget", "SIZE",
                "shrink the sizes until a run needs about SIZE bytes or less (default 512M;\n"
                "                          the verdict names the sizes it ran with)",
                &budget);
  parser.option("--time-budget", "SECONDS",
                "... and about SECONDS of arithmetic or less (default 5)", &timeBudget);
  parser.option("--shrink-floor", "N",
                "no size shrinks below N, and only sizes above N shrink (default 16)",
                &shrinkFloor);
  parser.repeated("--schemas", "FILE", "more op schemas, one per line (may be repeated)",
                  &schemaFiles);
  addInputSizeFlag(parser, &maxInputSize);
  parser.flag("-q|--quiet", "no progress on standard error", &quiet);
  return parser;
}

} // namespace declone::cli
