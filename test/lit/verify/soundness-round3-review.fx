# Issue 29, the adversarial review, executed: to_sparse with layout=torch.strided returns its
# input, and sparse_coo_tensor keeps its values tensor, although both schemas declare new
# tensors. Dropping the clone in front of either changes the graph input through the alias. The
# safe mode keeps both (lit opt/soundness-round3-review.fx) and its rewrite verifies.
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/to-sparse-strided-clone-dropped.fx | %FileCheck %s --check-prefix=TO-SPARSE
# TO-SPARSE: to-sparse-strided-clone-dropped.fx: not equivalent to {{.*}}soundness-round3-review.fx: input 0 (arg0_1): values differ
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/sparse-coo-values-clone-dropped.fx | %FileCheck %s --check-prefix=SPARSE-COO
# SPARSE-COO: sparse-coo-values-clone-dropped.fx: not equivalent to {{.*}}soundness-round3-review.fx: input 1 (arg1_1): values differ
# RUN: %declone opt %s --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4][1]cpu"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        to_sparse: "f32[4, 4][4, 1]cpu" = torch.ops.aten.to_sparse.default(clone, layout = torch.strided);  clone = None
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(to_sparse, 1);  to_sparse = None
        arange: "i64[4][1]cpu" = torch.ops.aten.arange.default(4, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        unsqueeze: "i64[1, 4][4, 1]cpu" = torch.ops.aten.unsqueeze.default(arange, 0);  arange = None
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        sparse = torch.ops.aten.sparse_coo_tensor.indices(unsqueeze, clone_1);  unsqueeze = clone_1 = None
        _values: "f32[4][1]cpu" = torch.ops.aten._values.default(sparse);  sparse = None
        add__1: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(_values, 1);  _values = None
        return (add_, add__1)
