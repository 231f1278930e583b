# A written view with the negative bit: a kernel writes memory, so written in place the view
# would not hold what its copy holds (found by the property test, seed 4554).
# RUN: %declone opt %s --defunctionalize --donated 0,1 --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# CHECK: copy of 'result' in 'auto_functionalized' kept [not-rewritable]: _neg_view may have its negative or conjugate bit set
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3, 2, 3][18, 6, 3, 1]cpu", arg1_1: "f32[3, 3, 2, 3][18, 6, 3, 1]cpu@6"):
        add: "f32[3, 3, 2, 3][18, 6, 3, 1]cpu" = torch.ops.aten.add.Tensor(arg1_1, arg1_1)
        _neg_view: "f32[3, 3, 2, 3][18, 6, 3, 1]cpu" = torch.ops.aten._neg_view.default(arg0_1);  arg0_1 = None
        sin: "f32[3, 3, 2, 3][18, 6, 3, 1]cpu" = torch.ops.aten.sin.out(add, out = arg1_1);  arg1_1 = None
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = _neg_view, input = add, weight = sin, epsilon = 1e-06);  _neg_view = add = sin = None
        getitem: "f32[3, 3, 2, 3][18, 6, 3, 1]cpu" = auto_functionalized[1];  auto_functionalized = None
        clone: "f32[3, 3, 2, 3][18, 6, 3, 1]cpu" = torch.ops.aten.clone.default(getitem, memory_format = torch.contiguous_format);  getitem = None
        return (clone,)
