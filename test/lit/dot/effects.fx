# Edge styles come from the effect analysis: bold red where the user writes the value (in place,
# through a view, or as an `out=` keyword), dashed blue where the user's result is a view of it,
# dotted purple into ops without a schema (they may write anything). Kept clones carry the
# detail of their reason.
# RUN: %declone opt %s --dot %t.dot > /dev/null
# RUN: %FileCheck %s < %t.dot
# CHECK: m0_3 [label="clone\naten.clone.default\nkept [source-read-after-write]\nadd_ (line {{[0-9]+}}) writes clone, then sin (line {{[0-9]+}}) reads relu\nf32[4][1]cpu", style="rounded,filled,bold", fillcolor="#f4a6a6"
# CHECK: m0_6 [label="clone_1\naten.clone.default\nkept [unknown-effects]\nmystery (line {{[0-9]+}}) touches clone_1: no schema for mylib::frob.default (give its schema w...\nf32[4][1]cpu"
# CHECK: m0_8 [label="mystery\nmylib.frob.default", tooltip=
# CHECK: m0_9 [label="clone_2\naten.clone.default\nremoved\nf32[4][1]cpu", style="rounded,filled,bold", fillcolor="#b8e6a8"
# CHECK: m0_2 -> m0_3;
# CHECK-NEXT: m0_3 -> m0_4 [color="#c0392b", penwidth=2.2, label="writes"
# CHECK: m0_1 -> m0_6;
# CHECK-NEXT: m0_6 -> m0_7 [color="#2471a3", style=dashed, label="view"
# CHECK-NEXT: m0_7 -> m0_8 [color="#8e44ad", style=dotted, penwidth=1.5, label="unknown op"
# CHECK: m0_10 -> m0_12;
# CHECK-NEXT: m0_4 -> m0_12;
# CHECK-NEXT: m0_11 -> m0_12 [color="#c0392b", penwidth=2.2, label="writes"
# CHECK: label="{{.*}}effects.fx: 3 clones, 1 removed, 2 kept";

# The picture renders.
# RUN: dot -Tsvg %t.dot -o %t.svg
# RUN: %FileCheck %s --check-prefix=SVG < %t.svg
# SVG: <svg
# SVG: <title>m0_2</title>
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(clone, 1);  clone = None
        sin: "f32[4][1]cpu" = torch.ops.aten.sin.default(relu);  relu = None
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg1_1)
        view: "f32[2, 2][2, 1]cpu" = torch.ops.aten.view.default(clone_1, [2, 2]);  clone_1 = None
        mystery = torch.ops.mylib.frob.default(view);  view = None
        clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(clone_2, 2);  clone_2 = None
        empty: "f32[4][1]cpu" = torch.ops.aten.empty.memory_format([4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        add: "f32[4][1]cpu" = torch.ops.aten.add.out(mul, add_, out = empty);  mul = add_ = empty = None
        return (add, sin, mystery)
