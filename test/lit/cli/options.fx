# Option spellings users bring from other tools: -oFILE, --output FILE, --output=FILE, -j2, -j=2;
# `declone help CMD`; --version; suggestions for misspelled commands and options, and for an
# optional value given apart (`--remarks json`, which would be read as the input file).
# RUN: %declone --version | %FileCheck %s --check-prefix=VERSION
# VERSION: declone {{[0-9]+\.[0-9]+\.[0-9]+$}}
# RUN: %declone help opt | %FileCheck %s --check-prefix=HELP
# HELP: usage: declone opt FILE|- [options]
# HELP: -o, --output OUT
# HELP: -h, --help
# RUN: %expect-exit 2 %declone help optt 2>&1 | %FileCheck %s --check-prefix=HELPTYPO
# HELPTYPO: declone: error: unknown command 'optt'; did you mean 'opt'?
# RUN: %expect-exit 2 %declone anlyze %s 2>&1 | %FileCheck %s --check-prefix=TYPO
# TYPO: declone: error: unknown command 'anlyze'; did you mean 'analyze'?
# RUN: %expect-exit 2 %declone opt --remark %s 2>&1 | %FileCheck %s --check-prefix=OPTTYPO
# OPTTYPO: declone opt: error: unknown option '--remark'; did you mean '--remarks'?
# RUN: %expect-exit 2 %declone opt --remarks json %s 2>&1 | %FileCheck %s --check-prefix=APART
# APART: declone opt: error: '--remarks' takes its value attached; did you mean '--remarks=json'?
# RUN: %expect-exit 2 %declone opt --stats=yes %s 2>&1 | %FileCheck %s --check-prefix=FLAGVALUE
# FLAGVALUE: declone opt: error: option '--stats' takes no value
# RUN: %expect-exit 2 %declone opt %s -o --stats 2>&1 | %FileCheck %s --check-prefix=OPTIONVALUE
# OPTIONVALUE: declone opt: error: option '--output' needs a value, not the option '--stats' (write '--output=--stats' if that is the value)
# RUN: %expect-exit 2 %declone opt %s -x 2>&1 | %FileCheck %s --check-prefix=SHORT
# SHORT: declone opt: error: unknown option '-x' (see 'declone help opt')
# RUN: rm -f %t.*.out
# RUN: %declone opt %s -o%t.short.out
# RUN: %declone opt %s --output %t.long.out
# RUN: %declone opt %s --output=%t.eq.out
# RUN: %declone opt %s > %t.stdout.out
# RUN: cmp %t.short.out %t.stdout.out
# RUN: cmp %t.long.out %t.stdout.out
# RUN: cmp %t.eq.out %t.stdout.out
# RUN: %declone report -q -j2 %s > %t.j2
# RUN: %declone report -q -j=2 %s > %t.jeq
# RUN: %declone report -q --jobs=2 %s > %t.jobs
# RUN: cmp %t.j2 %t.jeq
# RUN: cmp %t.j2 %t.jobs
# RUN: %expect-exit 2 %declone report -j0 %s 2>&1 | %FileCheck %s --check-prefix=JOBS
# JOBS: declone report: error: --jobs takes a number of at least 1, not '0'
def forward(self, x: "f32[4][1]cpu"):
    clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(x);  x = None
    return (clone,)
