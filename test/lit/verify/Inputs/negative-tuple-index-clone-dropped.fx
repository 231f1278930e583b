class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[6, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 1);  arg0_1 = None
        getitem: "f32[4][1]cpu" = max_1[0]
        getitem_1: "f32[4][1]cpu" = max_1[-2];  max_1 = None
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem_1, 1);  getitem_1 = None
        unbind_copy = torch.ops.aten.unbind_copy.int(arg1_1)
        getitem_2: "f32[4][1]cpu" = unbind_copy[-1]
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        getitem_3: "f32[4][1]cpu" = unbind_copy[5];  unbind_copy = None
        sub_: "f32[4][1]cpu" = torch.ops.aten.sub_.Tensor(getitem_3, 1);  getitem_3 = None
        mul: "f32[6, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2);  arg1_1 = None
        split_with_sizes = torch.ops.aten.split_with_sizes.default(mul, [1, 5]);  mul = None
        getitem_4: "f32[5, 4][4, 1]cpu" = split_with_sizes[-1];  split_with_sizes = None
        clone_2: "f32[5, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_4);  getitem_4 = None
        return (getitem, add_, clone_1, sub_, clone_2)
