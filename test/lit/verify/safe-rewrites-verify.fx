# Every rewrite the safe mode makes of the golden graphs in test/lit/opt verifies, with and
# without donations. The graphs that cannot run here say so (an op with no schema or kernel, a
# subgraph call, a clone of a scalar, getitem of a tensor) and are the only ones allowed to.
# RUN: %S/../tools/verify-safe-rewrites %declone %S/../opt | %FileCheck %s
# CHECK-DAG: effects-of-ops.fx: cannot run
# CHECK-DAG: nested-subgraph.fx: cannot run
# CHECK-DAG: unknown-effects-cases.fx: cannot run
# CHECK-DAG: unsupported.fx: cannot run
# CHECK-DAG: negative-getitem-index.fx: equivalent
# CHECK-DAG: mamba-slice-layout.fx: equivalent
# CHECK-DAG: source-read-after-write.fx: equivalent
# CHECK-DAG: input-mutation.fx: equivalent
# CHECK: verified {{[0-9]+}} rewrites, {{[0-9]+}} graphs cannot run, 0 failures
def forward(self, x: "f32[2][1]cpu"):
    return (x,)
