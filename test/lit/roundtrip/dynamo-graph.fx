# A Dynamo graph (torch 2.13, print_readable with strides and devices): placeholders bound
# to their node names first (`l_x_ = L_x_`), Tensor method calls, an Ellipsis index tuple, a
# complex literal and an in-place method that frees itself. Read and printed back unchanged.
# RUN: %declone print %s | diff %s -
class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[20][1]cpu", L_y_: "f32[20][1]cpu"):
        l_x_ = L_x_
        l_y_ = L_y_

        # File: /tmp/model/model.py:8 in f, code: a = x.clone()
        a: "f32[20][1]cpu" = l_x_.clone()

        # File: /tmp/model/model.py:9 in f, code: a.add_(y)
        add_: "f32[20][1]cpu" = a.add_(l_y_);  l_y_ = add_ = None

        # File: /tmp/model/model.py:10 in f, code: b = x.view(4, 5).clone()
        view: "f32[4, 5][5, 1]cpu" = l_x_.view(4, 5)
        b: "f32[4, 5][5, 1]cpu" = view.clone();  view = None

        # File: /tmp/model/model.py:11 in f, code: c = x[..., 0]
        c: "f32[][]cpu" = l_x_[(Ellipsis, 0)];  l_x_ = None

        # File: /tmp/model/model.py:12 in f, code: d = a * (1+2j)
        d: "c64[20][1]cpu" = a * (1+2j)

        # File: /tmp/model/model.py:13 in f, code: return a.t(), b, c.clone(), d
        t: "f32[20][1]cpu" = a.t();  a = None
        clone_2: "f32[][]cpu" = c.clone();  c = None
        return (t, b, clone_2, d)

class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 5][5, 1]cpu"):
        l_x_ = L_x_

        # File: /tmp/model/model.py:17 in g, code: return x[:, :3].contiguous(), x.transpose(0,1).clone(memory_format=torch.contiguous_format)
        getitem: "f32[4, 3][5, 1]cpu" = l_x_[(slice(None, None, None), slice(None, 3, None))]
        contiguous: "f32[4, 3][3, 1]cpu" = getitem.contiguous();  getitem = None
        transpose: "f32[5, 4][1, 5]cpu" = l_x_.transpose(0, 1);  l_x_ = None
        clone: "f32[5, 4][4, 1]cpu" = transpose.clone(memory_format = torch.contiguous_format);  transpose = None
        return (contiguous, clone)
