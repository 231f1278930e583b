# tensor-getitem.fx with the clone of x[:, :3] dropped.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu"):
        getitem: "f32[4, 3][5, 1]cpu" = arg0_1[(slice(None, None, None), slice(None, 3, None))]
        getitem_1: "f32[5][1]cpu@15" = arg0_1[-1]
        clone_1: "f32[5][1]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
        getitem_2: "f32[1, 4, 5][20, 5, 1]cpu" = arg0_1[None]
        mul_: "f32[1, 4, 5][20, 5, 1]cpu" = torch.ops.aten.mul_.Tensor(getitem_2, 2);  getitem_2 = None
        getitem_3: "f32[2][10]cpu@5" = arg0_1[(slice(1, None, 2), 0)];  arg0_1 = None
        clone_2: "f32[2][1]cpu" = torch.ops.aten.clone.default(getitem_3);  getitem_3 = None
        return (getitem, clone_1, mul_, clone_2)
