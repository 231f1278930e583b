# verify estimates the memory a run needs from the annotations before it allocates anything and
# refuses above --memory-limit (default: half the memory of the machine or its cgroup). Custom ops without a kernel
# run as stand-ins that follow their schema, those that return a tensor too (vllm::all_reduce,
# which the usage guide's Qwen2 dump calls); --schemas gives stand-ins to ops of one's own. The
# verdict names the ops that ran as stand-ins: what they compute follows their schema, not
# their mathematics (stand-ins-listed.fx has more).
# A terminal gets a progress bar; -q turns it off.
# RUN: %expect-exit 2 %declone verify %s %s --memory-limit 100 2>&1 | %FileCheck %s --check-prefix=LIMIT
# The graph calls empty_like, so each graph runs twice (with two fills of what it leaves
# uninitialized), which the estimate counts.
# LIMIT: error: running the graph needs about 832 B (its inputs five times, and every value it computes twice), more than the 100 B limit allows (declone verify --memory-limit SIZE sets it)
# RUN: %declone verify %s %s --memory-limit 1M | %FileCheck %s --check-prefix=STANDINS
# STANDINS: equivalent (1 run; ops run as stand-ins, not their own kernels: _C::rms_norm, vllm::all_reduce){{$}}
# Sizes whose storage would overflow 64 bits are an error, not an abort; so is an integer range
# a dtype cannot hold, which is otherwise clipped to the dtype (u8: [0, 5) of -5:5).
# RUN: printf 'def forward(self, x: "f32[2305843009213693952][1]cpu"):\n    neg: "f32[2305843009213693952][1]cpu" = torch.ops.aten.neg.default(x);  x = None\n    return (neg,)\n' > %t.huge
# RUN: %expect-exit 2 %declone verify %t.huge %t.huge 2>&1 | %FileCheck %s --check-prefix=HUGE
# HUGE: error: running the graph needs about {{.*}} more than the {{.*}} limit allows
# RUN: printf 'def forward(self, x: "u8[4][1]cpu"):\n    add: "u8[4][1]cpu" = torch.ops.aten.add.Tensor(x, 1);  x = None\n    return (add,)\n' > %t.u8
# RUN: %declone verify %t.u8 %t.u8 --int-range=-5:5 | %FileCheck %s --check-prefix=OK
# RUN: %expect-exit 2 %declone verify %t.u8 %t.u8 --int-range=-5:0 2>&1 | %FileCheck %s --check-prefix=EMPTYRANGE
# EMPTYRANGE: error: the integer range holds no value of x's dtype
# OK: equivalent (1 run){{$}}
# RUN: %expect-exit 2 %declone verify %s %s --memory-limit lots 2>&1 | %FileCheck %s --check-prefix=BADSIZE
# BADSIZE: declone verify: error: --memory-limit takes a size such as 512M or 8G, not 'lots'
# RUN: %expect-exit 2 %declone verify %S/Inputs/own-op.fx %S/Inputs/own-op.fx 2>&1 | %FileCheck %s --check-prefix=NOKERNEL
# NOKERNEL: own-op.fx:2: error: cannot execute scaled: no kernel for mylib::scale_rows in this libtorch
# NOKERNEL-NEXT: scaled: "f32[4, 3][3, 1]cpu" = torch.ops.mylib.scale_rows.default(x, 2.0);  x = None
# RUN: printf 'mylib::scale_rows(Tensor x, float s) -> Tensor\n' > %t.schemas
# RUN: %declone verify %S/Inputs/own-op.fx %S/Inputs/own-op.fx --schemas %t.schemas | %FileCheck %s --check-prefix=OWN
# OWN: equivalent (1 run; ops run as stand-ins, not their own kernels: mylib::scale_rows){{$}}
# RUN: %expect-exit 1 %declone verify %S/Inputs/own-op.fx %S/Inputs/own-op-transposed.fx --schemas %t.schemas | %FileCheck %s --check-prefix=DIFF
# DIFF: own-op-transposed.fx: not equivalent to {{.*}}own-op.fx: output 0: values differ {{.*}}; ops run as stand-ins, not their own kernels: mylib::scale_rows{{$}}
# opt --verify gives opt's --schemas the same stand-ins, and a note says the verification rests on
# them.
# RUN: printf 'def forward(self, x: "f32[4, 3][3, 1]cpu"):\n    scaled: "f32[4, 3][3, 1]cpu" = torch.ops.mylib.scale_rows.default(x, 2.0);  x = None\n    clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(scaled);  scaled = None\n    return (clone,)\n' > %t.own-clone
# RUN: %declone opt %t.own-clone --schemas %t.schemas --verify 2> %t.own-clone.err | %FileCheck %s --check-prefix=OPTVERIFY
# OPTVERIFY: scaled: "f32[4, 3][3, 1]cpu" = torch.ops.mylib.scale_rows.default(x, 2.0)
# OPTVERIFY-NEXT: return (scaled,)
# RUN: %FileCheck %s --check-prefix=OPTNOTE < %t.own-clone.err
# OPTNOTE: own-clone: note: the rewrite verifies with ops run as stand-ins, not their own kernels: mylib::scale_rows{{$}}
# RUN: script -qec "%declone verify %s %s --trials 2" /dev/null | %FileCheck %s --check-prefix=BAR
# BAR: verify [{{#+}}] 2/2 runs
# BAR: equivalent (2 runs; ops run as stand-ins
# RUN: script -qec "%declone verify %s %s -q" /dev/null | %FileCheck %s --check-prefix=QUIET --implicit-check-not=runs/s
# QUIET: equivalent (1 run; ops run as stand-ins
def forward(self, x: "bf16[4, 8][8, 1]cpu"):
    all_reduce: "bf16[4, 8][8, 1]cpu" = torch.ops.vllm.all_reduce.default(x, 'tp:0');  x = None
    empty_like: "bf16[4, 8][8, 1]cpu" = torch.ops.aten.empty_like.default(all_reduce, pin_memory = False)
    auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = empty_like, input = all_reduce, weight = all_reduce, epsilon = 1e-06);  empty_like = None
    getitem_1: "bf16[4, 8][8, 1]cpu" = auto_functionalized[1];  auto_functionalized = None
    clone: "bf16[4, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
    return (clone, all_reduce)
