# REQUIRES: fake-tensor
# --fake-tensor runs ops in a Python child, where a custom op exists only once the module that
# defines it (torch.library.custom_op and register_fake) is imported: --fake-tensor-import
# MODULE imports it there first (a name on PYTHONPATH or in the current directory, or a .py
# file's path; repeatable; it implies --fake-tensor). Without it, FakeTensor changes nothing, and
# one warning at the end names the ops the child's torch lacks.
# RUN: printf 'declone_test::scale_rows(Tensor x, float s) -> Tensor\ndeclone_test::column_major(Tensor x) -> Tensor\n' > %t.schemas
# RUN: %declone opt %s --schemas %t.schemas --fake-tensor --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=MISSING
# MISSING: remark: clone 'clone' kept [layout-unknown]: strides of scale_rows are unknown
# MISSING: remark: clone 'clone_1' kept [layout-unknown]: strides of column_major are unknown
# MISSING-NEXT: declone opt: warning: --fake-tensor: the torch of {{.*}} has no op declone_test.column_major.default, declone_test.scale_rows.default; their layouts stay unknown (a custom op exists there once the module that defines it is imported: --fake-tensor-import MODULE){{$}}
# With the module, its fake kernels give the layouts: a contiguous result (the clone goes), a
# column-major one (the clone stays, for a reason now known).
# RUN: %declone opt %s --schemas %t.schemas --fake-tensor-import %S/Inputs/fake_tensor_ops.py --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=IMPORTED --implicit-check-not=warning
# RUN: env PYTHONPATH=%S/Inputs %declone opt %s --schemas %t.schemas --fake-tensor --fake-tensor-import fake_tensor_ops --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=IMPORTED --implicit-check-not=warning
# RUN: cd %S/Inputs && %declone opt %s --schemas %t.schemas --fake-tensor-import fake_tensor_ops --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=IMPORTED --implicit-check-not=warning
# IMPORTED: remark: clone 'clone' removed: strides inferred, ops run under FakeTensor{{$}}
# IMPORTED: remark: clone 'clone_1' kept [layout-changed]: strides [4, 1] != [1, 3] (strides inferred, ops run under FakeTensor){{$}}
# RUN: %declone print --annotate %s --fake-tensor-import %S/Inputs/fake_tensor_ops.py | %FileCheck %s --check-prefix=PRINT
# PRINT: {{^ +}}scale_rows: "f32[3, 4][4, 1]cpu" =
# PRINT: {{^ +}}column_major: "f32[3, 4][1, 3]cpu" =
# RUN: %expect-exit 2 %declone print %s --fake-tensor-import %S/Inputs/fake_tensor_ops.py 2>&1 | %FileCheck %s --check-prefix=USAGE
# USAGE: declone print: error: --fake-tensor-import only applies with --annotate
# A module that does not import is one warning; the other modules and torch's own ops serve.
# RUN: %declone opt %s --schemas %t.schemas --fake-tensor-import no_such_module_of_declone --fake-tensor-import %S/Inputs/fake_tensor_ops.py --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=BADIMPORT
# BADIMPORT: declone opt: warning: --fake-tensor-import: cannot import no_such_module_of_declone: ModuleNotFoundError: No module named 'no_such_module_of_declone'; the ops it defines stay unknown to --fake-tensor{{$}}
# BADIMPORT-NOT: warning
# BADIMPORT: remark: clone 'clone' removed
# RUN: %declone opt %s --schemas %t.schemas --fake-tensor-import %t-no-such-file.py 2>&1 >/dev/null | %FileCheck %s --check-prefix=NOFILE
# NOFILE: warning: --fake-tensor-import: cannot import {{.*}}-no-such-file.py: FileNotFoundError: no such file: {{.*}}-no-such-file.py;
# FakeTensor runs ops on CPU tensors only (LayoutOracle): a dump whose annotations print no
# device, or put every tensor on CUDA, gets nothing from it, and one warning says so.
# RUN: sed 's/cpu"/"/g' %s > %t.nodevice
# RUN: %declone opt %t.nodevice --schemas %t.schemas --fake-tensor-import %S/Inputs/fake_tensor_ops.py 2>&1 >/dev/null | %FileCheck %s --check-prefix=NODEVICE
# NODEVICE: declone opt: warning: --fake-tensor: no tensor annotation of the graph prints a device ('f32[3, 4][4, 1]' rather than 'f32[3, 4][4, 1]cpu'), and FakeTensor runs ops only on tensors known to be on the CPU: it runs nothing here{{$}}
# NODEVICE-NOT: warning
# RUN: %declone print --annotate %t.nodevice --fake-tensor 2>&1 >/dev/null | %FileCheck %s --check-prefix=NODEVICEPRINT
# NODEVICEPRINT: declone print: warning: --fake-tensor: no tensor annotation of {{.*}}.nodevice prints a device
# RUN: sed 's/cpu"/cuda:0"/g' %s > %t.cuda
# RUN: %declone analyze %t.cuda --schemas %t.schemas --fake-tensor 2>&1 >/dev/null | %FileCheck %s --check-prefix=CUDA
# CUDA: declone analyze: warning: --fake-tensor: the tensors of the graph are on cuda:0, and FakeTensor runs ops only on CPU tensors (a CUDA layout can depend on the machine that runs it): it runs nothing here{{$}}
def forward(self, x: "f32[3, 4][4, 1]cpu"):
    scale_rows: "f32[3, 4]cpu" = torch.ops.declone_test.scale_rows.default(x, 2.0)
    clone: "f32[3, 4]cpu" = torch.ops.aten.clone.default(scale_rows, memory_format = torch.contiguous_format);  scale_rows = None
    column_major: "f32[3, 4]cpu" = torch.ops.declone_test.column_major.default(x);  x = None
    clone_1: "f32[3, 4]cpu" = torch.ops.aten.clone.default(column_major, memory_format = torch.contiguous_format);  column_major = None
    return (clone, clone_1)
