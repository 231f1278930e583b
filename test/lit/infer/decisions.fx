# A dump that prints no strides (PyTorch before 2.2) gets clone decisions from inferred layouts.
# Graph inputs stay unknown unless --assume-dense-inputs; remarks say what a decision rests on.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=PLAIN
# PLAIN: remark: clone 'clone' kept [layout-unknown]: strides of clone are unknown
# PLAIN: remark: clone 'clone_1' kept [layout-unknown]: strides of permute are unknown
# PLAIN: remark: clone 'clone_2' removed: strides inferred
# RUN: %declone opt %s --remarks --assume-dense-inputs 2>&1 >/dev/null | %FileCheck %s --check-prefix=DENSE
# DENSE: remark: clone 'clone' removed: strides inferred, assuming dense inputs
# DENSE: remark: clone 'clone_1' kept [layout-changed]: strides [6, 3, 1] != [1, 12, 4] (strides inferred, assuming dense inputs)
# DENSE: remark: clone 'clone_2' removed: strides inferred{{$}}
# analyze shows the inferred layouts as such.
# RUN: %declone analyze %s --assume-dense-inputs | %FileCheck %s --check-prefix=ANALYZE
# ANALYZE: clone clone_1
# ANALYZE: clone layout:   f32[4, 2, 3][6, 3, 1]@0 (strides inferred, assuming dense inputs)
# ANALYZE: source layout:  f32[4, 2, 3][1, 12, 4]@0 (strides inferred, assuming dense inputs)
# vllm mode compares the inferred layouts too: the contiguous copy of a permuted view stays.
# RUN: %declone opt %s --mode vllm --remarks --assume-dense-inputs 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# VLLM: remark: clone 'clone_1' kept [layout-changed]
def forward(self, x: "f32[2, 3, 4]", w: "f32[3, 5]"):
    clone: "f32[2, 3, 4]" = torch.ops.aten.clone.default(x)
    permute: "f32[4, 2, 3]" = torch.ops.aten.permute.default(clone, [2, 0, 1])
    clone_1: "f32[4, 2, 3]" = torch.ops.aten.clone.default(permute, memory_format = torch.contiguous_format)
    view: "f32[8, 3]" = torch.ops.aten.view.default(clone_1, [8, 3])
    mm: "f32[8, 5]" = torch.ops.aten.mm.default(view, w)
    clone_2: "f32[8, 5]" = torch.ops.aten.clone.default(mm)
    relu: "f32[8, 5]" = torch.ops.aten.relu.default(clone_2)
    return (relu, clone_1)
