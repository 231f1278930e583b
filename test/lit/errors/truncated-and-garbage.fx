# Truncated text, binary garbage, and brackets nested far deeper than any graph: each is a
# located error with exit status 2, never a crash or a hang.
# RUN: head -c 700 %S/../roundtrip/roundtrip-canonical.fx > %t.truncated
# RUN: %expect-exit 2 %declone print %t.truncated 2>&1 | %FileCheck %s --check-prefix=TRUNC
# TRUNC: .truncated:10:81: error: use of undefined name 'memory_'
# RUN: head -c 4096 %declone | %expect-exit 2 %declone print - 2>&1 | %FileCheck %s --check-prefix=BINARY
# BINARY: <stdin>:1:{{[0-9]+}}: error:
# RUN: printf 'def forward(self, x):\n    y = torch.ops.aten.f.default(' > %t.nested
# RUN: head -c 100000 /dev/zero | tr '\0' '[' >> %t.nested
# RUN: %expect-exit 2 %declone print %t.nested 2>&1 | %FileCheck %s --check-prefix=NESTED
# NESTED: .nested:2:289: error: brackets nested too deeply
def forward(self, x):
    return (x,)
