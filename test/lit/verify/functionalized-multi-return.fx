# auto_functionalized of an op with several returns gives (*outs, *mutated): here
# (output, mask, running_min, running_max, scale, zero_point). Element 2 (and -4) is the copy of
# running_min, a slice one element into arg1_1 that the copy keeps (clone_preserve_strides);
# element 3 is the copy of running_max, at offset 0. Taking the tuple for (outs, *mutated)
# made element 2 the copy of running_max and removed a clone that resets the offset; the
# verifier ran the op the same wrong way and called that rewrite equivalent.
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s
# CHECK: remark: clone 'clone' kept [layout-changed]: storage offset 0 != 1
# CHECK: remark: clone 'clone_1' removed
# CHECK: remark: clone 'clone_2' kept [layout-changed]: storage offset 0 != 1
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/functionalized-multi-return-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: not equivalent to {{.*}}functionalized-multi-return.fx: output 0: storage offset 1 != 0
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[2][1]cpu", arg3_1: "f32[1][1]cpu", arg4_1: "i32[1][1]cpu"):
        ones: "i64[1][1]cpu" = torch.ops.aten.ones.default([1], dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        slice_1: "f32[1][1]cpu@1" = torch.ops.aten.slice.Tensor(arg1_1, 0, 1, 2)
        add: "f32[1][1]cpu" = torch.ops.aten.add.Tensor(slice_1, 1)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops.aten._fused_moving_avg_obs_fq_helper.default, self = arg0_1, observer_on = ones, fake_quant_on = ones, running_min = slice_1, running_max = add, scale = arg3_1, zero_point = arg4_1, averaging_const = 0.01, quant_min = 0, quant_max = 255, ch_axis = 0);  ones = slice_1 = add = None
        getitem: "f32[1][1]cpu" = auto_functionalized[2]
        clone: "f32[1][1]cpu" = torch.ops.aten.clone.default(getitem);  getitem = None
        getitem_1: "f32[1][1]cpu" = auto_functionalized[3]
        clone_1: "f32[1][1]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
        getitem_2: "f32[1][1]cpu" = auto_functionalized[-4];  auto_functionalized = None
        clone_2: "f32[1][1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        return (clone, clone_1, clone_2)
