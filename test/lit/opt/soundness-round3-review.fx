# Issue 29, the adversarial review of the widened audit: op facts that were still wrong. Each
# clone is kept; verify/soundness-round3-review.fx proves the first two by execution.
# - to_sparse with layout=torch.strided returns self (the audit's "optionals set" probes).
# - sparse_coo_tensor keeps its indices and values: writes through _values reach the clone.
# - prims.real and prims.imag are views (supplement.schemas now says so, as PyTorch 2.13 does).
# - prims.device_put to the device a tensor is on returns it; _no_grad_embedding_renorm_ writes
#   weight and returns it (hand-written lines: no kernel in libtorch for the audit to run).
# - `x.resize_as(y)` is torch/_tensor.py's method, a view of x, not aten::resize_as.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4][1]cpu", arg2_1: "c64[4][1]cpu", arg3_1: "f32[4][1]cpu", arg4_1: "f32[4, 4][4, 1]cpu", arg5_1: "i64[2][1]cpu", arg6_1: "f32[4, 4][4, 1]cpu", arg7_1: "f32[16][1]cpu"):
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [input-mutation]: add_ (line [[@LINE+2]]) writes to_sparse; arg0_1 is a graph input that is not donated
        to_sparse: "f32[4, 4][4, 1]cpu" = torch.ops.aten.to_sparse.default(clone, layout = torch.strided);  clone = None
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(to_sparse, 1);  to_sparse = None
        arange: "i64[4][1]cpu" = torch.ops.aten.arange.default(4, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        unsqueeze: "i64[1, 4][4, 1]cpu" = torch.ops.aten.unsqueeze.default(arange, 0);  arange = None
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [{{input-mutation|unknown-effects}}]
        sparse = torch.ops.aten.sparse_coo_tensor.indices(unsqueeze, clone_1);  unsqueeze = clone_1 = None
        _values: "f32[4][1]cpu" = torch.ops.aten._values.default(sparse);  sparse = None
        add__1: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(_values, 1);  _values = None
        clone_2: "c64[4][1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [input-mutation]: add__2 (line [[@LINE+2]]) writes real; arg2_1 is a graph input that is not donated
        real: "f32[4][2]cpu" = torch.ops.prims.real.default(clone_2);  clone_2 = None
        add__2: "f32[4][2]cpu" = torch.ops.aten.add_.Tensor(real, 1);  real = None
        clone_3: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg3_1);  arg3_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [input-mutation]: add__3 (line [[@LINE+2]]) writes device_put; arg3_1 is a graph input that is not donated
        device_put: "f32[4][1]cpu" = torch.ops.prims.device_put.default(clone_3, device(type='cpu'));  clone_3 = None
        add__3: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(device_put, 1);  device_put = None
        clone_4: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg4_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [input-mutation]: _no_grad_embedding_renorm_ (line [[@LINE+1]]) writes clone_4; arg4_1 is a graph input that is not donated
        _no_grad_embedding_renorm_: "f32[4, 4][4, 1]cpu" = torch.ops.aten._no_grad_embedding_renorm_.default(clone_4, arg5_1, 1.0, 2.0);  clone_4 = arg5_1 = None
        add: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add.Tensor(arg4_1, _no_grad_embedding_renorm_);  arg4_1 = _no_grad_embedding_renorm_ = None
        clone_5: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg6_1);  arg6_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_5' kept [unknown-effects]: resize_as (line [[@LINE+1]]) touches clone_5: method call .resize_as() is no aten op's method
        resize_as: "f32[16][1]cpu" = clone_5.resize_as(arg7_1);  clone_5 = arg7_1 = None
        add__4: "f32[16][1]cpu" = torch.ops.aten.add_.Tensor(resize_as, 1);  resize_as = None
        return (add_, add__1, add__2, add__3, add, add__4)
