# After the call the input's copy is set_ to another tensor and the input written back: in
# place, set_ would change the caller's tensor (found by the property test, seed 4618).
# RUN: %declone opt %s --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# CHECK: copy of '_all_bases[2]' in 'auto_functionalized_v2' kept [input-mutation]: set_ (line {{[0-9]+}}) changes the layout of
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[1, 1][3, 1]cpu"):
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.hadacore_transform.default, x = arg0_1, inplace = False, _only_clone_these_tensors = ['x'])
        getitem: "f32[1, 1][1, 1]cpu" = auto_functionalized[0]
        getitem_1: "f32[1, 1][3, 1]cpu" = auto_functionalized[1];  auto_functionalized = None
        mul_ = torch.ops.aten.mul_.Tensor(arg0_1, 2)
        neg: "f32[1, 1][1, 1]cpu" = torch.ops.aten.neg.default(mul_);  mul_ = None
        empty: "f32[1, 1]cpu" = torch.ops.aten.empty.memory_format([1, 1], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops._C.rms_norm_dynamic_per_token_quant.default, input = getitem_1, weight = getitem, epsilon = 1e-06, scale_ub = None, _result_base_index = 0, _scale_base_index = 1, _residual_base_index = 2, _residual_slice_dim = 1, _residual_slice_start = 0, _residual_slice_end = 1, _all_bases = [neg, empty, arg0_1], _only_clone_these_bases = [1, 2]);  getitem_1 = neg = empty = None
        getitem_2: "f32[1, 1][1, 1]cpu" = auto_functionalized_v2[1]
        getitem_4: "f32[1, 1][3, 1]cpu" = auto_functionalized_v2[3];  auto_functionalized_v2 = None
        set_: "f32[1, 1][1, 1]cpu" = torch.ops.aten.set_.source_Tensor(getitem_4, getitem_2);  getitem_2 = None
        split = torch.ops.aten.split.Tensor(getitem, 1, 1);  getitem = None
        getitem_5: "f32[1, 1][1, 1]cpu" = split[0];  split = None
        clone: "f32[1, 1][1, 1]cpu" = torch.ops.aten.clone.default(getitem_5);  getitem_5 = None
        copy_: "f32[1, 1][3, 1]cpu" = torch.ops.aten.copy_.default(arg0_1, getitem_4);  arg0_1 = getitem_4 = None
        return (clone,)
