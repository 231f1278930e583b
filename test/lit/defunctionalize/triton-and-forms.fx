# triton_kernel_wrapper_functional becomes triton_kernel_wrapper_mutation, its copies the
# tensors it names; rotary embedding's q and k, column slices of one matmul scattered back
# into it, are written in place (they share the matmul's storage but no element), and the
# scatters become the matmul; a donated input is written in place; a call used other than by
# getitem is left alone. Bytes are what clone_preserve_strides copies: q's 160 reach the end of
# its last row, k's 176 start 4 floats later.
# RUN: %declone opt %s --defunctionalize --donated arg3_1 --remarks=json --stats -o %t.fx 2> %t.err
# RUN: %FileCheck %s < %t.err
# RUN: %FileCheck %s --check-prefix=GRAPH < %t.fx
# CHECK: {"node": "triton_kernel_wrapper_functional_proxy", "line": [[#]], "decision": "removed", "reason": null, "detail": "written in place: empty", "source": null, "code": null, "copy": "out_ptr", "bytes": 64}
# CHECK: {"node": "auto_functionalized", {{.*}}"decision": "removed", {{.*}}"copy": "query", "bytes": 160}
# CHECK: {"node": "auto_functionalized", {{.*}}"decision": "removed", {{.*}}"copy": "key", "bytes": 176}
# CHECK: {"node": "auto_functionalized_1", {{.*}}"decision": "removed", {{.*}}"copy": "result", "bytes": 64}
# CHECK: {"node": "auto_functionalized_2", {{.*}}"decision": "kept", "reason": "not-rewritable", "detail": "list_1 uses the call other than by getitem", {{.*}}"copy": "result", "bytes": 64}
# CHECK: {"copy_stats": {"calls": 4, "rewritten": 3, "copies": 5, "avoided": 4, "kept": {"not-rewritable": 1, "view-replay": 0, "unknown-effects": 0, "input-mutation": 0, "argument-overlap": 0, "source-read-after-write": 0, "output-alias": 0, "call-kept": 0}, "bytes_avoided": [[#]], "avoided_symbolic": 0}}
# GRAPH: triton_kernel_wrapper_mutation = torch.ops.higher_order.triton_kernel_wrapper_mutation(kernel_idx = 0, constant_args_idx = 1, grid = [(4, 1, 1)], tma_descriptor_metadata = {}, kwargs = {'in_ptr0': arg0_1, 'out_ptr': empty, 'n': 16})
# GRAPH: rotary_embedding = torch.ops._C.rotary_embedding.default(positions = arg2_1, query = getitem, key = getitem_1, head_size = 4, cos_sin_cache = arg1_1, is_neox = True)
# GRAPH: rms_norm = torch.ops._C.rms_norm.default(result = arg3_1,
# GRAPH: return (empty, mm, arg3_1, list_1)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[16, 4][4, 1]cpu", arg2_1: "i64[4][1]cpu", arg3_1: "f32[4, 4][4, 1]cpu", arg4_1: "f32[4, 12][12, 1]cpu"):
        empty: "f32[4, 4][4, 1]cpu" = torch.ops.aten.empty.memory_format([4, 4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        triton_kernel_wrapper_functional_proxy = torch.ops.higher_order.triton_kernel_wrapper_functional(kernel_idx = 0, constant_args_idx = 1, grid = [(4, 1, 1)], tma_descriptor_metadata = {}, kwargs = {'in_ptr0': arg0_1, 'out_ptr': empty, 'n': 16}, tensors_to_clone = ['out_ptr'])
        getitem_5: "f32[4, 4][4, 1]cpu" = triton_kernel_wrapper_functional_proxy['out_ptr']
        mm: "f32[4, 12][12, 1]cpu" = torch.ops.aten.mm.default(arg4_1, arg4_1.t())
        split_with_sizes = torch.ops.aten.split_with_sizes.default(mm, [4, 4, 4], -1)
        getitem: "f32[4, 4][12, 1]cpu" = split_with_sizes[0]
        getitem_1: "f32[4, 4][12, 1]cpu@4" = split_with_sizes[1]
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rotary_embedding.default, positions = arg2_1, query = getitem, key = getitem_1, head_size = 4, cos_sin_cache = arg1_1, is_neox = True)
        getitem_2: "f32[4, 4][12, 1]cpu" = auto_functionalized[1]
        getitem_3: "f32[4, 4][12, 1]cpu@4" = auto_functionalized[2]
        slice_scatter: "f32[4, 12][12, 1]cpu" = torch.ops.aten.slice_scatter.default(mm, getitem_2, 1, 0, 4)
        slice_scatter_1: "f32[4, 12][12, 1]cpu" = torch.ops.aten.slice_scatter.default(slice_scatter, getitem_3, 1, 4, 8)
        auto_functionalized_1 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = arg3_1, input = getitem_5, weight = arg1_1, epsilon = 1e-06)
        getitem_7: "f32[4, 4][4, 1]cpu" = auto_functionalized_1[1]
        empty_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.empty.memory_format([4, 4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        auto_functionalized_2 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = empty_1, input = getitem_5, weight = arg1_1, epsilon = 1e-06)
        list_1 = list(auto_functionalized_2)
        return (getitem_5, slice_scatter_1, getitem_7, list_1)
