# The prims PyTorch defines in Python, which Inductor leaves in post-grad graphs and libtorch has
# no kernel for, run with declone's own (lib/runtime/PrimsKernels.cpp): each gives what the ATen
# ops it stands for give. prims.iota is arange; the low-memory max pool's window offsets, turned
# back into indices, are max_pool2d_with_indices' indices (a 3x3 window, stride 2, padding 1, over
# 2 x 3 x 9 x 7 values, as in ResNet's stem); convert_element_type is a new tensor of a new dtype.
# RUN: %declone verify %s %S/Inputs/python-prims-as-aten.fx --trials 3 | %FileCheck %s
# CHECK: equivalent (3 runs)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 3, 9, 7][189, 63, 7, 1]cpu"):
        iota: "i64[5][1]cpu" = torch.ops.prims.iota.default(5, start = 2, step = 3, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        _low_memory_max_pool_with_offsets = torch.ops.prims._low_memory_max_pool_with_offsets.default(arg0_1, [3, 3], [2, 2], [1, 1], [1, 1], False)
        getitem: "f32[2, 3, 5, 4][60, 20, 4, 1]cpu" = _low_memory_max_pool_with_offsets[0]
        getitem_1: "i8[2, 3, 5, 4][60, 20, 4, 1]cpu" = _low_memory_max_pool_with_offsets[1];  _low_memory_max_pool_with_offsets = None
        _low_memory_max_pool_offsets_to_indices: "i64[2, 3, 5, 4][60, 20, 4, 1]cpu" = torch.ops.prims._low_memory_max_pool_offsets_to_indices.default(getitem_1, [3, 3], [9, 7], [2, 2], [1, 1], [1, 1]);  getitem_1 = None
        convert_element_type: "f64[2, 3, 9, 7][189, 63, 7, 1]cpu" = torch.ops.prims.convert_element_type.default(arg0_1, torch.float64);  arg0_1 = None
        return (iota, getitem, _low_memory_max_pool_offsets_to_indices, convert_element_type)
