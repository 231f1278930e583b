# Text that is not in PyTorch's exact spelling (spacing, keyword `=`, missing or wrong free
# lists, `operator.mul(...)` written as a call) is printed in canonical form.
# RUN: %declone print %s | %FileCheck %s
# RUN: %declone print %s | %declone print - | %FileCheck %s
def forward(self, x: "f32[4]", n: "Sym(s0)"):
    add = torch.ops.aten.add.Tensor( x,x , alpha=2 )
    # CHECK: {{^}}    add = torch.ops.aten.add.Tensor(x, x, alpha = 2);  x = None
    mul = operator.mul(n, 2)
    # CHECK: {{^}}    mul = n * 2;  n = None
    relu = torch.ops.aten.relu.default(add);  add = mul = None
    # CHECK: {{^}}    relu = torch.ops.aten.relu.default(add);  add = None
    return [relu , mul]
    # CHECK: {{^}}    return [relu, mul]
