# as_strided's result starts at its storage_offset argument. prims declares its as_strided
# `Tensor(a!) -> Tensor(a!)`, which read literally makes the result the argument itself at the
# argument's offset (0): the clone of a view 3 elements in was removed. An offset that cannot be
# read is unknown, not the input's (an absent or None one is the input's).
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --mode=vllm --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
def forward(self, arg0_1: "f32[16][1]cpu", arg1_1: "Sym(s0)", arg2_1: "i64[][]cpu"):
    add: "f32[16][1]cpu" = torch.ops.aten.add.Tensor(arg0_1, 1)
    mul: "f32[16][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
    as_strided: "f32[4][1]cpu" = torch.ops.prims.as_strided.default(add, [4], [1], 3)
    clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(as_strided, memory_format = torch.contiguous_format);  as_strided = None
    # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [layout-changed]: storage offset 0 != 3
    # VLLM: :[[@LINE-2]]: remark: clone 'clone' kept [layout-changed]
    as_strided_1: "f32[4][1]cpu" = torch.ops.prims.as_strided.default(add, [4], [1], 0)
    clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(as_strided_1, memory_format = torch.contiguous_format);  as_strided_1 = None
    # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' removed
    add_1: "Sym(s0 + 1)" = arg1_1 + 1
    as_strided_2: "f32[4][1]cpu" = torch.ops.aten.as_strided.default(add, [4], [1], add_1)
    clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(as_strided_2, memory_format = torch.contiguous_format);  as_strided_2 = None
    # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [layout-changed]: storage offset 0 != s0 + 1
    item = torch.ops.aten.item.default(arg2_1);  arg2_1 = None
    as_strided_3: "f32[4][1]cpu" = torch.ops.aten.as_strided.default(add, [4], [1], item)
    clone_3: "f32[4][1]cpu" = torch.ops.aten.clone.default(as_strided_3, memory_format = torch.contiguous_format);  as_strided_3 = None
    # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [layout-unknown]: storage offset of as_strided_3 is unknown
    as_strided_4: "f32[4][1]cpu" = torch.ops.aten.as_strided.default(mul, [4], [1]);  mul = None
    clone_4: "f32[4][1]cpu" = torch.ops.aten.clone.default(as_strided_4, memory_format = torch.contiguous_format);  as_strided_4 = None
    # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' removed
    return (clone, clone_1, clone_2, clone_3, clone_4)
