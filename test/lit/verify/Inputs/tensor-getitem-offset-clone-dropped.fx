class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu"):
        getitem: "f32[2, 5][5, 1]cpu" = arg0_1[slice(None, 2, None)]
        clone: "f32[2, 5][5, 1]cpu" = torch.ops.aten.clone.default(getitem);  getitem = None
        getitem_1: "f32[3, 5][5, 1]cpu" = arg0_1[slice(1, None, None)]
        getitem_2: "f32[5]cpu" = arg0_1[0]
        clone_2: "f32[5][1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        getitem_3: "f32[5][1]cpu" = arg0_1[-1]
        clone_3: "f32[5][1]cpu" = torch.ops.aten.clone.default(getitem_3);  getitem_3 = None
        getitem_4: "f32[4, 1, 3]cpu" = arg0_1[(slice(None, None, None), None, slice(None, None, 2))]
        clone_4: "f32[4, 1, 3][3, 3, 1]cpu" = torch.ops.aten.clone.default(getitem_4, memory_format = torch.contiguous_format);  getitem_4 = None
        getitem_5: "f32[2, 1, 5]cpu" = arg0_1[(slice(None, 2, None), None)]
        clone_5: "f32[2, 1, 5][5, 5, 1]cpu" = torch.ops.aten.clone.default(getitem_5);  getitem_5 = None
        arange: "i64[2][1]cpu" = torch.ops.aten.arange.default(2, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        getitem_6: "f32[2, 5]cpu" = arg0_1[arange];  arg0_1 = arange = None
        clone_6: "f32[2, 5][5, 1]cpu" = torch.ops.aten.clone.default(getitem_6);  getitem_6 = None
        add: "f32[2, 5][5, 1]cpu" = torch.ops.aten.add.Tensor(clone, clone_6);  clone = clone_6 = None
        mul: "f32[5][1]cpu" = torch.ops.aten.mul.Tensor(clone_2, 2);  clone_2 = None
        mul_1: "f32[2, 1, 5][5, 5, 1]cpu" = torch.ops.aten.mul.Tensor(clone_5, 2);  clone_5 = None
        return (add, getitem_1, mul, clone_3, clone_4, mul_1)
