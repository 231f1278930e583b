# Malformed complex literals and placeholder bindings are located errors with exit status 2: a
# complex literal without its closing parenthesis or with a name glued to it, a second binding
# of a parameter, a binding that reuses a parameter's name, and `Ellipsis` where a call is due.
# RUN: printf 'def forward(self, x):\n    mul = torch.ops.aten.mul.Tensor(x, (1+2j);  x = None\n    return mul\n' > %t.unclosed
# RUN: %expect-exit 2 %declone print %t.unclosed 2>&1 | %FileCheck %s --check-prefix=UNCLOSED
# UNCLOSED: .unclosed:2:46: error: expected ',' or ')', found ';'
# RUN: printf 'def forward(self, x):\n    mul = torch.ops.aten.mul.Tensor(x, 2jx)\n    return mul\n' > %t.glued
# RUN: %expect-exit 2 %declone print %t.glued 2>&1 | %FileCheck %s --check-prefix=GLUED
# GLUED: .glued:2:40: error: malformed number
# RUN: printf 'def forward(self, L_x_):\n    l_x_ = L_x_\n    m_x_ = L_x_\n    return l_x_\n' > %t.twice
# RUN: %expect-exit 2 %declone print %t.twice 2>&1 | %FileCheck %s --check-prefix=TWICE
# TWICE: .twice:3:5: error: parameter 'L_x_' is bound twice
# RUN: printf 'def forward(self, L_x_, l_x_):\n    l_x_ = L_x_\n    return l_x_\n' > %t.reused
# RUN: %expect-exit 2 %declone print %t.reused 2>&1 | %FileCheck %s --check-prefix=REUSED
# REUSED: .reused:2:5: error: redefinition of 'l_x_'
# CHECK-NOT: Traceback
class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4][1]cpu"):
        l_x_ = L_x_
        getitem: "f32[][]cpu" = l_x_[(Ellipsis, 0)];  l_x_ = None
        e = Ellipsis
        return (getitem, e)
# RUN: %expect-exit 2 %declone print %s 2>&1 | %FileCheck %s
# CHECK: complex-ellipsis-rebinding.fx:21:21: error: expected a call or an operator, found end of line
