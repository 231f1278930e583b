class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4][1]cpu"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        to_sparse: "f32[4, 4][4, 1]cpu" = torch.ops.aten.to_sparse.default(clone, layout = torch.strided);  clone = None
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(to_sparse, 1);  to_sparse = None
        arange: "i64[4][1]cpu" = torch.ops.aten.arange.default(4, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        unsqueeze: "i64[1, 4][4, 1]cpu" = torch.ops.aten.unsqueeze.default(arange, 0);  arange = None
        sparse = torch.ops.aten.sparse_coo_tensor.indices(unsqueeze, arg1_1);  unsqueeze = arg1_1 = None
        _values: "f32[4][1]cpu" = torch.ops.aten._values.default(sparse);  sparse = None
        add__1: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(_values, 1);  _values = None
        return (add_, add__1)
