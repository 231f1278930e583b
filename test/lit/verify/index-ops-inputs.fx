# More index arguments bound the integer inputs they come from: index.Tensor's i-th index (into
# self's dimension i), scatter's and index_add's index (into self's dimension `dim`) and
# embedding_dense_backward's indices (below num_weights). The 3-row tensors would be indexed out
# of range by values up to 16. --int-range sets the range of the other integer inputs (and is
# still clipped to what an index reaches); a bad range is a usage error.
# RUN: %declone opt %s --verify --remarks 2>&1 >/dev/null | %FileCheck %s
# CHECK: remark: clone 'clone' removed
# RUN: %declone verify %s %s --trials 3 | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (3 runs)
# RUN: %declone verify %s %s --int-range=-5:100 | %FileCheck %s --check-prefix=SAME1
# SAME1: equivalent (1 run)
# RUN: %expect-exit 2 %declone verify %s %s --int-range 4 2>&1 | %FileCheck %s --check-prefix=BADRANGE
# BADRANGE: declone verify: error: --int-range takes LO:HI with LO < HI, not '4'
def forward(self, x: "f32[3, 4][4, 1]cpu", i: "i64[5][1]cpu", j: "i64[2, 4][4, 1]cpu", k: "i64[6][1]cpu", grad: "f32[6, 4][4, 1]cpu", other: "i64[4][1]cpu"):
    index: "f32[5, 4][4, 1]cpu" = torch.ops.aten.index.Tensor(x, [i])
    clone: "f32[5, 4][4, 1]cpu" = torch.ops.aten.clone.default(index);  index = None
    scatter: "f32[3, 4][4, 1]cpu" = torch.ops.aten.scatter.value(x, 0, j, 1.0)
    index_add: "f32[3, 4][4, 1]cpu" = torch.ops.aten.index_add.default(x, 0, i, clone)
    backward: "f32[3, 4][4, 1]cpu" = torch.ops.aten.embedding_dense_backward.default(grad, k, 3, -1, False)
    add: "i64[4][1]cpu" = torch.ops.aten.add.Tensor(other, 1);  other = None
    return (clone, scatter, index_add, backward, add)
