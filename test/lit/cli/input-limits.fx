# Inputs larger than the input size limit are refused before they are read (exit 2, naming the
# file, its size and the limit), and running out of memory is a located error, never an abort
# (issue 29). `ulimit -v` comes first with `&&`: where it cannot be set, nothing runs, so a test
# never reads the 20 GiB file into memory.
# RUN: rm -rf %t && mkdir -p %t/dumps && cp %s %t/dumps/small.fx
# RUN: truncate -s 20G %t/huge.fx
#
# The default limit (1/16 of the memory the process may use, here 2 GB of address space):
# RUN: %expect-exit 2 sh -c 'ulimit -v 2000000 && exec %declone opt %t/huge.fx' 2>&1 | %FileCheck %s --check-prefix=HUGE
# HUGE: huge.fx: error: the file is 20.0 GiB (21474836480 bytes), more than the input size limit of {{.*}}; the default, 1/16 of the memory declone may use; --max-input-size SIZE or DECLONE_MAX_INPUT_SIZE=SIZE changes it (0: no limit)
#
# report: the file is an error row; the other files and the table are still there.
# RUN: %expect-exit 2 sh -c 'ulimit -v 2000000 && exec %declone report -q %t/dumps %t/huge.fx' | %FileCheck %s --check-prefix=REPORT
# REPORT: small.fx 1
# REPORT: huge.fx - {{.*}}huge.fx: error: the file is 20.0 GiB (21474836480 bytes), more than the input size limit
# REPORT: total 1
# REPORT: 2 files; 1 could not be read
#
# No limit (0): reading 20 GiB fails to allocate, and that is an error row too.
# RUN: %expect-exit 2 sh -c 'ulimit -v 2000000 && exec %declone report -q -j1 --max-input-size 0 %t/dumps %t/huge.fx' | %FileCheck %s --check-prefix=NOMEMORY
# NOMEMORY: small.fx 1
# NOMEMORY: huge.fx - {{.*}}huge.fx: error: out of memory
# NOMEMORY: 2 files; 1 could not be read
# RUN: %expect-exit 2 sh -c 'ulimit -v 2000000 && exec %declone opt --max-input-size 0 %t/huge.fx' 2>&1 | %FileCheck %s --check-prefix=OPTNOMEMORY
# OPTNOMEMORY: huge.fx: error: out of memory
#
# A real graph that outgrows a small address space half-way through parsing or optimizing
# (300,000 clones, 22 MB of text, which opt needs about 80 MB for, in 60 MB of address space):
# RUN: awk 'BEGIN { print "def forward(self, x: \"f32[4, 8][8, 1]cpu\"):"; p = "x"; for (i = 0; i < 300000; i++) { printf "    c%%d: \"f32[4, 8][8, 1]cpu\" = torch.ops.aten.clone.default(%%s)\n", i, p; p = "c" i }; print "    return (" p ",)" }' > %t/large.fx
# RUN: %declone print --max-input-size 25M %t/large.fx > %t/large.print
# RUN: %FileCheck %s --check-prefix=LARGE < %t/large.print
# LARGE: c0: "f32[4, 8][8, 1]cpu" = torch.ops.aten.clone.default(x)
# RUN: %expect-exit 2 sh -c 'ulimit -v 60000 && exec %declone opt --max-input-size 0 %t/large.fx -o %t/large.out' 2>&1 | %FileCheck %s --check-prefix=LARGEOOM
# RUN: %expect-exit 2 sh -c 'ulimit -v 60000 && exec %declone analyze --max-input-size 0 %t/large.fx' 2>&1 >/dev/null | %FileCheck %s --check-prefix=LARGEOOM
# LARGEOOM: large.fx: error: out of memory
# RUN: test ! -e %t/large.out
# RUN: %expect-exit 2 sh -c 'ulimit -v 60000 && exec %declone report -q -j1 --max-input-size 0 %t/large.fx %t/dumps' | %FileCheck %s --check-prefix=LARGEREPORT
# LARGEREPORT: large.fx - {{.*}}large.fx: error: out of memory
# LARGEREPORT: small.fx 1
#
# Every command that reads graphs takes --max-input-size; DECLONE_MAX_INPUT_SIZE sets it too, and
# the option wins.
# RUN: %expect-exit 2 %declone print --max-input-size 1K %s 2>&1 | %FileCheck %s --check-prefix=FLAG
# RUN: %expect-exit 2 %declone analyze --max-input-size=1K %s 2>&1 | %FileCheck %s --check-prefix=FLAG
# RUN: %expect-exit 2 %declone verify --max-input-size 1K %s %s 2>&1 | %FileCheck %s --check-prefix=FLAG
# FLAG: input-limits.fx: error: the file is {{[0-9.]+}} KiB ({{[0-9]+}} bytes), more than the input size limit of 1.0 KiB (1024 bytes); set by --max-input-size
# RUN: %expect-exit 2 env DECLONE_MAX_INPUT_SIZE=1k %declone opt %s 2>&1 | %FileCheck %s --check-prefix=ENV
# ENV: input-limits.fx: error: the file is {{.*}} bytes), more than the input size limit of 1.0 KiB (1024 bytes); set by DECLONE_MAX_INPUT_SIZE
# RUN: env DECLONE_MAX_INPUT_SIZE=1K %declone opt --max-input-size 1M %s > /dev/null
# RUN: %expect-exit 2 %declone opt --max-input-size 12Q %s 2>&1 | %FileCheck %s --check-prefix=BADSIZE
# BADSIZE: declone opt: error: --max-input-size takes a size such as 512M or 4G, not '12Q'
# RUN: %expect-exit 2 env DECLONE_MAX_INPUT_SIZE=lots %declone report %s 2>&1 | %FileCheck %s --check-prefix=BADENV
# BADENV: declone report: error: DECLONE_MAX_INPUT_SIZE takes a size such as 512M or 4G, not 'lots'
# RUN: %declone help opt | %FileCheck %s --check-prefix=HELP
# HELP: --max-input-size SIZE
#
# Standard input is read up to the limit and no further (head then finds the pipe closed).
# RUN: sh -c 'head -c 3000000 /dev/zero || true' | %expect-exit 2 %declone opt --max-input-size 1M - 2>&1 | %FileCheck %s --check-prefix=STDIN
# STDIN: <stdin>: error: the input is longer than the input size limit of 1.0 MiB (1048576 bytes); set by --max-input-size
# RUN: cat %s | %declone opt --max-input-size 1M - | %FileCheck %s --check-prefix=STDINOK
# STDINOK: return (add,)
# RUN: rm -rf %t
def forward(self, x: "f32[4, 8][8, 1]cpu"):
    clone: "f32[4, 8][8, 1]cpu" = torch.ops.aten.clone.default(x)
    add: "f32[4, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(clone, 1)
    return (add,)
