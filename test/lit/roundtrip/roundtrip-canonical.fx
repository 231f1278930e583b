# Canonical print_readable output (strides, devices, symbolic sizes, an @OFFSET suffix,
# auto_functionalized and comments) is written back byte for byte, from a file and from stdin.
# RUN: %declone print %s | diff %s -
# RUN: %declone print - < %s | diff %s -
# RUN: %declone print %s -o %t && diff %s %t
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[s0, 8][8, 1]cuda:0", arg2_1: "f32[10, 6][6, 1]cpu@12"):
        # File: model.py:12 in forward, code: y = x[:, :4].contiguous()
        slice_1: "f32[s0, 4][8, 1]cuda:0" = torch.ops.aten.slice.Tensor(arg1_1, 1, 0, 4)
        clone: "f32[s0, 4][4, 1]cuda:0" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        
        # File: model.py:13 in forward, code: torch.ops._C.rms_norm(out, y, w, 1e-6)
        empty: "f32[s0, 4][4, 1]cuda:0" = torch.ops.aten.empty.memory_format([arg0_1, 4], dtype = torch.float32, device = device(type='cuda', index=0), pin_memory = False)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = empty, input = clone, weight = arg1_1, epsilon = 1e-06);  empty = clone = None
        getitem_1: "f32[s0, 4][4, 1]cuda:0" = auto_functionalized[1];  auto_functionalized = None
        mul: "Sym(2*s0)" = arg0_1 * 2;  arg0_1 = None
        select: "f32[6][1]cpu@18" = torch.ops.aten.select.int(arg2_1, 0, 1);  arg2_1 = None
        add_: "f32[s0, 8][8, 1]cuda:0" = torch.ops.aten.add_.Tensor(arg1_1, 1);  arg1_1 = add_ = None
        return (getitem_1, mul, select)
