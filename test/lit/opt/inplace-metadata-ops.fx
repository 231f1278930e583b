# In-place metadata ops (issue 16, class 3): t_, transpose_, swapaxes_, swapdims_, squeeze_,
# unsqueeze_, as_strided_, resize_, resize_as_ and set_ give a tensor new sizes, strides, offset
# or storage. A dump shows each node's layout at one point only (make_fx's live tensors show the
# final layout at every node, a dump taken as the graph is traced the first), and offsets are
# inferred from the op that made a value: the safe mode trusts no layout of a tensor such an op
# changes, under any node that names it (the source, the op's result), nor an offset derived from
# one (clone_8). set_ also makes its self a view of its source, so add_ writes mul_9 (clone_11).
# vllm mode compares the annotations as vLLM does and keeps the hole; verify/inplace-metadata-ops.fx
# shows by execution what it breaks.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --remarks --mode vllm-0.32 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[16][1]cpu", arg2_1: "f32[4, 1, 4][4, 4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        t_: "f32[4, 4][1, 4]cpu" = torch.ops.aten.t_.default(mul)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul, memory_format = torch.contiguous_format)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [layout-unknown]: t_ (line [[@LINE-2]]) changes the layout of mul in place
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' removed
        clone_1: "f32[4, 4][1, 4]cpu" = torch.ops.aten.clone.default(t_)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-unknown]: t_ (line [[@LINE-5]]) changes the layout of t_ in place
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_1' removed
        mul_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 3)
        transpose_: "f32[4, 4][1, 4]cpu" = torch.ops.aten.transpose_.default(mul_1, 0, 1)
        clone_2: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul_1, memory_format = torch.contiguous_format)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [layout-unknown]: transpose_ (line [[@LINE-2]]) changes the layout of mul_1 in place
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_2' removed
        mul_2: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 4)
        swapaxes_: "f32[4, 4][1, 4]cpu" = torch.ops.aten.swapaxes_.default(mul_2, 0, 1)
        clone_3: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul_2, memory_format = torch.contiguous_format)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [layout-unknown]: swapaxes_ (line [[@LINE-2]]) changes the layout of mul_2 in place
        mul_3: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 5)
        swapdims_: "f32[4, 4][1, 4]cpu" = torch.ops.aten.swapdims_.default(mul_3, 0, 1)
        clone_4: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul_3, memory_format = torch.contiguous_format)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [layout-unknown]: swapdims_ (line [[@LINE-2]]) changes the layout of mul_3 in place
        mul_4: "f32[4, 1, 4][4, 4, 1]cpu" = torch.ops.aten.mul.Tensor(arg2_1, 2)
        squeeze_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.squeeze_.dim(mul_4, 1)
        clone_5: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul_4)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_5' kept [layout-unknown]: squeeze_ (line [[@LINE-2]]) changes the layout of mul_4 in place
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_5' kept [layout-changed]: sizes [4, 4] != [4, 1, 4]
        mul_5: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 6)
        unsqueeze_: "f32[1, 4, 4][16, 4, 1]cpu" = torch.ops.aten.unsqueeze_.default(mul_5, 0)
        clone_6: "f32[1, 4, 4][16, 4, 1]cpu" = torch.ops.aten.clone.default(unsqueeze_)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_6' kept [layout-unknown]: unsqueeze_ (line [[@LINE-2]]) changes the layout of unsqueeze_ in place
        # The final layout at every node, as make_fx prints it; the offset is never printed.
        mul_6: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        as_strided_: "f32[4][1]cpu" = torch.ops.aten.as_strided_.default(mul_6, [4], [1], 4)
        clone_7: "f32[4][1]cpu" = torch.ops.aten.clone.default(mul_6)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_7' kept [layout-unknown]: as_strided_ (line [[@LINE-2]]) changes the layout of mul_6 in place
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_7' removed
        slice_1: "f32[2][1]cpu" = torch.ops.aten.slice.Tensor(mul_6, 0, 0, 2)
        clone_8: "f32[2][1]cpu" = torch.ops.aten.clone.default(slice_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_8' kept [layout-unknown]: the layout of slice_1 derives from mul_6, whose layout as_strided_ (line [[@LINE-6]]) changes in place
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_8' removed
        mul_7: "f32[2, 8][8, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 7)
        resize_: "f32[2, 8][8, 1]cpu" = torch.ops.aten.resize_.default(mul_7, [2, 8])
        clone_9: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(mul_7)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_9' kept [layout-unknown]: resize_ (line [[@LINE-2]]) changes the layout of mul_7 in place
        mul_8: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 3)
        resize_as_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.resize_as_.default(mul_8, arg0_1)
        clone_10: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(resize_as_)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_10' kept [layout-unknown]: resize_as_ (line [[@LINE-2]]) changes the layout of resize_as_ in place
        mul_9: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 8)
        clone_11: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul_9)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_11' kept [clone-read-after-source-write]: set_ (line [[@LINE+3]]) writes empty after the clone, then clone_11 is returned
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_11' removed
        empty: "f32[0][1]cpu" = torch.ops.aten.empty.memory_format([0], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        set_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.set_.source_Tensor(empty, mul_9)
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(set_, 1)
        clone_12: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(add_)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_12' kept [layout-unknown]: set_ (line [[@LINE-3]]) changes the layout of add_ in place
        return (clone, clone_1, clone_2, clone_3, clone_4, clone_5, clone_6, clone_7, clone_8, clone_9, clone_10, clone_11, clone_12)
