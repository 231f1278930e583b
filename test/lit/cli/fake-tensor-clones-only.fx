# The passes ask FakeTensor only about values a clone's layout may rest on: here tril (the
# clone's source), never triu, which only the output reads. A remark about strides FakeTensor
# was asked for and did not give says so; `print --annotate` asks about every value.
# RUN: printf '#!/bin/bash\necho "{\\"ready\\": true}"\nwhile IFS= read -r line; do\n  echo "$line" >> %t-asked\n  id=$(echo "$line" | sed -n "s/.*\\"id\\":\\([0-9]*\\).*/\\1/p")\n  echo "{\\"declined\\": \\"stub\\", \\"id\\": $id}"\ndone\n' > %t-stub
# RUN: chmod +x %t-stub
# RUN: rm -f %t-asked
# RUN: env DECLONE_PYTHON=%t-stub %declone opt %s --fake-tensor --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: FileCheck %s --check-prefix=ASKED --input-file %t-asked
# CHECK: remark: clone 'clone' kept [layout-unknown]: strides of tril are unknown: no rule gives the strides tril (aten.tril.default) makes, and FakeTensor gave none
# ASKED: aten.tril.default
# ASKED-NOT: aten.triu.default
# RUN: rm -f %t-asked
# RUN: env DECLONE_PYTHON=%t-stub %declone print --annotate --fake-tensor %s > /dev/null 2>&1
# RUN: FileCheck %s --check-prefix=ALL --input-file %t-asked
# ALL-DAG: aten.tril.default
# ALL-DAG: aten.triu.default
def forward(self, arg0_1: "f32[4, 4][4, 1]cpu"):
    tril: "f32[4, 4]cpu" = torch.ops.aten.tril.default(arg0_1)
    clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(tril)
    triu: "f32[4, 4]cpu" = torch.ops.aten.triu.default(arg0_1)
    return (clone, triu)
