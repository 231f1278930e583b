# `declone analyze` shows, per clone, its source, the layouts, both storages with the accesses
# after the clone, and the decision.
# RUN: %declone analyze %s | %FileCheck %s
# CHECK: clone clone (line [[#@LINE+12]])
# CHECK-NEXT:   source:         slice_1 (line [[#@LINE+10]])
# CHECK-NEXT:   clone layout:   f32[4, 3][3, 1]cpu@0
# CHECK-NEXT:   source layout:  f32[4, 3][5, 1]cpu@0
# CHECK-NEXT:   clone storage:  #1, created by clone, returned
# CHECK-NEXT:       written by add_ (line [[#@LINE+8]]) (as clone)
# CHECK-NEXT:       returned (as add_)
# CHECK-NEXT:   source storage: #0, created by arg0_1, a graph input (not donated)
# CHECK:   decision:       {{.*}}analyze.fx:[[#@LINE+4]]: remark: clone 'clone' kept [layout-changed]: strides [3, 1] != [5, 1]
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu"):
        slice_1: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 3);  arg0_1 = None
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        add_: "f32[4, 3][3, 1]cpu" = torch.ops.aten.add_.Tensor(clone, 1);  clone = None
        return (add_,)
