# The pytree convention's multi-line forms: a returned tuple one value per line with comments
# (as FX prints a tuple of outputs), printed back unchanged. An operator.iadd whose target is
# not a node prints as a call: `1 += x` is no Python.
# RUN: %declone print %s | diff %s -
# RUN: %declone print %S/Inputs/iadd-call-form.fx | %FileCheck %s --check-prefix=CALL
# CALL: iadd = operator.iadd(1, x)
class inner_f(torch.nn.Module):
    def forward(
        self,
        primals,
    ):
        primals_1: "f32[3][1]cpu"  # PlainAOTInput(idx=0)
        primals_1, = fx_pytree.tree_flatten_spec([primals], self._in_spec)
        relu: "f32[3][1]cpu" = torch.ops.aten.relu.default(primals_1)
        return pytree.tree_unflatten((
            relu,  # PlainAOTOutput(idx=0)
            primals_1,  # PlainAOTOutput(idx=1)
        ), self._out_spec)
