# Rule 1 (layout-changed): the Mamba case. x[:, :3].contiguous() must keep its clone, because
# the custom op needs strides (3, 1) and the slice has (5, 1). Both modes keep it (vLLM's fix).
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
# RUN: %declone opt %s | %FileCheck %s --check-prefix=OUT
# SAFE: mamba-slice-layout.fx:11: remark: clone 'clone' kept [layout-changed]: strides [3, 1] != [5, 1]
# OUT: {{^}}        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[4, 3][3, 1]cpu", arg2_1: "f32[4, 4, 3][12, 3, 1]cpu"):
        slice_1: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 3);  arg0_1 = None
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.causal_conv1d_update.default, x = clone, conv_state = arg2_1, weight = arg1_1, bias_ = None, silu_activation = True, cache_seqlens_ = None, conv_state_indices = None, pad_slot_id = -1);  clone = arg2_1 = None
        getitem_1: "f32[4, 3][3, 1]cpu" = auto_functionalized[1];  auto_functionalized = None
        return (getitem_1,)
