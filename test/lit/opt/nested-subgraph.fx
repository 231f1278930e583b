# Every graph of a file is optimized, nested subgraphs included; a subgraph's inputs belong to
# its caller and are never treated as donated. Higher-order ops without an effect model (here
# invoke_subgraph) are conservative.
# RUN: %declone opt %s --remarks --donated 0 2>&1 >/dev/null | %FileCheck %s
# CHECK: nested-subgraph.fx:[[#@LINE+4]]: remark: clone 'clone' kept [unknown-effects]: invoke_subgraph (line [[#@LINE+7]]) touches clone: higher-order op invoke_subgraph has no effect model
# CHECK: nested-subgraph.fx:[[#@LINE+12]]: remark: clone 'clone' kept [input-mutation]
class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8][1]cpu"):
        clone: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        mul_: "f32[8][1]cpu" = torch.ops.aten.mul_.Tensor(clone, 2);  mul_ = None
        repeated_subgraph0 = self.repeated_subgraph0
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(repeated_subgraph0, 'subgraph_0', clone);  repeated_subgraph0 = clone = None
        getitem: "f32[8][1]cpu" = invoke_subgraph[0];  invoke_subgraph = None
        return (getitem,)

    class repeated_subgraph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            clone: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
            add_: "f32[8][1]cpu" = torch.ops.aten.add_.Tensor(clone, 1);  add_ = None
            return (clone,)
