class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8][1]cpu", arg1_1: "f32[8][1]cpu"):
        clone: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        reads = self.reads
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(reads, 'reads', clone);  reads = clone = None
        getitem: "f32[8][1]cpu" = invoke_subgraph[0];  invoke_subgraph = None
        writes = self.writes
        invoke_subgraph_1 = torch.ops.higher_order.invoke_subgraph(writes, 'writes', arg1_1);  writes = arg1_1 = None
        getitem_1: "f32[8][1]cpu" = invoke_subgraph_1[0];  invoke_subgraph_1 = None
        clone_2: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        returns_view = self.returns_view
        wrap = torch.ops.higher_order.wrap(returns_view, clone_2);  returns_view = clone_2 = None
        getitem_2: "f32[8][1]cpu" = wrap[0];  wrap = None
        return (getitem, getitem_1, getitem_2)

    class reads(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            mul: "f32[8][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
            return (mul,)

    class writes(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            add_: "f32[8][1]cpu" = torch.ops.aten.add_.Tensor(arg0_1, 1);  arg0_1 = None
            return (add_,)

    class returns_view(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            view: "f32[8][1]cpu" = torch.ops.aten.view.default(arg0_1, [8]);  arg0_1 = None
            return (view,)

