class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 4][4, 1]cpu", arg2_1: "f32[4, 4][4, 1]cpu", arg3_1: "f32[4, 4][4, 1]cpu", arg4_1: "f32[4, 4][4, 1]cpu", arg5_1: "f32[4, 4][4, 1]cpu"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        _unsafe_view: "f32[16][1]cpu" = torch.ops.aten._unsafe_view.default(clone, [16]);  clone = None
        add_: "f32[16][1]cpu" = torch.ops.aten.add_.Tensor(_unsafe_view, 1);  _unsafe_view = None
        clone_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        unsafe_split = torch.ops.aten.unsafe_split.Tensor(clone_1, 2);  clone_1 = None
        getitem: "f32[2, 4][4, 1]cpu" = unsafe_split[0];  unsafe_split = None
        mul_: "f32[2, 4][4, 1]cpu" = torch.ops.aten.mul_.Tensor(getitem, 2);  getitem = None
        clone_2: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        dropout: "f32[4, 4][4, 1]cpu" = torch.ops.aten.dropout.default(clone_2, 0.5, False);  clone_2 = None
        type_as: "f32[4, 4][4, 1]cpu" = torch.ops.aten.type_as.default(arg3_1, arg5_1);  arg3_1 = None
        sub_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.sub_.Tensor(type_as, 1);  type_as = None
        clone_4: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg4_1);  arg4_1 = None
        einsum: "f32[4, 4][4, 1]cpu" = torch.ops.aten.einsum.default('ij', [clone_4]);  clone_4 = None
        clone_5: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg5_1);  arg5_1 = None
        broadcast_tensors = torch.ops.aten.broadcast_tensors.default([clone_5]);  clone_5 = None
        getitem_1: "f32[4, 4][4, 1]cpu" = broadcast_tensors[0];  broadcast_tensors = None
        return (add_, mul_, dropout, sub_, einsum, getitem_1)
