# Logs from an adversarial review of the log readers, each once read wrong:
# - torch.distributed puts `[rank0]:` before every line (vLLM always initialises it);
# - a module that is not lazy prints `<eval_with_key>.1` (or `... from FILE:LINE in wrapped`)
#   before its class;
# - a warning of another logger between the lines of one graph (a cond graph with nested
#   subgraph classes), and two processes' graphs interleaved in chunks;
# - blank payload lines with the blank after the channel stripped (editors do);
# - vLLM's piecewise submodules: four records with the same text are four graphs.
# RUN: %declone report %S/Inputs/torch-logs-rank-prefix.txt %S/Inputs/torch-logs-eager-modules.txt %S/Inputs/torch-logs-interrupted.txt %S/Inputs/torch-logs-two-processes.txt %S/Inputs/vllm-pieces.log -q | %FileCheck %s
# CHECK: {{^}}torch-logs-rank-prefix.txt#post_grad_graphs:1 1 5 1 0 1
# CHECK-NEXT: {{^}}torch-logs-eager-modules.txt#graph_code:1 1 5 0
# CHECK-NEXT: {{^}}torch-logs-eager-modules.txt#aot_graphs:15 1 5 1 0 1
# CHECK-NEXT: {{^}}torch-logs-eager-modules.txt#post_grad_graphs:26 1 5 1 0 1
# CHECK-NEXT: {{^}}torch-logs-interrupted.txt#post_grad_graphs:1 3 17 1 0 1
# CHECK-NEXT: {{^}}torch-logs-two-processes.txt#post_grad_graphs:1 3 17 1 0 1 {{.*}} (the graph of torch-logs-interrupted.txt#post_grad_graphs:1)
# CHECK-NEXT: {{^}}torch-logs-two-processes.txt#post_grad_graphs:11 3 17 1 0 1
# CHECK-NEXT: {{^}}vllm-pieces.log#graph_dump.vllm_submod_0:1 1 4 1 1 0
# CHECK-NEXT: {{^}}vllm-pieces.log#graph_dump.vllm_submod_2:7 1 4 1 1 0
# CHECK-NEXT: {{^}}vllm-pieces.log#graph_dump.vllm_submod_4:13 1 4 1 1 0
# CHECK-NEXT: {{^}}vllm-pieces.log#graph_dump.vllm_submod_6:19 1 4 1 1 0
# CHECK: {{^}}total 14 70 9 4 5
# CHECK: {{^}}stage graph_dump 4 16 4 4 0
# RUN: sed 's/[ \t]*$//' %S/Inputs/torch-2.13-torch-logs.txt > %t.stripped.txt
# RUN: %declone report %t.stripped.txt -q | %FileCheck %s --check-prefix=STRIPPED
# STRIPPED: {{^}}{{.*}}stripped.txt#graph_code:3 1 12 0
# STRIPPED-NEXT: {{^}}{{.*}}stripped.txt#aot_graphs:34 1 16 2
# STRIPPED-NEXT: {{^}}{{.*}}stripped.txt#post_grad_graphs:64 1 15 2
#
# Plain dumps stay plain: one named x.log, one with a line that starts like a TORCH_LOGS channel.
# RUN: %declone print %s > %t.log && %declone print %t.log | diff %s -
# RUN: printf '[__x] hello\n' > %t.brk.fx && cat %s >> %t.brk.fx
# RUN: %expect-exit 2 %declone print %t.brk.fx 2>&1 | %FileCheck %s --check-prefix=BRACKET
# BRACKET: brk.fx:1:1: error: expected 'class' or 'def forward' at top level
# A TORCH_TRACE log cut at the front (it starts with payload) still opens by record.
# RUN: tail -n +5 %S/Inputs/trace.log > %t.tailed.log
# RUN: %declone print '%t.tailed.log#graph_dump.vllm_submod_0' | %FileCheck %s --check-prefix=TAILED
# TAILED: clone: "bf16[16, 64][64, 1]cuda:0" = torch.ops.aten.clone.default(arg0_1)
# The banner line of a TORCH_LOGS graph names it too.
# RUN: %declone print '%S/Inputs/torch-2.13-torch-logs.txt#post_grad_graphs:65' | %FileCheck %s --check-prefix=BANNER
# BANNER: class <lambda>(torch.nn.Module):
# A warning about a graph of a log names the log's line and column, as its errors do.
# RUN: sed 's/torch.ops.aten.addmm.default/torch.ops.aten.addmn.default/' %S/Inputs/torch-2.13-torch-logs.txt > %t.typo.txt
# RUN: %declone opt '%t.typo.txt#post_grad_graphs' -o /dev/null 2>&1 | %FileCheck %s --check-prefix=TYPO
# TYPO: typo.txt:71:132: warning: unknown op 'aten.addmn.default' (no schema); did you mean 'aten.addmm.default'?
def forward(self, x):
    return (x,)
