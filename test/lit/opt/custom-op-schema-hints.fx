# A custom op without a schema: the remark names the op and says how to give its schema, also
# where the missing schema is why a layout is unknown (a getitem of the op's result). With the
# schema given, the clone the op only reads is removed.
# RUN: %declone opt %s --remarks -o /dev/null 2>&1 | %FileCheck %s
# CHECK: custom-op-schema-hints.fx:[[#@LINE+14]]: remark: clone 'clone' kept [layout-unknown]: getitem has no tensor annotation; it comes from split2 (line [[#@LINE+12]]): no schema for mylib::split2.default (give its schema with --schemas FILE; `python -m declone schemas MODULE` writes one from the module that registers the op)
# CHECK-NEXT: custom-op-schema-hints.fx:[[#@LINE+15]]: remark: clone 'clone_1' kept [unknown-effects]: touch (line [[#@LINE+16]]) touches clone_1: no schema for mylib::touch.default (give its schema with --schemas FILE; `python -m declone schemas MODULE` writes one
# RUN: printf 'mylib::split2(Tensor(a) x) -> (Tensor(a), Tensor(a))\nmylib::touch(Tensor x) -> Tensor\n' > %t.schemas
# RUN: %declone opt %s --schemas %t.schemas --remarks -o /dev/null 2>&1 | %FileCheck %s --check-prefix=GIVEN
# GIVEN: remark: clone 'clone' kept [layout-unknown]: getitem has no tensor annotation{{$}}
# GIVEN-NEXT: remark: clone 'clone_1' removed
# An aten op that is not in the registry gets the same hint.
# RUN: sed 's/mylib.touch.default/aten.not_an_op_yet.default/' %s | %declone opt - --remarks -o /dev/null 2>&1 | %FileCheck %s --check-prefix=ATEN
# ATEN: touches clone_1: no schema for aten::not_an_op_yet.default (give its schema with --schemas FILE

class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4, 4][4, 1]cpu"):
        split2 = torch.ops.mylib.split2.default(x)
        getitem = split2[0]
        clone: "f32[2, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem)
        relu: "f32[4, 4][4, 1]cpu" = torch.ops.aten.relu.default(x)
        clone_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(relu)
        touch: "f32[4, 4][4, 1]cpu" = torch.ops.mylib.touch.default(clone_1)
        return (clone, touch)
