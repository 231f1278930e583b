# In-place Python operators in Dynamo graphs (`clone += y;  iadd = clone`) write their target:
# declone has no effect model for a Python function with tensor arguments, so a clone they
# write is kept, never removed (dropping `clone` would let `+=` write graph input x, which `add`
# reads afterwards). The same holds for `clone_1[0] = 1.0`, operator.setitem.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s | %FileCheck %s --check-prefix=OUT
# CHECK: :[[#@LINE+4]]: remark: clone 'clone' kept [unknown-effects]: iadd (line [[#@LINE+5]]) touches clone: Python function operator.iadd with tensor arguments
# CHECK: :[[#@LINE+6]]: remark: clone 'clone_1' kept [unknown-effects]: setitem (line [[#@LINE+7]]) touches clone_1: Python function operator.setitem with tensor arguments
class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4][1]cpu", y: "f32[4][1]cpu"):
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(x)
        clone += y;  iadd: "f32[4][1]cpu" = clone;  clone = y = None
        add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(iadd, x);  iadd = None
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(x)
        clone_1[0] = 1.0;  setitem = clone_1;  setitem = None
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(clone_1, x);  clone_1 = x = None
        return (add, mul)
# OUT: clone += y;  iadd: "f32[4][1]cpu" = clone;  clone = y = None
# OUT: clone_1[0] = 1.0;  setitem = clone_1;  setitem = None
