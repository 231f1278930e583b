# --json writes one object per row and a total; --sort orders rows by any column (numbers largest
# first, ties in input order); --top N keeps the first N rows while the total counts them all.
# RUN: %declone report %corpus/grammar -q --json | %FileCheck %s --check-prefix=JSON
# JSON: {"rows": [
# JSON-NEXT: {"name": "{{.*}}/grammar/auto_functionalized_v2.fx", "file": {{.*}}, "same_as": null, "graphs": 1, "nodes": 6, "clones": 0, "removed": 0, "dead": 0, "kept": 0, "kept_by_reason": {"layout-changed": 0, "layout-unknown": 0, "unknown-effects": 0, "input-mutation": 0, "source-read-after-write": 0, "clone-read-after-source-write": 0, "output-alias": 0, "unsupported": 0}, "bytes_removed": 0, "removed_symbolic": 0, "copies": {"calls": 1, "rewritten": 0, "copies": 1, "avoided": 0, "kept_by_reason": {"not-rewritable": 1, {{.*}}}, "bytes_avoided": 0, "avoided_symbolic": 0}, "error": null},
# JSON-NEXT: {"name": "{{.*}}/grammar/channels_last_and_offset.fx", "file": {{.*}}, "same_as": null, "graphs": 1, "nodes": 8, "clones": 3, "removed": 1, "dead": 0, "kept": 2, "kept_by_reason": {"layout-changed": 2, {{.*}}}, "bytes_removed": 192, "removed_symbolic": 0, "copies": {"calls": 0, {{.*}}}, "error": null},
# JSON: ],
# JSON-NEXT: "total": {"files": 5, "rows": 5, "errors": 0, "skipped": 0, "not_run": 0, "duplicates": 0, "graphs": 5, "nodes": 51, "clones": 5, "removed": 2, "dead": 0, "kept": 3, "kept_by_reason": {"layout-changed": 3, {{.*}}}, "bytes_removed": 192, "removed_symbolic": 1, "copies": {"calls": 1, "rewritten": 0, "copies": 1, "avoided": 0, {{.*}}}},
# JSON-NEXT: "stages": []}

# RUN: %declone report %corpus/grammar -q --sort nodes --top 2 | %FileCheck %s --check-prefix=TOP
# TOP: {{^}}nested_and_getattr.fx 1 17
# TOP-NEXT: {{^}}symbolic_max_min.fx 1 12
# TOP-NEXT: {{^---}}
# TOP-NEXT: {{^}}total 5 51 5 2 3 3 192 B 1
# TOP-NEXT: {{^5 files; showing 2 of 5 rows$}}

# Sorting by a reason code, and by file name; ties keep input order.
# RUN: %declone report %corpus/grammar -q --sort layout-changed --top 2 | %FileCheck %s --check-prefix=REASON
# REASON: {{^}}channels_last_and_offset.fx 1 8 3 1 2 2
# REASON-NEXT: {{^}}symbolic_max_min.fx 1 12 1 0 1 1
# RUN: %declone report %corpus/grammar -q --sort file --json --top 1 | %FileCheck %s --check-prefix=FILE
# FILE: {"name": "{{.*}}/auto_functionalized_v2.fx"
# FILE-NOT: {"name":
# FILE: "total": {"files": 5, "rows": 5,

# Usage errors: an unknown column, a bad count. Exit status 2, before any work.
# RUN: %expect-exit 2 %declone report %corpus -q --sort speed 2>&1 | %FileCheck %s --check-prefix=BADSORT
# BADSORT: declone report: error: --sort: unknown column 'speed' (one of file, graphs, nodes, clones, removed, kept, layout-changed, {{.*}}, output-alias, unsupported, bytes, symbolic, copies, avoided, copy-bytes, error)
# RUN: %expect-exit 2 %declone report %corpus -q --top 0 2>&1 | %FileCheck %s --check-prefix=BADTOP
# BADTOP: declone report: error: --top takes a number of at least 1, not '0'
# RUN: %expect-exit 2 %declone report %corpus -q -j many 2>&1 | %FileCheck %s --check-prefix=BADJOBS
# BADJOBS: declone report: error: --jobs takes a number of at least 1, not 'many'
# RUN: %expect-exit 2 %declone report 2>&1 | %FileCheck %s --check-prefix=NOPATH
# NOPATH: declone report: error: missing argument PATH
# RUN: %declone report --help | %FileCheck %s --check-prefix=HELP
# HELP: usage: declone report PATH... [options]
# HELP: --sort COL
# HELP: --mode safe|vllm
# HELP-NOT: --donated
# HELP: --jobs N

# --mode vllm-0.32 reports vLLM's decisions instead: it lets the output alias the input.
# RUN: %declone report %s -q --mode vllm-0.32 | %FileCheck %s --check-prefix=VLLM
# RUN: %declone report %s -q | %FileCheck %s --check-prefix=SAFE
# VLLM: json-sort-top.fx 1 3 1 1 0 4.0 KiB
# SAFE: json-sort-top.fx 1 3 1 0 1 1 0 B
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[32, 32][32, 1]cpu"):
        clone: "f32[32, 32][32, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        return (clone,)
