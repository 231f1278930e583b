# Two copies of one call on one storage, both returned: written in place, the two outputs would
# share the matmul's storage (found by the adversarial review: before, the rewrite did not verify).
# RUN: %declone opt %s --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# CHECK: copy of 'query' in 'auto_functionalized' kept [call-kept]: the copy of 'key' must stay [output-alias]
# CHECK: copy of 'key' in 'auto_functionalized' kept [output-alias]: its copy and another copy of the call on the storage of getitem_1 are returned and would share it
class GraphModule(torch.nn.Module):
    def forward(self, arg1_1: "f32[16, 4][4, 1]cpu", arg2_1: "i64[4][1]cpu", arg4_1: "f32[4, 12][12, 1]cpu", arg5_1: "f32[12, 12][12, 1]cpu"):
        mm: "f32[4, 12][12, 1]cpu" = torch.ops.aten.mm.default(arg4_1, arg5_1)
        split_with_sizes = torch.ops.aten.split_with_sizes.default(mm, [4, 4, 4], -1)
        getitem: "f32[4, 4][12, 1]cpu" = split_with_sizes[0]
        getitem_1: "f32[4, 4][12, 1]cpu@4" = split_with_sizes[1]
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rotary_embedding.default, positions = arg2_1, query = getitem, key = getitem_1, head_size = 4, cos_sin_cache = arg1_1, is_neox = True)
        getitem_2: "f32[4, 4][12, 1]cpu" = auto_functionalized[1]
        getitem_3: "f32[4, 4][12, 1]cpu@4" = auto_functionalized[2]
        return (getitem_2, getitem_3)
