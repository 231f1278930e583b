# Some libtorch kernels index tensor arguments without checking their sizes: the fused observer
# ops element 0 of running_min, running_max, scale and zero_point (one element per channel with
# per_row_fake_quant), rrelu_with_noise in training one element of noise per element of self.
# A graph that passes too small a one (here an empty slice, as a broken rewrite made it in the
# property test at seed 45955; a noise that set_ made smaller at seed 98741) would read or write
# out of bounds and crash the verifier: it is refused as a graph that cannot run, exit 2 naming
# node and op.
# RUN: %expect-exit 2 %declone verify %s %s 2>&1 | %FileCheck %s
# RUN: %expect-exit 2 %declone verify %S/Inputs/unchecked-noise.fx %S/Inputs/unchecked-noise.fx 2>&1 | %FileCheck %s --check-prefix=NOISE
# NOISE: unchecked-noise.fx:5: error: cannot execute rrelu_with_noise_: aten::rrelu_with_noise_ does not run here: noise has room for 15 elements and the kernel indexes 60 unchecked
# CHECK: unchecked-kernel.fx:[[#@LINE+8]]: error: cannot execute _fused_moving_avg_obs_fq_helper: aten::_fused_moving_avg_obs_fq_helper does not run here: running_min has room for 0 elements and the kernel indexes 1 unchecked
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[1, 5][5, 1]cpu", arg1_1: "f32[1][1]cpu", arg2_1: "f32[1][1]cpu"):
        slice_1: "f32[0, 5][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 0, 4, 5)
        ones: "i64[1][1]cpu" = torch.ops.aten.ones.default([1], dtype = torch.int64)
        zeros: "i64[1][1]cpu" = torch.ops.aten.zeros.default([1], dtype = torch.int64)
        ones_1: "f32[1][1]cpu" = torch.ops.aten.ones.default([1])
        zeros_1: "i32[1][1]cpu" = torch.ops.aten.zeros.default([1], dtype = torch.int32)
        _fused_moving_avg_obs_fq_helper = torch.ops.aten._fused_moving_avg_obs_fq_helper.default(arg0_1, ones, zeros, slice_1, arg2_1, ones_1, zeros_1, 0.01, 0, 255, 0)
        getitem: "f32[1, 5][5, 1]cpu" = _fused_moving_avg_obs_fq_helper[0]
        return (getitem,)
