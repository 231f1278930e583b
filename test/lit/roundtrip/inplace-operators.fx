# A Dynamo graph from torch 2.13 with in-place Python operators, which FX prints target first:
# `a += l_y_;  a_1 = a` is a_1 = operator.iadd(a, l_y_), and `a_1[0] = 1.0;  setitem = a_1` is
# operator.setitem(a_1, 0, 1.0) (a node that frees itself). Read and printed back unchanged.
# RUN: %declone print %s | diff %s -
# The effects of these operators: test/lit/opt/inplace-python-operators.fx.
class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[3, 4][4, 1]cpu", L_y_: "f32[3, 4][4, 1]cpu"):
        l_x_ = L_x_
        l_y_ = L_y_

        # File: /tmp/small/gen.py:3 in f, code: a = x * 2
        a: "f32[3, 4][4, 1]cpu" = l_x_ * 2;  l_x_ = None

        # File: /tmp/small/gen.py:4 in f, code: a += y
        a += l_y_;  a_1: "f32[3, 4][4, 1]cpu" = a;  a = l_y_ = None

        # File: /tmp/small/gen.py:5 in f, code: a[0] = 1.0
        a_1[0] = 1.0;  setitem = a_1;  setitem = None

        # File: /tmp/small/gen.py:6 in f, code: b = a.t().contiguous()
        t: "f32[4, 3][1, 4]cpu" = a_1.t();  a_1 = None
        b: "f32[4, 3][3, 1]cpu" = t.contiguous();  t = None

        # File: /tmp/small/gen.py:7 in f, code: return b.sin()
        sin: "f32[4, 3][3, 1]cpu" = b.sin();  b = None
        return (sin,)

