# Higher-order ops torch 2.13 leaves in post-grad graphs. with_effects(token, op, ...) threads an
# effect token through an op with side effects (here aten._print): it touches only its token,
# so clone goes. triton_kernel_wrapper_functional runs a user Triton kernel on copies of the
# tensors it lists in tensors_to_clone and on the others themselves, which the kernel may write
# (Inductor's reinplacing takes a tensor off the list when the kernel may write it in place,
# and post-grad dumps are taken after it): clone_1, its in_ptr0, is kept.
# triton_kernel_wrapper_mutation lets the kernel write its arguments in place, and declone has
# no model of which: clone_2 is kept (dropping it would let the kernel write input arg2_1).
# Each is printed back unchanged.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone print %s | diff %s -
# CHECK: :[[#@LINE+5]]: remark: clone 'clone' removed
# CHECK: :[[#@LINE+7]]: remark: clone 'clone_1' kept [input-mutation]: triton_kernel_wrapper_functional_proxy (line [[#@LINE+9]]) writes clone_1; arg2_1 is a graph input that is not donated
# CHECK: :[[#@LINE+10]]: remark: clone 'clone_2' kept [unknown-effects]: triton_kernel_wrapper_mutation (line [[#@LINE+11]]) touches clone_2: higher-order op triton_kernel_wrapper_mutation has no effect model
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[0][1]cpu", arg1_1: "f32[4, 4][4, 1]cpu", arg2_1: "f32[4, 4][4, 1]cpu"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg1_1)
        with_effects = torch.ops.higher_order.with_effects(arg0_1, torch.ops.aten._print.default, 'moo');  arg0_1 = None
        getitem: "f32[0][1]cpu" = with_effects[0];  with_effects = None
        clone_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg2_1)
        empty: "f32[4, 4][4, 1]cpu" = torch.ops.aten.empty.memory_format([4, 4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        triton_kernel_wrapper_functional_proxy = torch.ops.higher_order.triton_kernel_wrapper_functional(kernel_idx = 0, constant_args_idx = 0, grid = [(4, 1, 1)], tma_descriptor_metadata = {}, kwargs = {'in_ptr0': clone_1, 'out_ptr': empty}, tensors_to_clone = ['out_ptr']);  clone_1 = empty = None
        getitem_1: "f32[4, 4][4, 1]cpu" = triton_kernel_wrapper_functional_proxy['out_ptr'];  triton_kernel_wrapper_functional_proxy = None
        clone_2: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg2_1)
        triton_kernel_wrapper_mutation = torch.ops.higher_order.triton_kernel_wrapper_mutation(kernel_idx = 1, constant_args_idx = 1, grid = [(4, 1, 1)], tma_descriptor_metadata = {}, kwargs = {'in_out_ptr0': clone_2});  triton_kernel_wrapper_mutation = None
        add: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add.Tensor(clone, arg1_1);  clone = arg1_1 = None
        add_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add.Tensor(clone_2, arg2_1);  clone_2 = arg2_1 = None
        return (getitem, add, getitem_1, add_1)
