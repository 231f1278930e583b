# A KV cache written as bytes: the op writes a uint8 view of a graph input, and AOTAutograd
# copies the result back as floats. The write-back covers the bytes the op writes and copies the
# copy's float view onto the input, so the op may write the input in place (pytorch PR 173177's
# case). Where the write-back covers only half of them, the copy stays.
# RUN: %declone opt %s --schemas %S/Inputs/dtest.schemas --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# CHECK: copy of 'cache' in 'auto_functionalized' removed: written in place: view
# CHECK: copy of 'cache' in 'auto_functionalized_1' kept [input-mutation]: view_2 views arg2_1, a graph input that is not donated; copy__1 (line {{[0-9]+}}) writes slice_1
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu", arg1_1: "u8[4, 32][32, 1]cpu", arg2_1: "f32[4, 8][8, 1]cpu"):
        view: "u8[4, 32][32, 1]cpu" = torch.ops.aten.view.dtype(arg0_1, torch.uint8)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops.dtest.cache_write_.default, cache = view, src = arg1_1)
        getitem_1: "u8[4, 32][32, 1]cpu" = auto_functionalized[1]
        view_1: "f32[4, 8][8, 1]cpu" = torch.ops.aten.view.dtype(getitem_1, torch.float32)
        view_2: "u8[4, 32][32, 1]cpu" = torch.ops.aten.view.dtype(arg2_1, torch.uint8)
        auto_functionalized_1 = torch.ops.higher_order.auto_functionalized(torch.ops.dtest.cache_write_.default, cache = view_2, src = arg1_1)
        getitem_3: "u8[4, 32][32, 1]cpu" = auto_functionalized_1[1]
        view_3: "f32[4, 8][8, 1]cpu" = torch.ops.aten.view.dtype(getitem_3, torch.float32)
        slice_1: "f32[2, 8][8, 1]cpu" = torch.ops.aten.slice.Tensor(arg2_1, 0, 0, 2)
        slice_2: "f32[2, 8][8, 1]cpu" = torch.ops.aten.slice.Tensor(view_3, 0, 0, 2)
        copy_: "f32[4, 8][8, 1]cpu" = torch.ops.aten.copy_.default(arg0_1, view_1)
        copy__1: "f32[2, 8][8, 1]cpu" = torch.ops.aten.copy_.default(slice_1, slice_2)
        return ()
