# out= overloads (issue 16, class 4) return their out argument: the result has the out tensor's
# layout and storage offset, never a fresh tensor's at 0, clone.out included (clone_out starts
# 4 elements into empty). The elements of an out= op's tuple are its out arguments (max.dim_max).
# An out tensor whose sizes are not the result's is resized in place (resize_output), so its
# layout is taken as unknown; one of the result's sizes is left as it is. Both modes infer the
# offsets alike; vllm mode does not look at in-place layout changes.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# RUN: %declone opt %s --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 4][4, 1]cpu"):
        empty: "f32[20][1]cpu" = torch.ops.aten.empty.memory_format([20], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        slice_1: "f32[12][1]cpu" = torch.ops.aten.slice.Tensor(empty, 0, 4, 16)
        view: "f32[3, 4][4, 1]cpu" = torch.ops.aten.view.default(slice_1, [3, 4])
        clone_out: "f32[3, 4][4, 1]cpu" = torch.ops.aten.clone.out(arg0_1, out = view)
        clone: "f32[3, 4][4, 1]cpu" = torch.ops.aten.clone.default(clone_out)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [layout-changed]: storage offset 0 != 4
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' kept [layout-changed]: storage offset 0 != 4
        empty_1: "f32[3, 4][4, 1]cpu" = torch.ops.aten.empty.memory_format([3, 4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        add_out: "f32[3, 4][4, 1]cpu" = torch.ops.aten.add.out(arg0_1, 1, out = empty_1)
        clone_1: "f32[3, 4][4, 1]cpu" = torch.ops.aten.clone.default(add_out)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' removed
        empty_2: "f32[0][1]cpu" = torch.ops.aten.empty.memory_format([0], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        mul_out: "f32[3, 4][4, 1]cpu" = torch.ops.aten.mul.out(arg0_1, 2, out = empty_2)
        clone_2: "f32[3, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul_out)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [layout-unknown]: mul_out (line [[@LINE-2]]) changes the layout of mul_out in place
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_2' removed
        empty_3: "f32[8][1]cpu" = torch.ops.aten.empty.memory_format([8], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        slice_2: "f32[3][1]cpu" = torch.ops.aten.slice.Tensor(empty_3, 0, 4, 7)
        empty_4: "i64[3][1]cpu" = torch.ops.aten.empty.memory_format([3], dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        max_1 = torch.ops.aten.max.dim_max(arg0_1, 1, max = slice_2, max_values = empty_4)
        getitem: "f32[3][1]cpu" = max_1[0]
        getitem_1: "i64[3][1]cpu" = max_1[1]
        clone_3: "f32[3][1]cpu" = torch.ops.aten.clone.default(getitem)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [layout-changed]: storage offset 0 != 4
        clone_4: "i64[3][1]cpu" = torch.ops.aten.clone.default(getitem_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' removed
        return (clone, clone_1, clone_2, clone_3, clone_4)
