# -o over an existing, longer file: nothing of the old text may remain after the new one.
# Writing over its own input must also work: the input is read whole before the output is
# opened.
# RUN: %declone opt %s > %t.expected
# RUN: python3 -c "import sys; open(sys.argv[1], 'w').write('# stale\n' * 100000)" %t.out
# RUN: %declone opt %s -o %t.out
# RUN: diff %t.expected %t.out
# RUN: cp %s %t.self
# RUN: %declone opt %t.self -o %t.self
# RUN: diff %t.expected %t.self
# RUN: %declone opt %t.expected -o %t.expected
# RUN: diff %t.out %t.expected
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        relu: "f32[4, 4][4, 1]cpu" = torch.ops.aten.relu.default(clone);  clone = None
        return (relu,)
