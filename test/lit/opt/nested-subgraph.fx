# Every graph of a file is optimized, nested subgraphs included; a subgraph's inputs belong to
# its caller and are never treated as donated. A call of a subgraph has its body's effects (see
# invoke-subgraph-effects.fx): repeated_subgraph0 only reads its input and returns a fresh
# tensor, so the caller's clone goes; a body with an op without an effect model leaves its
# call unknown, conservatively.
# RUN: %declone opt %s --remarks --donated 0 2>&1 >/dev/null | %FileCheck %s
# CHECK: nested-subgraph.fx:[[#@LINE+5]]: remark: clone 'clone' removed
# CHECK: nested-subgraph.fx:[[#@LINE+9]]: remark: clone 'clone_1' kept [unknown-effects]: invoke_subgraph_1 (line [[#@LINE+11]]) touches clone_1: foo in subgraph unknown_subgraph0: no schema for mylib::foo.default
# CHECK: nested-subgraph.fx:[[#@LINE+16]]: remark: clone 'clone' kept [input-mutation]
class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8][1]cpu", arg1_1: "f32[8][1]cpu"):
        clone: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        mul_: "f32[8][1]cpu" = torch.ops.aten.mul_.Tensor(clone, 2);  mul_ = None
        repeated_subgraph0 = self.repeated_subgraph0
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(repeated_subgraph0, 'subgraph_0', clone);  repeated_subgraph0 = clone = None
        getitem: "f32[8][1]cpu" = invoke_subgraph[0];  invoke_subgraph = None
        clone_1: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        unknown_subgraph0 = self.unknown_subgraph0
        invoke_subgraph_1 = torch.ops.higher_order.invoke_subgraph(unknown_subgraph0, 'subgraph_1', clone_1);  unknown_subgraph0 = clone_1 = None
        getitem_1: "f32[8][1]cpu" = invoke_subgraph_1[0];  invoke_subgraph_1 = None
        return (getitem, getitem_1)

    class repeated_subgraph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            clone: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
            add_: "f32[8][1]cpu" = torch.ops.aten.add_.Tensor(clone, 1);  add_ = None
            return (clone,)

    class unknown_subgraph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            foo: "f32[8][1]cpu" = torch.ops.mylib.foo.default(arg0_1);  arg0_1 = None
            return (foo,)
