# analyze --json: one object per clone, the keys of opt --remarks=json (with the user's source
# line) and the facts analyze shows; on a graph of a log, the location is the log's line.
# RUN: %declone analyze %s --json | %FileCheck %s
# CHECK: {"node": "clone", "line": [[#@LINE+15]], "decision": "kept", "reason": "layout-changed", "detail": "strides [3, 1] != [5, 1]", "source": "/srv/mamba.py:12", "code": "x = hidden[:, :3].contiguous()", "graph": "GraphModule", "source_node": "slice_1 (line [[#@LINE+14]])", "clone_layout": "f32[4, 3][3, 1]cpu@0", "source_layout": "f32[4, 3][5, 1]cpu@0", "clone_storage": "#2, created by clone", "clone_accesses": ["read by add (line [[#@LINE+20]]) (as clone)"], "source_storage": "#0, created by primals_1, a graph input (not donated)", "source_accesses": []}
# CHECK-NEXT: {"node": "clone_1", "line": [[#@LINE+17]], "decision": "removed", "reason": null, "detail": "", "source": "/srv/mamba.py:13", "code": "y = w.clone() * 2",
# CHECK-NOT: {
# RUN: %expect-exit 2 %declone analyze %s --json --check-annotations 2>&1 | %FileCheck %s --check-prefix=BOTH
# BOTH: declone analyze: error: --check-annotations writes warnings, not JSON; leave out --json
# RUN: %declone analyze '%S/Inputs/torch-2.13-trace.log#inductor_post_grad_graph' | %FileCheck %s --check-prefix=LOG
# LOG: clone clone (line 11)
# LOG: decision: /tmp/t31/model.py:28: remark: clone 'clone' kept [layout-changed]: {{.*}}(q = qkv[..., : self.d].contiguous(); graph: {{.*}}torch-2.13-trace.log#inductor_post_grad_graph:453)



class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 5][5, 1]cpu", primals_2: "f32[4, 3][3, 1]cpu"):
        # File: /srv/mamba.py:12 in forward, code: x = hidden[:, :3].contiguous()
        slice_1: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(primals_1, 1, 0, 3);  primals_1 = None
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None

        # File: /srv/mamba.py:13 in forward, code: y = w.clone() * 2
        clone_1: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(primals_2);  primals_2 = None
        mul: "f32[4, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(clone_1, 2);  clone_1 = None
        add: "f32[4, 3][3, 1]cpu" = torch.ops.aten.add.Tensor(clone, mul);  clone = mul = None
        return (add,)
