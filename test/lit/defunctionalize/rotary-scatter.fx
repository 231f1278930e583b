# vLLM's rotary embedding writes q and k, column slices of one qkv matmul; functionalized, their
# copies are scattered back into the matmul. In place, the scatters are the matmul itself, but
# only when each scatter writes back exactly its slice and nothing else reads the matmul.
# RUN: %declone opt %s --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# RUN: %FileCheck %s --check-prefix=GRAPH < %t.fx
# CHECK: copy of 'query' in 'auto_functionalized' removed: written in place: getitem
# CHECK: copy of 'key' in 'auto_functionalized' removed: written in place: getitem_1
# The second call scatters k's copy back into q's columns.
# CHECK: copy of 'query' in 'auto_functionalized_1' kept [source-read-after-write]: slice_scatter_2 (line {{[0-9]+}}) reads mm_1 after the call
# The third call's matmul is read again after the call.
# CHECK: copy of 'query' in 'auto_functionalized_2' kept [source-read-after-write]: mul (line {{[0-9]+}}) reads mm_2 after the call
# GRAPH: rotary_embedding = torch.ops._C.rotary_embedding.default(positions = arg2_1, query = getitem, key = getitem_1, head_size = 4, cos_sin_cache = arg1_1, is_neox = True)
# GRAPH: add: "f32[4, 12][12, 1]cpu" = torch.ops.aten.add.Tensor(mm, 1)
class GraphModule(torch.nn.Module):
    def forward(self, arg1_1: "f32[16, 4][4, 1]cpu", arg2_1: "i64[4][1]cpu", arg4_1: "f32[4, 12][12, 1]cpu", arg5_1: "f32[12, 12][12, 1]cpu"):
        mm: "f32[4, 12][12, 1]cpu" = torch.ops.aten.mm.default(arg4_1, arg5_1)
        split_with_sizes = torch.ops.aten.split_with_sizes.default(mm, [4, 4, 4], -1)
        getitem: "f32[4, 4][12, 1]cpu" = split_with_sizes[0]
        getitem_1: "f32[4, 4][12, 1]cpu@4" = split_with_sizes[1]
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rotary_embedding.default, positions = arg2_1, query = getitem, key = getitem_1, head_size = 4, cos_sin_cache = arg1_1, is_neox = True)
        getitem_2: "f32[4, 4][12, 1]cpu" = auto_functionalized[1]
        getitem_3: "f32[4, 4][12, 1]cpu@4" = auto_functionalized[2]
        slice_scatter: "f32[4, 12][12, 1]cpu" = torch.ops.aten.slice_scatter.default(mm, getitem_2, 1, 0, 4)
        slice_scatter_1: "f32[4, 12][12, 1]cpu" = torch.ops.aten.slice_scatter.default(slice_scatter, getitem_3, 1, 4, 8)
        add: "f32[4, 12][12, 1]cpu" = torch.ops.aten.add.Tensor(slice_scatter_1, 1)
        mm_1: "f32[4, 12][12, 1]cpu" = torch.ops.aten.mm.default(arg4_1, arg5_1)
        split_with_sizes_1 = torch.ops.aten.split_with_sizes.default(mm_1, [4, 4, 4], -1)
        getitem_4: "f32[4, 4][12, 1]cpu" = split_with_sizes_1[0]
        getitem_5: "f32[4, 4][12, 1]cpu@4" = split_with_sizes_1[1]
        auto_functionalized_1 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rotary_embedding.default, positions = arg2_1, query = getitem_4, key = getitem_5, head_size = 4, cos_sin_cache = arg1_1, is_neox = True)
        getitem_6: "f32[4, 4][12, 1]cpu" = auto_functionalized_1[1]
        getitem_7: "f32[4, 4][12, 1]cpu@4" = auto_functionalized_1[2]
        slice_scatter_2: "f32[4, 12][12, 1]cpu" = torch.ops.aten.slice_scatter.default(mm_1, getitem_6, 1, 0, 4)
        slice_scatter_3: "f32[4, 12][12, 1]cpu" = torch.ops.aten.slice_scatter.default(slice_scatter_2, getitem_7, 1, 0, 4)
        mm_2: "f32[4, 12][12, 1]cpu" = torch.ops.aten.mm.default(arg4_1, arg5_1)
        split_with_sizes_2 = torch.ops.aten.split_with_sizes.default(mm_2, [4, 4, 4], -1)
        getitem_8: "f32[4, 4][12, 1]cpu" = split_with_sizes_2[0]
        getitem_9: "f32[4, 4][12, 1]cpu@4" = split_with_sizes_2[1]
        auto_functionalized_2 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rotary_embedding.default, positions = arg2_1, query = getitem_8, key = getitem_9, head_size = 4, cos_sin_cache = arg1_1, is_neox = True)
        getitem_10: "f32[4, 4][12, 1]cpu" = auto_functionalized_2[1]
        getitem_11: "f32[4, 4][12, 1]cpu@4" = auto_functionalized_2[2]
        slice_scatter_4: "f32[4, 12][12, 1]cpu" = torch.ops.aten.slice_scatter.default(mm_2, getitem_10, 1, 0, 4)
        slice_scatter_5: "f32[4, 12][12, 1]cpu" = torch.ops.aten.slice_scatter.default(slice_scatter_4, getitem_11, 1, 4, 8)
        mul: "f32[4, 12][12, 1]cpu" = torch.ops.aten.mul.Tensor(mm_2, 2)
        return (add, slice_scatter_3, slice_scatter_5, mul)
