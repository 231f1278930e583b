# auto_functionalized_v2 returns op's results (one slot for an op that returns nothing), then a
# copy of each of `_all_bases`, made by clone_preserve_strides: a copy keeps its base's strides
# and storage offset, whichever view of the base (`_input_base_index`, `_input_size`, ...) op
# mutated. A base whose layout is unknown gives a copy whose layout is unknown.
# Reinplacing may leave arguments out of the copies (`_only_clone_these_bases` for v2,
# `_only_clone_these_tensors` for v1): op writes those in place and returns them, so a clone
# passed there is written, and must stay when its source is a graph input.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
# Dropping clone_3, as the model of copies only did, lets op write graph input arg3_1, which the
# next call reads:
# RUN: %expect-exit 1 %declone verify %s %S/../verify/Inputs/functionalized-reinplaced-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: functionalized-reinplaced-clone-dropped.fx: not equivalent to {{.*}}functionalized-v2.fx: output 4: values differ
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu", arg1_1: "f32[2, 8][8, 1]cpu@8", arg2_1: "f32[8][1]cpu", arg3_1: "f32[2, 8][8, 1]cpu"):
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops._C.fused_add_rms_norm.default, weight = arg2_1, epsilon = 1e-06, _input_base_index = 0, _input_size = (2, 8), _input_stride = (8, 1), _input_storage_offset = 16, _residual_base_index = 1, _all_bases = [arg0_1, arg1_1])
        getitem: "f32[4, 8][8, 1]cpu" = auto_functionalized_v2[1]
        getitem_1: "f32[2, 8][8, 1]cpu" = auto_functionalized_v2[-1];  auto_functionalized_v2 = None
        clone: "f32[4, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem, memory_format = torch.contiguous_format);  getitem = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        clone_1: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem_1, memory_format = torch.contiguous_format);  getitem_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-changed]: storage offset 0 != 8
        arange: "i64[2][1]cpu" = torch.ops.aten.arange.default(2, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        index: "f32[2, 8][8, 1]cpu" = arg0_1[arange];  arange = None
        auto_functionalized_v2_1 = torch.ops.higher_order.auto_functionalized_v2(torch.ops._C.rms_norm.default, input = arg3_1, weight = arg2_1, epsilon = 1e-06, _result_base_index = 0, _all_bases = [index]);  index = None
        getitem_2: "f32[2, 8][8, 1]cpu" = auto_functionalized_v2_1[1];  auto_functionalized_v2_1 = None
        clone_2: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [layout-unknown]: storage offset of getitem_2 is unknown
        clone_3: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(arg3_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [input-mutation]: auto_functionalized_v2_2 (line [[@LINE+1]]) writes clone_3; arg3_1 is a graph input that is not donated
        auto_functionalized_v2_2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops._C.rms_norm.default, input = arg3_1, weight = arg2_1, epsilon = 1e-06, _result_base_index = 0, _all_bases = [clone_3], _only_clone_these_bases = []);  clone_3 = None
        getitem_3: "f32[2, 8][8, 1]cpu" = auto_functionalized_v2_2[1];  auto_functionalized_v2_2 = None
        clone_4: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(arg3_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [input-mutation]: auto_functionalized (line [[@LINE+1]]) writes clone_4; arg3_1 is a graph input that is not donated
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.fused_add_rms_norm.default, input = arg3_1, residual = clone_4, weight = arg2_1, epsilon = 1e-06, _only_clone_these_tensors = ['input']);  clone_4 = None
        getitem_4: "f32[2, 8][8, 1]cpu" = auto_functionalized[2];  auto_functionalized = None
        add: "f32[4, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(clone, 1);  clone = None
        return (add, clone_1, clone_2, getitem_3, getitem_4)
