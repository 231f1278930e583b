# --remarks=json writes one object per clone with node, line, decision, reason and detail;
# --stats counts decisions per reason and the bytes of copying removed (static sizes only);
# `unsupported`, a code of vllm mode only, has a row in vllm mode only. With both, standard error
# stays JSON Lines: the remarks, then one {"stats": ...} object.
# RUN: %declone opt %s --remarks=json 2>&1 >/dev/null | %FileCheck %s --check-prefix=JSON
# RUN: %declone opt %s --stats 2>&1 >/dev/null | %FileCheck %s --check-prefix=STATS --implicit-check-not=unsupported
# RUN: %declone opt %s --mode vllm --stats 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# RUN: %declone opt %s --remarks=json --stats 2>&1 >/dev/null | python3 -c 'import json, sys; rows = [json.loads(line) for line in sys.stdin]; print(len(rows), json.dumps(rows[-1]))' | %FileCheck %s --check-prefix=JSONSTATS
# JSONSTATS: 4 {"stats": {"clones": 3, "removed": 2, "dead": 1, "kept": {"layout-changed": 1, "layout-unknown": 0,
# JSONSTATS-SAME: "bytes_removed": 128, "removed_symbolic": 0}}
# RUN: %expect-exit 2 %declone opt %s --remarks=yaml 2>&1 | %FileCheck %s --check-prefix=BADFMT
# RUN: %expect-exit 2 %declone opt %s --mode fast 2>&1 | %FileCheck %s --check-prefix=BADMODE
# JSON: {"node": "clone", "line": 29, "decision": "removed", "reason": null, "detail": "", "source": null, "code": null}
# JSON-NEXT: {"node": "clone_1", "line": 31, "decision": "kept", "reason": "layout-changed", "detail": "strides [4, 1] != [1, 4]", "source": null, "code": null}
# JSON-NEXT: {"node": "clone_2", "line": 32, "decision": "removed", "reason": null, "detail": "no users", "source": null, "code": null}
# STATS: 3 clones seen
# STATS: 2 clones removed
# STATS: 1   of which dead (no users)
# STATS: 1 clones kept [layout-changed]
# STATS: 0 clones kept [layout-unknown]
# STATS: 128 bytes of copying removed (static sizes)
# STATS: 0 removed clones with symbolic sizes
# VLLM: 0 clones kept [output-alias]
# VLLM-NEXT: 0 clones kept [unsupported]
# BADFMT: declone opt: error: --remarks must be 'text' or 'json', not 'yaml'
# BADMODE: declone opt: error: --mode must be 'safe', 'vllm' (vLLM 0.33.0) or 'vllm-0.32', not 'fast'
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1)
        t: "f32[4, 4][1, 4]cpu" = torch.ops.aten.t.default(arg0_1)
        clone_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(t, memory_format = torch.contiguous_format);  t = None
        clone_2: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        add: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add.Tensor(clone, clone_1);  clone = clone_1 = None
        return (add,)
