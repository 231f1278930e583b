# Logs torch 2.13 wrote for the model of test/python/test_torch_logs.py (a linear layer, two
# custom ops) under
# torch.compile: Inputs/torch-2.13-trace.log is its TORCH_TRACE (with the chromium_event,
# describe_*, str, output-code, guard and metrics records taken out for size), and
# Inputs/torch-2.13-torch-logs.txt its stderr under
# TORCH_LOGS=post_grad_graphs,aot_graphs,graph_code. test/python/test_torch_logs.py writes both
# afresh on every run; these recorded ones keep the format in the lit suite.
#
# Every graph-bearing record reads: top-level keys (dynamo_output_graph, aot_inference_graph) and
# artifacts (the post-grad graph, the before/after records of the passes, fx_graph_runnable's
# Repro class); each stage has a line.
# RUN: %declone report %S/Inputs/torch-2.13-trace.log -q | %FileCheck %s --check-prefix=TRACE
# TRACE: {{^}}torch-2.13-trace.log#dynamo_output_graph:8 1 12 0
# TRACE-NEXT: {{^}}torch-2.13-trace.log#before_pre_grad_graph:38 1 12 0
# TRACE-NEXT: {{^}}torch-2.13-trace.log#after_pre_grad_graph:68 1 12 0
# TRACE-NEXT: {{^}}torch-2.13-trace.log#aot_inference_graph:164 1 16 2 0 2
# TRACE-NEXT: {{^}}torch-2.13-trace.log#before_joint_graph:266 1 16 2 0 2
# TRACE-NEXT: {{^}}torch-2.13-trace.log#after_joint_graph:294 1 16 2 0 2
# TRACE-NEXT: {{^}}torch-2.13-trace.log#fx_graph_runnable:322 1 16 2 0 2
# TRACE-NEXT: {{^}}torch-2.13-trace.log#before_post_grad_graph:414 1 16 2 0 2
# TRACE-NEXT: {{^}}torch-2.13-trace.log#inductor_post_grad_graph:442 1 15 2 0 2
# TRACE: {{^}}total 9 131 12 0 12
# TRACE: {{^}}stage inductor_post_grad_graph 1 15 2 0 2
# TRACE: {{^1 file, 9 rows; a clone lives on from stage to stage: each stage's line counts it once$}}
#
# tlparse's output folder: raw.log beside the graphs it extracted. The same graph under the same
# record key counts once.
# RUN: rm -rf %t.tl && mkdir -p %t.tl/-_0_0_0 && cp %S/Inputs/torch-2.13-trace.log %t.tl/raw.log
# RUN: %declone print '%S/Inputs/torch-2.13-trace.log#inductor_post_grad_graph' > %t.tl/-_0_0_0/inductor_post_grad_graph_12.txt
# RUN: %declone report %t.tl -q | %FileCheck %s --check-prefix=TLPARSE
# TLPARSE: {{^}}-_0_0_0/inductor_post_grad_graph_12.txt 1 15 2 0 2
# TLPARSE: {{^}}raw.log#inductor_post_grad_graph:442 1 15 2 0 2 {{.*}} (the graph of -_0_0_0/inductor_post_grad_graph_12.txt)
# TLPARSE: {{^}}total 9 131 12 0 12
# TLPARSE: {{^}}stage inductor_post_grad_graph 1 15 2 0 2
# TLPARSE: {{^2 files, 10 rows; 1 row repeating an earlier graph, counted once; a clone lives on}}
#
# JSON rows name the file, the record and the compilation.
# RUN: %declone report %S/Inputs/torch-2.13-trace.log -q --json | %FileCheck %s --check-prefix=JSON
# JSON: {"name": "{{.*}}torch-2.13-trace.log#inductor_post_grad_graph:442", "file": "{{.*}}torch-2.13-trace.log", "record": "inductor_post_grad_graph:442", "stage": "inductor_post_grad_graph", "compile_id": "0/0", "same_as": null, "graphs": 1, "nodes": 15, "clones": 2,
#
# The post-grad graph by its name; remarks lead with the model's source line and end with the
# graph's place in the log, which names the graph again when pasted back.
# RUN: %declone opt '%S/Inputs/torch-2.13-trace.log#inductor_post_grad_graph' --remarks -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OPT
# OPT: /tmp/t31/model.py:28: remark: clone 'clone' kept [layout-changed]: strides [32, 8, 1] != [96, 24, 1] (q = qkv[..., : self.d].contiguous(); graph: {{.*}}torch-2.13-trace.log#inductor_post_grad_graph:453)
# OPT-NEXT: /tmp/t31/model.py:31: remark: clone 'clone_1' kept [layout-changed]: strides [32, 8, 1] != [96, 24, 1] (torch.ops.demo.add_into(k, q); graph: {{.*}}torch-2.13-trace.log#inductor_post_grad_graph:462)
# RUN: %declone print '%S/Inputs/torch-2.13-trace.log#inductor_post_grad_graph:453' | %FileCheck %s --check-prefix=PASTED
# PASTED: clone: "f32[2, 4, 8][32, 8, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format)
#
# TORCH_LOGS' stderr: warnings and other lines around the graphs, glog prefixes, TRACED GRAPH
# banners, the module's path before its class.
# RUN: %declone report %S/Inputs/torch-2.13-torch-logs.txt -q | %FileCheck %s --check-prefix=LOGS
# LOGS: {{^}}torch-2.13-torch-logs.txt#graph_code:3 1 12 0
# LOGS-NEXT: {{^}}torch-2.13-torch-logs.txt#aot_graphs:34 1 16 2 0 2
# LOGS-NEXT: {{^}}torch-2.13-torch-logs.txt#post_grad_graphs:64 1 15 2 0 2
# RUN: %declone opt '%S/Inputs/torch-2.13-torch-logs.txt#post_grad_graphs' --remarks -o /dev/null 2>&1 | %FileCheck %s --check-prefix=LOGSOPT
# LOGSOPT: /tmp/t31/model.py:28: remark: clone 'clone' kept [layout-changed]: {{.*}}graph: {{.*}}torch-2.13-torch-logs.txt#post_grad_graphs:76)
# RUN: %declone print '%S/Inputs/torch-2.13-torch-logs.txt#post_grad_graphs' | %FileCheck %s --check-prefix=LOGSPRINT
# LOGSPRINT: {{^}}class <lambda>(torch.nn.Module):
# LOGSPRINT-NEXT: {{^}}    def forward(self, arg0_1: "f32[24, 8][8, 1]cpu",
#
# Errors in a TORCH_LOGS graph point at the log's line and column (past the prefix).
# RUN: sed 's/torch.ops.aten.addmm.default(arg1_1, view, permute)/torch.ops.aten.addmm.default(arg1_1 view)/' %S/Inputs/torch-2.13-torch-logs.txt > %t.txt
# RUN: %expect-exit 2 %declone opt '%t.txt#post_grad_graphs' 2>&1 | %FileCheck %s --check-prefix=ERROR
# ERROR: {{.*}}.txt:71:168: error: expected ',' or ')', found 'view'
def forward(self, x):
    return (x,)
