# The verdict names every op that ran as a stand-in (a kernel made from the op's schema, for an
# op this libtorch has no kernel for) rather than as its own kernel: an equivalence shown with
# stand-ins holds for the layouts and aliasing they see, not for what the real op computes.
# Named: ops called inside a nested graph's body, ops of every graph of a file (here
# mylib::scale_rows from --schemas, in a body, and vllm::all_reduce, the built-in supplement's),
# over every trial; ops called through auto_functionalized (the Mamba example's custom op).
# RUN: printf 'mylib::scale_rows(Tensor x, float s) -> Tensor\n' > %t.schemas
# RUN: %declone verify %s %s --schemas %t.schemas --trials 2 | %FileCheck %s --check-prefix=BOTH
# BOTH: {{^}}equivalent (4 runs; ops run as stand-ins, not their own kernels: mylib::scale_rows, vllm::all_reduce){{$}}
# RUN: %declone verify %S/../../../examples/mamba_slice.fx %S/../../../examples/mamba_slice.fx | %FileCheck %s --check-prefix=MAMBA
# MAMBA: {{^}}equivalent (1 run; ops run as stand-ins, not their own kernels: _C::causal_conv1d_update){{$}}
# A difference names them too, after the difference itself: here the Mamba bug, the custom op
# handed the slice (strides (5, 1)) instead of its contiguous clone.
# RUN: sed -e '/aten.clone.default(slice_1/d' -e 's/x = clone,/x = slice_1,/' -e 's/;  clone = arg2_1 = None//' %S/../../../examples/mamba_slice.fx > %t.dropped
# RUN: %expect-exit 1 %declone verify %S/../../../examples/mamba_slice.fx %t.dropped | %FileCheck %s --check-prefix=MAMBADIFF
# MAMBADIFF: .dropped: not equivalent to {{.*}}mamba_slice.fx: output 0: values differ {{.*}}; ops run as stand-ins, not their own kernels: _C::causal_conv1d_update{{$}}
# Only the ops that ran are named: a stand-in registered (--schemas) but not called is not, and
# a graph of libtorch's own ops gets the verdict alone.
# RUN: printf 'def forward(self, x: "f32[4, 3][3, 1]cpu"):\n    neg: "f32[4, 3][3, 1]cpu" = torch.ops.aten.neg.default(x);  x = None\n    return (neg,)\n' > %t.plain
# RUN: %declone verify %t.plain %t.plain --schemas %t.schemas | %FileCheck %s --check-prefix=PLAIN
# PLAIN: {{^}}equivalent (1 run){{$}}
# opt --verify says nothing of a rewrite that verifies unless stand-ins ran; then one note names
# them, the ops of every graph together.
# RUN: %declone opt %s --schemas %t.schemas --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT --implicit-check-not=note:
# OPT: stand-ins-listed.fx: note: the rewrite verifies with ops run as stand-ins, not their own kernels: mylib::scale_rows, vllm::all_reduce{{$}}
# RUN: %declone opt %t.plain --verify 2> %t.plain.err > /dev/null
# RUN: test ! -s %t.plain.err
class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4, 3][3, 1]cpu"):
        body = self.body
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(body, 'body', x);  body = x = None
        getitem: "f32[4, 3][3, 1]cpu" = invoke_subgraph[0];  invoke_subgraph = None
        return (getitem,)

    class body(torch.nn.Module):
        def forward(self, arg0_1: "f32[4, 3][3, 1]cpu"):
            scaled: "f32[4, 3][3, 1]cpu" = torch.ops.mylib.scale_rows.default(arg0_1, 2.0);  arg0_1 = None
            return (scaled,)

class GraphModule(torch.nn.Module):
    def forward(self, y: "bf16[4, 8][8, 1]cpu"):
        all_reduce: "bf16[4, 8][8, 1]cpu" = torch.ops.vllm.all_reduce.default(y, 'tp:0');  y = None
        neg: "bf16[4, 8][8, 1]cpu" = torch.ops.aten.neg.default(all_reduce);  all_reduce = None
        return (neg,)
