# CRLF input comes back with CRLF on every line, the rewritten ones included; a file that mixes
# line breaks comes back with its first line's break throughout; LF input is untouched.
# RUN: sed 's/$/\r/' %s > %t.crlf
# RUN: %declone opt %t.crlf -o %t.out
# RUN: grep -c $'\r$' %t.out > %t.count-crlf
# RUN: wc -l < %t.out > %t.count-lines
# RUN: cmp %t.count-crlf %t.count-lines
# RUN: %declone opt %s > %t.lf
# RUN: tr -d '\r' < %t.out | cmp - %t.lf
# RUN: printf 'def forward(self, x):\n    add = torch.ops.aten.add.Tensor(x, x)\r\n    return add\r\n' > %t.mixed
# RUN: %declone print %t.mixed | (grep -c $'\r' || true) | %FileCheck %s --check-prefix=MIXED
# MIXED: 0
# RUN: printf 'def forward(self, x):\r\n    # a comment\n    add = torch.ops.aten.add.Tensor(x, x)\n    return add\r\n' > %t.mixed-crlf
# RUN: %declone print %t.mixed-crlf | (grep -vc $'\r$' || true) | %FileCheck %s --check-prefix=ALLCRLF
# ALLCRLF: 0
def forward(self, x: "f32[4][1]cpu"):
    # File: model.py:3 in forward, code: y = x.clone()
    clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(x);  x = None
    neg: "f32[4][1]cpu" = torch.ops.aten.neg.default(clone);  clone = None
    return (neg,)
