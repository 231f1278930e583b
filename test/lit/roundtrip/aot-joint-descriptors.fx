# An AOT joint graph as torch 2.13 prints it (TORCH_TRACE's aot_joint_graph): the forward's
# parameters one per line, an annotation stub per line with the AOT input it stands for in a
# comment, and a returned list one value per line, each with a comment. Read and printed back
# unchanged; its clone is kept for its layout.
# RUN: %declone print %s | diff %s -
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# CHECK: /tmp/small/gen.py:6: remark: clone 'clone' kept [layout-changed]: strides [3, 1] != [1, 4] (b = a.t().contiguous(); graph: {{.*}}aot-joint-descriptors.fx:[[#@LINE+26]])
class inner_f(torch.nn.Module):
    def forward(
        self,
        primals,
        tangents,
    ):
        primals_1: "f32[3, 4][4, 1]cpu"  # PlainAOTInput(idx=0)
        primals_2: "f32[3, 4][4, 1]cpu"  # PlainAOTInput(idx=1)
        tangents_1: "f32[4, 3][3, 1]cpu"  # TangentAOTInput(output=PlainAOTOutput(idx=0))
        primals_1, primals_2, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: /tmp/small/gen.py:3 in f, code: a = x * 2
        mul: "f32[3, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(primals_1, 2);  primals_1 = None

        # File: /tmp/small/gen.py:4 in f, code: a += y
        add: "f32[3, 4][4, 1]cpu" = torch.ops.aten.add.Tensor(mul, primals_2);  mul = primals_2 = None

        # File: /tmp/small/gen.py:5 in f, code: a[0] = 1.0
        _tensor_constant0: "f32[][]cpu" = self._tensor_constant0
        lift_fresh_copy: "f32[][]cpu" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant0);  _tensor_constant0 = None
        select_1: "f32[4][1]cpu" = torch.ops.aten.select.int(add, 0, 0)
        copy: "f32[4][1]cpu" = torch.ops.aten.copy.default(select_1, lift_fresh_copy);  select_1 = lift_fresh_copy = None
        select_scatter: "f32[3, 4][4, 1]cpu" = torch.ops.aten.select_scatter.default(add, copy, 0, 0);  add = copy = None

        # File: /tmp/small/gen.py:6 in f, code: b = a.t().contiguous()
        permute_1: "f32[4, 3][1, 4]cpu" = torch.ops.aten.permute.default(select_scatter, [1, 0]);  select_scatter = None
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(permute_1, memory_format = torch.contiguous_format);  permute_1 = None

        # File: /tmp/small/gen.py:7 in f, code: return b.sin()
        sin: "f32[4, 3][3, 1]cpu" = torch.ops.aten.sin.default(clone)
        cos: "f32[4, 3][3, 1]cpu" = torch.ops.aten.cos.default(clone);  clone = None
        mul_1: "f32[4, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(tangents_1, cos);  tangents_1 = cos = None

        # File: /tmp/small/gen.py:6 in f, code: b = a.t().contiguous()
        permute_2: "f32[3, 4][1, 3]cpu" = torch.ops.aten.permute.default(mul_1, [1, 0]);  mul_1 = None

        # File: /tmp/small/gen.py:5 in f, code: a[0] = 1.0
        new_empty_strided: "f32[3, 4][4, 1]cpu" = torch.ops.aten.new_empty_strided.default(permute_2, [3, 4], [4, 1])
        copy_1: "f32[3, 4][4, 1]cpu" = torch.ops.aten.copy.default(new_empty_strided, permute_2);  new_empty_strided = permute_2 = None
        select_5: "f32[4][1]cpu" = torch.ops.aten.select.int(copy_1, 0, 0)
        full: "f32[4][1]cpu" = torch.ops.aten.full.default([4], 0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        copy_2: "f32[4][1]cpu" = torch.ops.aten.copy.default(select_5, full);  select_5 = full = None
        select_scatter_1: "f32[3, 4][4, 1]cpu" = torch.ops.aten.select_scatter.default(copy_1, copy_2, 0, 0);  copy_1 = copy_2 = None

        # File: /tmp/small/gen.py:3 in f, code: a = x * 2
        mul_2: "f32[3, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(select_scatter_1, 2);  select_scatter_1 = None
        return pytree.tree_unflatten([
            sin,  # PlainAOTOutput(idx=0)
            mul_2,  # GradAOTOutput(grad_of=PlainAOTInput(idx=0))
            None,  # None
        ], self._out_spec)

