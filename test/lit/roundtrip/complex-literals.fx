# make_fx (torch 1.13) writes Python complex scalars as repr() spells them: parenthesised with
# a sign between the parts, bare imaginary numbers, exponents with a sign, inf and nan.
# RUN: %declone print %s | diff %s -



def forward(self, x_1):
    mul = torch.ops.aten.mul.Tensor(x_1, (1+2j))
    mul_1 = torch.ops.aten.mul.Tensor(x_1, -2j);  x_1 = None
    add = torch.ops.aten.add.Tensor(mul, (1e+20+1j))
    add_1 = torch.ops.aten.add.Tensor(add, (nan+infj));  add = None
    add_2 = torch.ops.aten.add.Tensor(add_1, infj);  add_1 = None
    add_3 = torch.ops.aten.add.Tensor(add_2, (1.5-2.5e-07j));  add_2 = None
    add_4 = torch.ops.aten.add.Tensor(add_3, (-0-2j));  add_3 = None
    clone = torch.ops.aten.clone.default(mul);  mul = None
    return (clone, mul_1, add_4)
    