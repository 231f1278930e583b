# --fake-tensor without a Python to run: one warning, then the layouts no rule gives stay
# unknown, as without the flag; the exit status is 0.
# RUN: env DECLONE_PYTHON=%t-no-such-python %declone opt %s --fake-tensor --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: env DECLONE_PYTHON=%t-no-such-python %declone print --annotate --fake-tensor %s | %FileCheck %s --check-prefix=PRINT
# RUN: %expect-exit 2 %declone print --fake-tensor %s 2>&1 | %FileCheck %s --check-prefix=USAGE
# CHECK: declone opt: warning: --fake-tensor: cannot run {{.*}}-no-such-python: No such file or directory; layouts that no rule gives stay unknown
# CHECK-NOT: warning
# CHECK: remark: clone 'clone' kept [layout-unknown]: strides of tril are unknown
# CHECK-NOT: warning
# CHECK: remark: clone 'clone_1' kept [layout-unknown]: strides of triu are unknown
# PRINT: {{^ +}}tril: "f32[3, 4]cpu" =
# USAGE: declone print: error: --fake-tensor only applies with --annotate
# An interpreter whose answer is not to the request asked: never taken for it.
# RUN: printf '#!/bin/sh\necho "{\\"ready\\": true}"\nread request\necho "{\\"id\\": 7, \\"sequence\\": false, \\"results\\": [{\\"sizes\\": [3, 4], \\"strides\\": [4, 1], \\"offset\\": 0}]}"\ncat > /dev/null\n' > %t-liar
# RUN: chmod +x %t-liar
# RUN: env DECLONE_PYTHON=%t-liar %declone opt %s --fake-tensor --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=LIAR
# LIAR: warning: --fake-tensor: {{.*}}-liar answered out of step
# LIAR: remark: clone 'clone' kept [layout-unknown]: strides of tril are unknown
# An interpreter stuck in a call (where Python's own time limit cannot stop it) is killed after
# twice the time limit and ten seconds, and the oracle gives up with one warning.
# RUN: printf '#!/bin/sh\necho "{\\"ready\\": true}"\nread request\nexec sleep 60\n' > %t-stuck
# RUN: chmod +x %t-stuck
# RUN: env DECLONE_PYTHON=%t-stuck DECLONE_FAKE_TENSOR_TIMEOUT=0.5 %declone opt %s --fake-tensor --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=STUCK
# STUCK: warning: --fake-tensor: {{.*}}-stuck took more than 11 s (running aten.tril.default) and was stopped; layouts that no rule gives stay unknown{{$}}
# STUCK-NOT: warning
# STUCK: remark: clone 'clone' kept [layout-unknown]: strides of tril are unknown
# STUCK-NOT: warning
# STUCK: remark: clone 'clone_1' kept [layout-unknown]: strides of triu are unknown
# The interpreter is given its limits: memory (RLIMIT_DATA, set by the script) and time per call.
# RUN: printf '#!/bin/sh\nprintf "%%%%s\\n" "$3" "$4" > %t-args.out\necho "{\\"error\\": \\"no torch\\"}"\n' > %t-args
# RUN: chmod +x %t-args
# RUN: env DECLONE_PYTHON=%t-args %declone opt %s --fake-tensor > /dev/null 2>&1
# RUN: %FileCheck %s --check-prefix=ARGS < %t-args.out
# ARGS: --memory-limit={{[0-9]{10}$}}
# ARGS-NEXT: --time-limit=5.0
# A string argument that is not UTF-8 cannot be sent to Python: that op stays unknown, and
# declone does not abort (an adversary's case).
# RUN: printf 'def forward(self, x: "f32[3, 4][4, 1]cpu"):\n    tril: "f32[3, 4]cpu" = torch.ops.aten.tril.default(x, 1, foo = "\377")\n    return (tril,)\n' > %t.fx
# RUN: env DECLONE_PYTHON=%t-no-such-python %declone print --annotate --fake-tensor %t.fx | %FileCheck %s --check-prefix=UTF8
# UTF8: {{^ +}}tril: "f32[3, 4]cpu" =
def forward(self, x: "f32[3, 4][4, 1]cpu"):
    tril: "f32[3, 4]cpu" = torch.ops.aten.tril.default(x, 1)
    clone: "f32[3, 4]cpu" = torch.ops.aten.clone.default(tril, memory_format = torch.contiguous_format)
    triu: "f32[3, 4]cpu" = torch.ops.aten.triu.default(x, 1)
    clone_1: "f32[3, 4]cpu" = torch.ops.aten.clone.default(triu, memory_format = torch.contiguous_format)
    return (clone, clone_1)
