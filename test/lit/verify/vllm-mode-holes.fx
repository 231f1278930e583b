# opt --verify refuses rewrites that do not verify (exit 1, nothing written): vLLM's rules
# miss writes through views, out= writes, writes to the source and outputs aliasing inputs;
# the safe mode's rewrites of the same graphs verify.
# RUN: %expect-exit 1 %declone opt %S/../opt/source-read-after-write.fx --mode vllm-0.32 --verify 2>&1 >%t.out | %FileCheck %s --check-prefix=VIEW
# RUN: not grep . %t.out
# VIEW: source-read-after-write.fx: error: the rewrite does not verify: output {{[0-9]+}}: values differ
# RUN: %expect-exit 1 %declone opt %S/../opt/clone-read-after-source-write.fx --mode vllm-0.32 --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=SOURCE
# SOURCE: error: the rewrite does not verify: output 0: values differ
# RUN: %expect-exit 1 %declone opt %S/../opt/output-alias.fx --mode vllm-0.32 --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=ALIAS
# ALIAS: error: the rewrite does not verify: output 0: aliases input 0 != nothing
# RUN: %declone opt %S/../opt/source-read-after-write.fx --verify > /dev/null
# RUN: %declone opt %S/../opt/clone-read-after-source-write.fx --verify > /dev/null
# RUN: %declone opt %S/../opt/output-alias.fx --verify > /dev/null
def forward(self, x: "f32[2][1]cpu"):
    return (x,)
