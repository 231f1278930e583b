# symbolic_trace (torch 1.13) writes `x[..., 0]` as an index tuple with Ellipsis, and Tensor
# methods as method calls.
# RUN: %declone print %s | diff %s -



def forward(self, x):
    getitem = x[(Ellipsis, 0)]
    clone = getitem.clone();  getitem = None
    getitem_1 = x[(1, Ellipsis, None)];  x = None
    sum_1 = getitem_1.sum();  getitem_1 = None
    add = clone + sum_1;  clone = sum_1 = None
    return add
    