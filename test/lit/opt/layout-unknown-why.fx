# A layout-unknown remark says why the strides are unknown, from the root of their derivation:
# a graph input whose annotation prints none (through every value derived from it), or an op no
# rule covers.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
def forward(self, arg0_1: "f32[4, 8]", arg1_1: "f32[4, 4][4, 1]cpu"):
    relu: "f32[4, 8]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
    permute: "f32[8, 4]cpu" = torch.ops.aten.permute.default(relu, [1, 0]);  relu = None
    clone: "f32[8, 4][4, 1]cpu" = torch.ops.aten.clone.default(permute)
    # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [layout-unknown]: strides of permute are unknown: they derive from the strides of arg0_1: arg0_1 is a graph input whose annotation prints none (--assume-dense-inputs takes graph inputs as contiguous)
    tril: "f32[4, 4]cpu" = torch.ops.aten.tril.default(arg1_1);  arg1_1 = None
    clone_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(tril)
    # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-unknown]: strides of tril are unknown: no rule gives the strides tril (aten.tril.default) makes (--fake-tensor runs it)
    return (clone, clone_1, permute, tril)
