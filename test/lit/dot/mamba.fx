# opt --dot: the graph as read, the kept clone red with its reason code and detail, the removed
# one green, views dashed, the source line and its `# File:` comment as tooltips. The graph on
# standard output is the optimized one, as without --dot.
# RUN: %declone opt %s --dot %t.dot | %FileCheck %s --check-prefix=OUT
# RUN: %FileCheck %s < %t.dot
# OUT: {{^}}        clone: "f32[4, 3][3, 1]cpu"
# OUT-NOT: {{^}}        clone_1:
# CHECK: digraph "{{.*}}mamba.fx" {
# CHECK: subgraph "cluster_m0_" {
# CHECK-NEXT: label="GraphModule";
# CHECK: m0_0 [label="arg0_1\nf32[4, 5][5, 1]cpu", shape=ellipse
# CHECK: m0_4 [label="clone\naten.clone.default\nkept [layout-changed]\nstrides [3, 1] != [5, 1]\nf32[4, 3][3, 1]cpu", style="rounded,filled,bold", fillcolor="#f4a6a6", tooltip="{{.*}}mamba.fx:[[#@LINE+24]]\n# File: mamba_mixer.py:212 in forward, code: x = hidden[:, :3].contiguous()\nclone: \"f32[4, 3][3, 1]cpu\" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None"];
# CHECK: m0_5 [label="auto_functionalized\n(_C.causal_conv1d_update.default)"
# CHECK: m0_7 [label="clone_1\naten.clone.default\nremoved\nf32[4, 3][3, 1]cpu", style="rounded,filled,bold", fillcolor="#b8e6a8"
# CHECK: m0_10 [label="return", shape=doubleoctagon
# CHECK: m0_0 -> m0_3 [color="#2471a3", style=dashed, label="view"
# CHECK-NEXT: m0_3 -> m0_4;
# CHECK-NEXT: m0_4 -> m0_5;
# CHECK: subgraph cluster_legend {
# CHECK: label="{{.*}}mamba.fx: 2 clones, 1 removed, 1 kept";

# analyze --dot writes the same picture; --dot to a place that cannot be written is exit 2.
# RUN: %declone analyze %s --dot %t.analyze.dot > /dev/null
# RUN: diff %t.dot %t.analyze.dot
# RUN: %expect-exit 2 %declone opt %s --dot - 2>&1 | %FileCheck %s --check-prefix=BOTHSTDOUT
# BOTHSTDOUT: declone opt: error: --dot - and the graph would both go to standard output; write the graph elsewhere with -o FILE, or the picture with --dot FILE
# RUN: %expect-exit 2 %declone analyze %s --dot - 2>&1 | %FileCheck %s --check-prefix=ANALYZESTDOUT
# ANALYZESTDOUT: declone analyze: error: --dot - and the analysis would both go to standard output
# RUN: %declone opt %s --dot - -o %t.graph | %FileCheck %s
# RUN: %expect-exit 2 %declone opt %s --dot %t.missing/x.dot 2>&1 >/dev/null | %FileCheck %s --check-prefix=NOWRITE
# NOWRITE: declone opt: error: cannot write '{{.*}}.missing/x.dot': No such file or directory
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[4, 3][3, 1]cpu", arg2_1: "f32[4, 4, 3][12, 3, 1]cpu"):
        # File: mamba_mixer.py:212 in forward, code: x = hidden[:, :3].contiguous()
        slice_1: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 3);  arg0_1 = None
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        
        # File: mamba_mixer.py:215 in forward, code: torch.ops._C.causal_conv1d_update(x, w)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.causal_conv1d_update.default, x = clone, conv_state = arg2_1, weight = arg1_1, bias_ = None, silu_activation = True, cache_seqlens_ = None, conv_state_indices = None, pad_slot_id = -1);  clone = arg2_1 = None
        getitem_1: "f32[4, 3][3, 1]cpu" = auto_functionalized[1];  auto_functionalized = None
        
        # File: mamba_mixer.py:218 in forward, code: y = arg1_1.clone(); z = y * 2
        clone_1: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        mul: "f32[4, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(clone_1, 2);  clone_1 = None
        add: "f32[4, 3][3, 1]cpu" = torch.ops.aten.add.Tensor(getitem_1, mul);  getitem_1 = mul = None
        return (add,)
