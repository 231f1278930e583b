# Where the system refuses new threads (here: a stack limit no thread's stack fits in), declone
# does all its work on the one thread it has: the same output and exit status, no abort. The
# graph is large enough for the concurrent analyses and for several output chunks.
# RUN: declone-generate --nodes 30000 -o %t.fx
# RUN: %declone opt %t.fx -o %t.expected
# RUN: sh -c 'ulimit -s 64000000 && exec "$0" opt "$1" -o "$2"' %declone %t.fx %t.out
# RUN: diff %t.expected %t.out
# RUN: sh -c 'ulimit -s 64000000 && exec "$0" report -q -j 2 "$1" "$2"' %declone %t.fx %s | %FileCheck %s
# CHECK: 2 files
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (relu,)
