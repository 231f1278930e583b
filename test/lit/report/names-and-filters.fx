# The LOG#KEY:LINE names report prints open that graph of the log in print, opt and analyze (and
# verify); LOG#KEY when the key is unique, and a log alone when it holds one graph. A file named
# twice counts once; --include and --exclude filter by glob on the path or the name.
# RUN: %declone print '%S/Inputs/trace.log#aot_forward_graph:3' | %FileCheck %s --check-prefix=PRINT
# PRINT: def forward(
# RUN: %declone opt '%S/Inputs/trace.log#inductor_post_grad_graph' --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone '{{.*}}' kept [input-mutation]
# RUN: %declone analyze '%S/Inputs/trace.log#graph_dump.vllm_submod_0:25' | %FileCheck %s --check-prefix=ANALYZE
# ANALYZE: clone
# RUN: %expect-exit 2 %declone print %S/Inputs/trace.log 2>&1 | %FileCheck %s --check-prefix=SEVERAL
# SEVERAL: trace.log: error: the log holds 3 graphs; name one as LOG#KEY:LINE: {{.*}}trace.log#aot_forward_graph:3, {{.*}}trace.log#inductor_post_grad_graph:17, {{.*}}trace.log#graph_dump.vllm_submod_0:25
# RUN: %expect-exit 2 %declone print '%S/Inputs/trace.log#aot_forward_graph:2' 2>&1 | %FileCheck %s --check-prefix=NOLINE
# NOLINE: error: no graph record 'aot_forward_graph' at line 2 in the log; it holds {{.*}}trace.log#aot_forward_graph:3
# Any line of a record names its graph: a remark's location in a log can be pasted back.
# RUN: %declone opt '%S/Inputs/trace.log#aot_forward_graph' --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=PASTE
# PASTE: /home/user/mamba.py:12: remark: clone 'clone' kept [layout-changed]: {{.*}} (x = hidden[:, :3].contiguous(); graph: {{.*}}trace.log#aot_forward_graph:8)
# RUN: %declone print '%S/Inputs/trace.log#aot_forward_graph:8' | %FileCheck %s --check-prefix=PRINT
# RUN: %declone report %S/Inputs/trace.log %S/Inputs/trace.log %S/Inputs -q --exclude 'damaged*' --exclude 'torch*' --exclude 'vllm*' | %FileCheck %s --check-prefix=ONCE
# ONCE: {{^1 file, 3 rows; a clone lives on}}
# RUN: %declone report '%S/Inputs/trace.log' -q --top 1 | %FileCheck %s --check-prefix=PLURAL
# PLURAL: {{^1 file, 3 rows; a clone lives on.*; showing 1 of 3 rows$}}
# RUN: %declone report %S/Inputs -q --include '*trace*' --exclude 'torch*' | %FileCheck %s --check-prefix=INCLUDE
# INCLUDE: {{^1 file, 3 rows; a clone lives on}}
def forward(self, x):
    return (x,)
