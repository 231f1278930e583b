# `declone report` on the whole corpus: one row per dump, a total, exit status 0. Rows are
# relative to the folder that heads the file column; reason columns appear only for reasons that
# occur; bytes are summed over removed clones with static sizes; copies columns count the copies of
# functionalized calls (the vLLM dumps' rms_norm, rotary embedding and attention) and those avoided.
# RUN: %declone report %corpus -q | %FileCheck %s
# CHECK: {{^.*}}corpus/ graphs nodes clones removed kept layout-changed layout-unknown bytes removed symbolic copies avoided bytes avoided{{$}}
# CHECK-NEXT: {{^---+$}}
# CHECK-NEXT: {{^}}entangle/bug_grad_accumulation__1step__fw.g0.r0.py 1 16 0 0 0 0 0 0 B 0 0 0 0 B{{$}}
# CHECK: {{^}}entangle/qwen2__paral1_layer1__fw.g0.r0.py 1 62 0 {{.*}} 9 9 1.4 GiB{{$}}
# CHECK: {{^}}grammar/channels_last_and_offset.fx 1 8 3 1 2 2 0 192 B 0 0 0 0 B{{$}}
# CHECK: {{^}}grammar/expanded_def.fx 1 8 1 1 0 0 0 0 B 1 0 0 0 B{{$}}
# CHECK: {{^}}learn_torch_compile/torchbench__vgg16_inference_cpu__fn0__post_grad_0.py 1
# CHECK-NEXT: {{^---+$}}
# CHECK-NEXT: {{^}}total 30 {{[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9.]+ [KMG]?i?B [0-9]+ [0-9]+ [0-9]+ [0-9.]+ [KMG]?i?B$}}
# CHECK-NEXT: {{^30 files$}}

# The table does not depend on the number of threads.
# RUN: %declone report %corpus -q -j 1 > %t.j1
# RUN: %declone report %corpus -q --jobs 2 > %t.j2
# RUN: %declone report %corpus -q -j=7 > %t.j7
# RUN: diff %t.j1 %t.j2
# RUN: diff %t.j1 %t.j7

# Files named on the command line are reported whatever their name, in argument order.
# RUN: %declone report -q %s %corpus/grammar/expanded_def.fx | %FileCheck %s --check-prefix=FILES
# FILES: corpus.fx 1 3 1 0 1 1
# FILES-NEXT: expanded_def.fx 1 8 1 1 0 0
# FILES: {{^2 files$}}
# RUN: cat %s | %declone report - -q | %FileCheck %s --check-prefix=STDIN
# STDIN: {{^}}<stdin> 1 3 1 0 1 1 0 B
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        return (clone,)
