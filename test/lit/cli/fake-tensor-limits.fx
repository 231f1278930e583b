# REQUIRES: fake-tensor
# --fake-tensor on an adversary's dump (issue 29): tensor_split into a hundred million sections
# held opt for the 5-minute timeout while the Python child grew to 1.4 GB. A call whose sizes
# are beyond the oracle's bounds is not run: one warning says why, the layout stays unknown, and
# opt exits 0 in seconds (`timeout` makes a regression fail instead of hanging).
# RUN: timeout 120 %declone opt %s --fake-tensor --remarks 2>&1 >/dev/null | %FileCheck %s
# CHECK: declone opt: warning: --fake-tensor: aten.tensor_split.sections: not run: it returns a list, and its argument 100000000 could ask for that many tensors (the bound is 1024: FakeTensor makes about a thousand a second); its layouts stay unknown
# CHECK-NOT: warning
# CHECK: remark: clone 'clone' kept [layout-unknown]
#
# A call within the bounds that runs past the time limit (DECLONE_FAKE_TENSOR_TIMEOUT seconds,
# 5 by default) is stopped by the child: unknown, one warning, and the next call is answered.
# tensor_split at 4000 indices makes 4001 tensors, seconds of work.
# RUN: awk 'BEGIN { printf "def forward(self, x: \"f32[4096, 4][4, 1]cpu\"):\n    tensor_split = torch.ops.aten.tensor_split.indices(x, [1"; for (i = 2; i <= 4000; i++) printf ", %%d", i; print "])"; print "    getitem: \"f32[1, 4]cpu\" = tensor_split[0]"; print "    clone: \"f32[1, 4]cpu\" = torch.ops.aten.clone.default(getitem)"; print "    tril: \"f32[4096, 4]cpu\" = torch.ops.aten.tril.default(x, 1)"; print "    clone_1: \"f32[4096, 4]cpu\" = torch.ops.aten.clone.default(tril)"; print "    return (clone, clone_1)" }' > %t.fx
# RUN: env DECLONE_FAKE_TENSOR_TIMEOUT=0.1 timeout 120 %declone opt %t.fx --fake-tensor --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SLOW
# SLOW: declone opt: warning: --fake-tensor: aten.tensor_split.indices: it took more than 0.1 s under FakeTensor; its layouts stay unknown
# SLOW: remark: clone 'clone' kept [layout-unknown]
# SLOW: remark: clone 'clone_1' removed
# RUN: env DECLONE_FAKE_TENSOR_TIMEOUT=soon %declone opt %s --fake-tensor 2>&1 >/dev/null | %FileCheck %s --check-prefix=BADTIME
# BADTIME: declone opt: warning: DECLONE_FAKE_TENSOR_TIMEOUT takes seconds, not 'soon'; the time limit of --fake-tensor is 5 s
def forward(self, x: "f32[3, 4][4, 1]cpu"):
    tensor_split = torch.ops.aten.tensor_split.sections(x, 100000000)
    getitem: "f32[1, 4]cpu" = tensor_split[0]
    clone: "f32[1, 4]cpu" = torch.ops.aten.clone.default(getitem)
    return (clone,)
