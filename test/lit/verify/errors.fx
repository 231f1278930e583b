# verify's errors: a graph that cannot run (an op with no kernel and no stand-in, a module
# attribute without a tensor annotation) is exit 2 naming the node, never a verdict; so are bad
# usage and mismatched graphs.
# RUN: %expect-exit 2 %declone verify %s %s 2>&1 | %FileCheck %s
# CHECK: errors.fx:[[#@LINE+9]]: error: cannot execute foo: no kernel for mylib::foo in this libtorch
# RUN: %expect-exit 2 %declone verify %s %S/Inputs/mamba-clone-dropped.fx 2>&1 | %FileCheck %s --check-prefix=INPUTS
# INPUTS: error: the graphs take different inputs: 2 and 1 placeholders
# RUN: %expect-exit 2 %declone verify %s 2>&1 | %FileCheck %s --check-prefix=USAGE
# USAGE: declone verify: error: missing argument BEFORE AFTER
# RUN: %expect-exit 2 %declone verify %s %s --trials 0 2>&1 | %FileCheck %s --check-prefix=TRIALS
# TRIALS: declone verify: error: --seed and --trials take positive whole numbers
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        foo: "f32[4][1]cpu" = torch.ops.mylib.foo.default(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
        return (foo,)
