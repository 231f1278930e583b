# A rewritten Dynamo-style graph is printed in canonical form: the parameters keep their
# signature names and their `l_x_ = L_x_` bindings, the method call and the Ellipsis index
# take the clone's source, the complex literal is written as it was read, and the free lists
# are recomputed.
# RUN: %declone opt %s | %FileCheck %s
# RUN: %declone opt %s | %declone print - | %FileCheck %s
# CHECK:      def forward(self, L_x_: "f32[4, 5][5, 1]cpu", L_y_: "c64[4, 5][5, 1]cpu"):
# CHECK-NEXT:     l_x_ = L_x_
# CHECK-NEXT:     l_y_ = L_y_
# CHECK-NEXT:     mul: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(l_x_, 2);  l_x_ = None
# CHECK-NEXT:     sum_1: "f32[][]cpu" = mul.sum()
# CHECK-NEXT:     getitem: "f32[4][5]cpu" = mul[(Ellipsis, 0)];  mul = None
# CHECK-NEXT:     mul_1: "c64[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(l_y_, (1-2.5e-07j));  l_y_ = None
# CHECK-NEXT:     return (sum_1, getitem, mul_1)
class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 5][5, 1]cpu", L_y_: "c64[4, 5][5, 1]cpu"):
        l_x_ = L_x_
        l_y_ = L_y_
        mul: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(l_x_, 2);  l_x_ = None
        clone: "f32[4, 5][5, 1]cpu" = torch.ops.aten.clone.default(mul);  mul = None
        sum_1: "f32[][]cpu" = clone.sum()
        getitem: "f32[4][5]cpu" = clone[(Ellipsis, 0)];  clone = None
        mul_1: "c64[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(l_y_, (1-2.5e-07j));  l_y_ = None
        return (sum_1, getitem, mul_1)
