# A TORCH_TRACE structured log (what tlparse reads): every graph payload is one row named
# LOG#KEY:LINE; records that are not graphs (string table, dynamo_start, guards, metrics) are
# skipped. Inputs/trace.log follows the real format: glog prefix, JSON envelope, tab-indented
# payload.
# RUN: %declone report %S/Inputs/trace.log -q | %FileCheck %s
# CHECK: {{^}}{{.*}}trace.log#aot_forward_graph:3 1 8 2 1 1 1 0 48 B
# CHECK-NEXT: {{^}}{{.*}}trace.log#inductor_post_grad_graph:17 1 5 1 0 1 0 1 0 B
# CHECK-NEXT: {{^}}{{.*}}trace.log#graph_dump.vllm_submod_0:25 1 4 1 1 0 0 0 2.0 KiB
# CHECK-NEXT: {{^---}}
# CHECK-NEXT: {{^}}total 3 17 4 2 2 1 1 2.0 KiB
# CHECK-NEXT: {{^}}stage aot_forward_graph 1 8 2 1 1 1 0 48 B
# CHECK-NEXT: {{^}}stage inductor_post_grad_graph 1 5 1 0 1 0 1 0 B
# CHECK-NEXT: {{^}}stage graph_dump 1 4 1 1 0 0 0 2.0 KiB
# CHECK-NEXT: {{^1 file, 3 rows; a clone lives on from stage to stage: each stage's line counts it once$}}

# A damaged log: a payload cut short and a line that is not a record. The good graphs are still
# reported; errors point into the log file (line and column of the payload text); exit 2.
# RUN: %expect-exit 2 %declone report %S/Inputs/damaged.log -q | %FileCheck %s --check-prefix=DAMAGED
# DAMAGED: damaged.log#aot_forward_graph:3 - - {{.*}} {{.*}}damaged.log:12:10: error: expected ',' or ')', found 'mul'
# DAMAGED-NEXT: damaged.log#inductor_post_grad_graph:17 1 5 1 0 1
# DAMAGED-NEXT: damaged.log#graph_dump.vllm_submod_0:25 1 4 1 1 0
# DAMAGED-NEXT: damaged.log - - {{.*}} {{.*}}damaged.log:31:1: error: expected a structured trace record
# DAMAGED: {{^1 file, 4 rows; 2 could not be read; a clone lives on}}

# In a folder, *.log files are read as traces; a log that is not a structured trace holds no
# graph and is skipped; named, it is skipped too, with a warning.
# RUN: rm -rf %t && mkdir -p %t/logs
# RUN: cp %S/Inputs/trace.log %t/logs/rank0.log
# RUN: printf 'INFO: compiling\nWARNING: slow\n' > %t/logs/build.log
# RUN: %declone report %t -q | %FileCheck %s --check-prefix=FOLDER
# FOLDER-NOT: build.log
# FOLDER: {{^}}rank0.log#aot_forward_graph:3 1 8
# FOLDER: {{^2 files, 3 rows; 1 skipped \(not a graph dump\); a clone lives on}}
# RUN: %declone report %t/logs/build.log -q 2>&1 | %FileCheck %s --check-prefix=NAMED
# NAMED: declone report: warning: {{.*}}/logs/build.log: not a graph dump (no graph module or 'def forward'), skipped
# NAMED: {{^1 file; 1 skipped \(not a graph dump\)$}}

# The payload of a graph is found whatever the log is called, from its first line.
# RUN: cp %S/Inputs/trace.log %t/trace-as.txt
# RUN: %declone report %t/trace-as.txt -q | %FileCheck %s --check-prefix=SNIFF
# SNIFF: trace-as.txt#graph_dump.vllm_submod_0:25 1 4 1 1 0
def forward(self, x):
    return (x,)
