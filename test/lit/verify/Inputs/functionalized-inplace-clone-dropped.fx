class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops.aten.add_.Tensor, self = arg0_1, other = arg1_1);  arg0_1 = arg1_1 = None
        getitem: "f32[4][1]cpu" = auto_functionalized[0]
        getitem_1: "f32[4][1]cpu" = auto_functionalized[1];  auto_functionalized = None
        mul_: "f32[4][1]cpu" = torch.ops.aten.mul_.Tensor(getitem, 2);  getitem = None
        return (getitem_1, mul_)
