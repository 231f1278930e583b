# Dynamic int arguments (a dump of torch.compile(dynamic=True) with torch 2.13, the function
# f(x, n, k) below; its printed strides are the CHECK lines). Dynamo names the ints n and k
# s86 and s16 like sizes, but does not specialize them at 0 and 1: only a size of an input is
# at least 2. n sizes a tensor, so it is at least 0, and the contiguous strides of [4, s86]
# are [Max(1, s86), 1] as PyTorch prints them, not [s86, 1]. k may be negative, and select
# then counts from the end: its storage offset stays unknown rather than s16*s27.
# RUN: %declone print --annotate --assume-dense-inputs %s | %FileCheck %s
# CHECK: {{^ +}}zeros: "f32[s86, 4][4, 1]cpu" =
# PyTorch prints [s86, 1]: its guard settled n != 0 by the value it traced with, which the
# text does not show. Not inferred, and so neither is the clone of it.
# CHECK: {{^ +}}view: "f32[4, s86]cpu" =
# CHECK: {{^ +}}select: "f32[s27][1]cpu" =
# CHECK: {{^ +}}slice_2: "f32[s77, s86][s27, 1]cpu" =
# CHECK: {{^ +}}clone: "f32[4, s86]cpu" =
# CHECK: {{^ +}}clone_2: "f32[s77, s86][Max(1, s86), 1]cpu" =
# CHECK: {{^ +}}t: "f32[4, s86][1, 4]cpu" =
# CHECK: {{^ +}}clone_3: "f32[4, s86][Max(1, s86), 1]cpu" =
#
# def f(x, n, k):
#     z = torch.zeros(n, 4)
#     v = z.view(4, n)
#     s = x.select(0, k)
#     t = x[:, :n]
#     return v.clone(), s.clone(), t.contiguous(), z.t().contiguous()
class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s86)", arg1_1: "Sym(s77)", arg2_1: "Sym(s27)", arg3_1: "f32[s77, s27]cpu", arg4_1: "Sym(s16)"):
        # File: /tmp/dynint.py:11 in f, code: z = torch.zeros(n, 4)
        zeros: "f32[s86, 4]cpu" = torch.ops.aten.zeros.default([arg0_1, 4], device = device(type='cpu'), pin_memory = False)
        # File: /tmp/dynint.py:12 in f, code: v = z.view(4, n)
        view: "f32[4, s86]cpu" = torch.ops.aten.view.default(zeros, [4, arg0_1])
        # File: /tmp/dynint.py:13 in f, code: s = x.select(0, k)
        select: "f32[s27]cpu" = torch.ops.aten.select.int(arg3_1, 0, arg4_1);  arg4_1 = None
        # File: /tmp/dynint.py:14 in f, code: t = x[:, :n]
        slice_1: "f32[s77, s27]cpu" = torch.ops.aten.slice.Tensor(arg3_1, 0, 0, 9223372036854775807);  arg3_1 = None
        slice_2: "f32[s77, s86]cpu" = torch.ops.aten.slice.Tensor(slice_1, 1, 0, arg0_1);  slice_1 = arg0_1 = None
        # File: /tmp/dynint.py:15 in f, code: return v.clone(), s.clone(), t.contiguous(), z.t().contiguous()
        clone: "f32[4, s86]cpu" = torch.ops.aten.clone.default(view);  view = None
        clone_1: "f32[s27]cpu" = torch.ops.aten.clone.default(select);  select = None
        clone_2: "f32[s77, s86]cpu" = torch.ops.aten.clone.default(slice_2, memory_format = torch.contiguous_format);  slice_2 = None
        t: "f32[4, s86]cpu" = torch.ops.aten.t.default(zeros);  zeros = None
        clone_3: "f32[4, s86]cpu" = torch.ops.aten.clone.default(t, memory_format = torch.contiguous_format);  t = None
        return (clone, clone_1, clone_2, clone_3)
