# analyze --check-annotations lists the nodes whose printed strides contradict what inference
# gives from their inputs (stale metadata, a hand-edited dump); printed strides stay what the
# passes use.
# RUN: %expect-exit 1 %declone analyze --check-annotations %s | %FileCheck %s
# CHECK: check-annotations.fx:[[#@LINE+4]]: warning: permute prints strides [3, 1, 12], but torch.ops.aten.permute.default gives [1, 12, 4]
# CHECK-NEXT: check-annotations.fx:[[#@LINE+4]]: warning: add prints strides [6, 3, 1], but torch.ops.aten.add.Tensor gives [2, 1, 8]
# CHECK-NEXT: {{^}}2 annotations contradict inference
def forward(self, x: "f32[2, 3, 4][12, 4, 1]cpu"):
    permute: "f32[4, 2, 3][3, 1, 12]cpu" = torch.ops.aten.permute.default(x, [2, 0, 1])
    add: "f32[4, 2, 3][6, 3, 1]cpu" = torch.ops.aten.add.Tensor(permute, permute)
    mul: "f32[4, 2, 3][6, 3, 1]cpu" = torch.ops.aten.mul.Tensor(add, 2)
    clone: "f32[4, 2, 3][6, 3, 1]cpu" = torch.ops.aten.clone.default(add)
    return (mul, clone)
# analyze shows the inferred strides next to printed ones that differ; decisions use the printed.
# RUN: %declone analyze %s | %FileCheck %s --check-prefix=ANALYZE
# ANALYZE: clone clone
# ANALYZE: source layout:  f32[4, 2, 3][6, 3, 1]cpu@0 (inferred from its inputs: [2, 1, 8])
# Exit status 1 when it lists any (as verify's for a difference), 0 when none; no --dot with it.
# RUN: %declone print --annotate %s > %t.fx
# RUN: %expect-exit 2 %declone analyze --check-annotations %s --dot %t.dot 2>&1 | %FileCheck %s --check-prefix=NODOT
# NODOT: declone analyze: error: --check-annotations lists annotations and draws no picture; leave out --dot
