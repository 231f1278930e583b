# Calls that name an op but not its overload have the union of the effects of the overloads
# that can take their arguments: an op packet (`torch.ops.aten.add_(x, 1)`, `aten.add(...,
# out = c)`) and a Tensor method, which is the aten op of its name with the receiver as self
# (`c.add_(y)` writes c; `c.sum()` only reads it; `c.view(4, 5)` passes its sizes as varargs
# and is a view, and so is `c.view(torch.int32)`, view.dtype). A method that is no aten op's,
# and a call no overload takes, have unknown effects. `mul_4.clone()` is a method call, not an
# aten.clone node, which is what the pass removes (DESIGN section 4): it gets no remark.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=NONE
# NONE-NOT: clone 'b'
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[20][1]cpu", arg1_1: "f32[20][1]cpu"):
        mul: "f32[20][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[20][1]cpu" = torch.ops.aten.clone.default(mul)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        sum_1: "f32[][]cpu" = clone.sum();  clone = None
        clone_1: "f32[20][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [input-mutation]: add_ (line [[@LINE+1]]) writes clone_1; arg0_1 is a graph input that is not donated
        add_: "f32[20][1]cpu" = clone_1.add_(arg1_1)
        clone_2: "f32[20][1]cpu" = torch.ops.aten.clone.default(mul)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [source-read-after-write]: add__1 (line [[@LINE+1]]) writes clone_2, then mul is returned
        add__1: "f32[20][1]cpu" = torch.ops.aten.add_(clone_2, 1)
        mul_1: "f32[20][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 3)
        clone_3: "f32[20][1]cpu" = torch.ops.aten.clone.default(mul_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' removed
        view: "f32[4, 5][5, 1]cpu" = clone_3.view(4, 5)
        add__2: "f32[4, 5][5, 1]cpu" = view.add_(1);  view = None
        mul_2: "f32[20][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 4)
        clone_4: "f32[20][1]cpu" = torch.ops.aten.clone.default(mul_2)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [source-read-after-write]: add__3 (line [[@LINE+2]]) writes view_1, then mul_2 is returned
        view_1: "i32[20][1]cpu" = clone_4.view(torch.int32)
        add__3: "i32[20][1]cpu" = view_1.add_(1);  view_1 = None
        mul_3: "f32[20][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 5)
        clone_5: "f32[20][1]cpu" = torch.ops.aten.clone.default(mul_3)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_5' kept [source-read-after-write]: add (line [[@LINE+1]]) writes clone_5, then mul_3 is returned
        add: "f32[20][1]cpu" = torch.ops.aten.add(arg1_1, 1, out = clone_5)
        mul_4: "f32[20][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 6)
        clone_6: "f32[20][1]cpu" = torch.ops.aten.clone.default(mul_4)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_6' kept [unknown-effects]: float_1 (line [[@LINE+1]]) touches clone_6: method call .float() is no aten op's method
        float_1: "f32[20][1]cpu" = clone_6.float()
        clone_7: "f32[20][1]cpu" = torch.ops.aten.clone.default(mul_4)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_7' kept [unknown-effects]: view_2 (line [[@LINE+1]]) touches clone_7: no overload of aten::view takes these arguments
        view_2 = clone_7.view('x')
        b: "f32[20][1]cpu" = mul_4.clone()
        return (sum_1, add_, clone_2, mul, add__2, clone_3, mul_2, add__3, mul_3, clone_5, float_1, view_2, b)
