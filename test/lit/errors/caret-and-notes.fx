# Errors are shown as clang shows them: the located message, the source line, a caret under the
# column (tabs kept so that it lines up), and notes at related places. Colour only when asked
# (standard error is not a terminal here): FORCE_COLOR turns it on, NO_COLOR wins over a terminal.
# RUN: %expect-exit 2 %declone print %s 2>&1 | %FileCheck %s --strict-whitespace --match-full-lines
# CHECK:{{.*}}caret-and-notes.fx:28:9: error: redefinition of 'mul'
# CHECK-NEXT:        mul = torch.ops.aten.add.Tensor(x, x)
# CHECK-NEXT:        ^
# CHECK-NEXT:{{.*}}caret-and-notes.fx:27: note: previous definition is here
# CHECK-NEXT:        mul = torch.ops.aten.mul.Tensor(x, x)
# CHECK-NEXT:        ^
# RUN: printf 'def forward(self, x):\n\tadd = torch.ops.aten.add.Tensor(x, y)\n\treturn add\n' > %t.tab
# RUN: %expect-exit 2 %declone print %t.tab 2>&1 | %FileCheck %s --strict-whitespace --match-full-lines --check-prefix=TAB
# TAB:{{.*}}.tab:2:37: error: use of undefined name 'y'
# TAB-NEXT:	add = torch.ops.aten.add.Tensor(x, y)
# TAB-NEXT:	                                   ^
# RUN: printf 'def forward(self, x):\n    add = torch.ops.aten.add.Tensor(x, late)\n    late = torch.ops.aten.neg.default(x)\n    return add\n' > %t.late
# RUN: %expect-exit 2 %declone print %t.late 2>&1 | %FileCheck %s --check-prefix=LATE
# LATE: .late:2:40: error: 'late' is used before it is defined (line 3)
# LATE: .late:3: note: 'late' is defined here
# RUN: %expect-exit 2 env FORCE_COLOR=1 %declone print %s 2>&1 | %FileCheck %s --check-prefix=COLOUR
# COLOUR: {{.}}[1m{{.*}}caret-and-notes.fx:28:9: {{.}}[1;31merror: {{.}}[0m{{.}}[1mredefinition of 'mul'
# RUN: %expect-exit 2 env NO_COLOR=1 %declone print %s 2>&1 | %FileCheck %s --check-prefix=PLAIN
# PLAIN-NOT: {{.}}[
# RUN: %expect-exit 2 env FORCE_COLOR=1 %declone print --bogus 2>&1 | %FileCheck %s --check-prefix=USAGECOLOUR
# USAGECOLOUR: {{.}}[1mdeclone print: {{.}}[1;31merror: {{.}}[0m{{.}}[1munknown option '--bogus' (see 'declone help print'){{.}}[0m
def forward(self, x):
        mul = torch.ops.aten.mul.Tensor(x, x)
        mul = torch.ops.aten.add.Tensor(x, x)
        return mul
