# An op without a schema that looks like a misspelling of a known one gets a warning with a
# suggestion, once per op, at its first use; a custom op far from every known name does not.
# The clone it touches is still kept (its effects are unknown).
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# CHECK: misspelled-op.fx:[[#@LINE+12]]:{{[0-9]+}}: warning: unknown op 'aten.clon.default' (no schema); did you mean 'aten.clone.default'?
# CHECK-NEXT: clone_1 = torch.ops.aten.clon.default(x)
# CHECK-NEXT: ^
# CHECK: misspelled-op.fx:[[#@LINE+10]]:{{[0-9]+}}: warning: unknown op 'aten.clone.defualt' (no schema); did you mean 'aten.clone.default'?
# CHECK-NOT: warning
# CHECK: remark: clone 'clone' kept [unknown-effects]
# RUN: %declone analyze %s 2>&1 >/dev/null | %FileCheck %s --check-prefix=ANALYZE
# ANALYZE: warning: unknown op 'aten.clon.default'
# RUN: %declone opt %s 2>&1 >/dev/null | %FileCheck %s --check-prefix=ONCE --implicit-check-not=mylib
# ONCE-COUNT-2: warning:
def forward(self, x: "f32[4][1]cpu"):
    clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(x)
    clone_1 = torch.ops.aten.clon.default(x)
    a = torch.ops.aten.clone.defualt(x)
    b = torch.ops.mylib.frobnicate_widgets.default(clone)
    c = torch.ops.aten.clon.default(x)
    return (clone, clone_1, a, b, c)
