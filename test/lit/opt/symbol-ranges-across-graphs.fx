# Two graphs of separate traces in one file, both naming a symbol s0 (each trace numbers its
# own): a size of the first graph's input, at least 2 there, and a dynamic int in the second,
# which may be 0. The second clone's Max(1, s0) is not s0 there, and the clone is kept: a bound
# one graph gives does not carry over to another (an adversary's case).
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# CHECK: symbol-ranges-across-graphs.fx:[[@LINE+8]]: remark: clone 'clone' kept [layout-changed]: strides [Max(1, s0), 1] != [s0, 1]
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[s0, 4][4, 1]cpu"):
        mul: "f32[s0, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
        return (mul,)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[4*s0][1]cpu"):
        view: "f32[4, s0][s0, 1]cpu" = torch.ops.aten.view.default(arg1_1, [4, arg0_1]);  arg1_1 = None
        clone: "f32[4, s0][Max(1, s0), 1]cpu" = torch.ops.aten.clone.default(view, memory_format = torch.contiguous_format);  view = None
        mul: "f32[4, s0][Max(1, s0), 1]cpu" = torch.ops.aten.mul.Tensor(clone, 3);  clone = None
        return (mul,)
