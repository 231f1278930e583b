# Uninitialized memory, executed (issue 29, bug 4): what empty returns is not a value of the
# graph, so the verifier runs each graph twice, with all zero bytes and with ones in the memory
# kernels leave uninitialized, and compares by metadata only what differs between the two. The
# graph verifies against itself, each partly uninitialized output saying so; the determined
# elements are still compared (a wrong copy into empty_1, a wrong product written over all of
# empty_like); a rewrite may determine what was not (clone of empty replaced by zeros, empty_1's
# rest filled) but not the converse.
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: note: output 0 compared by metadata only: its values come from uninitialized memory (empty)
# SAME-NEXT: note: output 1: values compared at 2 of 4 elements; the others come from uninitialized memory (empty_1)
# SAME-NEXT: equivalent (1 run)
# RUN: %declone verify %s %s --trials 3 | %FileCheck %s --check-prefix=TRIALS
# TRIALS-COUNT-2: note:
# TRIALS-NEXT: equivalent (3 runs)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/uninitialized-copy-wrong.fx | %FileCheck %s --check-prefix=COPY
# COPY: not equivalent to {{.*}}uninitialized-memory.fx: output 1: values differ (largest difference {{.*}} at flat index {{[01]}})
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/uninitialized-overwritten-wrong.fx | %FileCheck %s --check-prefix=OVERWRITTEN
# OVERWRITTEN: not equivalent to {{.*}}uninitialized-memory.fx: output 2: values differ
# RUN: %declone verify %s %S/Inputs/uninitialized-determined.fx | %FileCheck %s --check-prefix=DETERMINED
# DETERMINED: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %S/Inputs/uninitialized-determined.fx %s | %FileCheck %s --check-prefix=LOST
# LOST: not equivalent to {{.*}}uninitialized-determined.fx: output 0: 4 of 4 elements come from uninitialized memory (empty), where the original's do not (first at flat index 0)
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' removed
# OPT: uninitialized-memory.fx: note: output 0 compared by metadata only: its values come from uninitialized memory (empty)
# OPT-NOT: error
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[2][1]cpu"):
        empty: "f32[4][1]cpu" = torch.ops.aten.empty.memory_format([4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(empty);  empty = None
        empty_1: "f32[4][1]cpu" = torch.ops.aten.empty.memory_format([4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        slice_1: "f32[2][1]cpu" = torch.ops.aten.slice.Tensor(empty_1, 0, 1, 3)
        copy_: "f32[2][1]cpu" = torch.ops.aten.copy_.default(slice_1, arg1_1);  slice_1 = arg1_1 = copy_ = None
        empty_like: "f32[4][1]cpu" = torch.ops.aten.empty_like.default(arg0_1, pin_memory = False)
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
        copy__1: "f32[4][1]cpu" = torch.ops.aten.copy_.default(empty_like, mul);  mul = copy__1 = None
        return (clone, empty_1, empty_like)
