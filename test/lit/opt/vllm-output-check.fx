# vLLM 0.33.0's would_alias_graph_io, which --mode vllm reproduces and --mode vllm-0.32 lacks: a
# clone nobody writes stays when removing it would make a returned value share storage with a
# graph input or another output (donated or not), and a value without a tensor annotation (vLLM:
# no meta["val"]) counts as sharing. The outputs are those of the graph as rewritten so far.
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=V33
# RUN: %declone opt %s --remarks --mode vllm --donated 0,1 2>&1 >/dev/null | %FileCheck %s --check-prefix=V33
# RUN: %declone opt %s --remarks --mode vllm-0.32 2>&1 >/dev/null | %FileCheck %s --check-prefix=V32
class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4, 4][4, 1]cpu", y: "f32[4, 4][4, 1]cpu", s0: "Sym(s0)"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(x)
        # V33: :[[@LINE-1]]: remark: clone 'clone' kept [output-alias]: clone is returned, and x shares storage with a graph input or another output (vLLM 0.33.0's decision)
        # V32: :[[@LINE-2]]: remark: clone 'clone' removed: vLLM 0.32.0's decision
        t: "f32[4, 4][1, 4]cpu" = torch.ops.aten.t.default(y)
        clone_1: "f32[4, 4][1, 4]cpu" = torch.ops.aten.clone.default(t)
        # V33: :[[@LINE-1]]: remark: clone 'clone_1' kept [output-alias]: clone_1 is returned, and t shares storage
        # V32: :[[@LINE-2]]: remark: clone 'clone_1' removed
        relu: "f32[4, 4][4, 1]cpu" = torch.ops.aten.relu.default(x)
        clone_2: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(relu)
        # V33: :[[@LINE-1]]: remark: clone 'clone_2' kept [output-alias]: clone_2 is returned, and relu shares storage
        # V32: :[[@LINE-2]]: remark: clone 'clone_2' removed
        sin: "f32[4, 4][4, 1]cpu" = torch.ops.aten.sin.default(x)
        clone_3: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(sin)
        # V33: :[[@LINE-1]]: remark: clone 'clone_3' removed: vLLM 0.33.0's decision
        cos: "f32[4, 4][4, 1]cpu" = torch.ops.aten.cos.default(x)
        clone_4: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(cos)
        # V33: :[[@LINE-1]]: remark: clone 'clone_4' removed: vLLM 0.33.0's decision
        neg: "f32[4, 4][4, 1]cpu" = torch.ops.aten.neg.default(clone_4)
        # A written clone never reaches the output check (vLLM's elif).
        exp: "f32[4, 4][4, 1]cpu" = torch.ops.aten.exp.default(x)
        clone_5: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(exp)
        # V33: :[[@LINE-1]]: remark: clone 'clone_5' removed: vLLM 0.33.0's decision
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(clone_5, 1)
        # Second order: once clone_6 is gone, tanh is returned, and clone_7 of it stays.
        tanh: "f32[4, 4][4, 1]cpu" = torch.ops.aten.tanh.default(x)
        clone_6: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(tanh)
        # V33: :[[@LINE-1]]: remark: clone 'clone_6' removed: vLLM 0.33.0's decision
        clone_7: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(tanh)
        # V33: :[[@LINE-1]]: remark: clone 'clone_7' kept [output-alias]: clone_7 is returned, and tanh shares storage
        # V32: :[[@LINE-2]]: remark: clone 'clone_7' removed
        # No tensor value: vLLM cannot tell its storage.
        sigmoid = torch.ops.aten.sigmoid.default(x)
        clone_8: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(sigmoid)
        # V33: :[[@LINE-1]]: remark: clone 'clone_8' kept [output-alias]: vLLM cannot tell the storage of sigmoid (no tensor value) and takes it as shared with a graph input or output (vLLM 0.33.0's decision)
        return (clone, clone_1, clone_2, relu, clone_3, neg, clone_5, clone_6, clone_7, clone_8, s0)
