# Regression (found by fuzz.property, seed 308): auto_functionalized returns copies of the
# arguments it mutates made with clone_preserve_strides, so an element keeps its argument's
# storage offset. Taking it for 0 removed a .contiguous() that the caller needed.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu", arg1_1: "f32[2, 8][8, 1]cpu", arg2_1: "f32[8][1]cpu"):
        split = torch.ops.aten.split.Tensor(arg0_1, 2);  arg0_1 = None
        getitem_1: "f32[2, 8][8, 1]cpu" = split[1];  split = None
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.fused_add_rms_norm.default, input = getitem_1, residual = arg1_1, weight = arg2_1, epsilon = 1e-06);  getitem_1 = arg1_1 = arg2_1 = None
        getitem_2: "f32[2, 8][8, 1]cpu" = auto_functionalized[1]
        getitem_3: "f32[2, 8][8, 1]cpu" = auto_functionalized[2];  auto_functionalized = None
        clone: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem_2, memory_format = torch.contiguous_format);  getitem_2 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [layout-changed]: storage offset 0 != 16
        clone_1: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem_3, memory_format = torch.contiguous_format);  getitem_3 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' removed
        return (clone, clone_1)
