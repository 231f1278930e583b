# Indentation that mixes tabs and spaces so that its level depends on the tab width is Python's
# TabError, reported on the line where Python reports it. Tabs alone, or spaces alone, are fine,
# and so is a mix that is unambiguous.
# RUN: printf 'def forward(self, x):\n    add = torch.ops.aten.add.Tensor(x, x)\n\tneg = torch.ops.aten.neg.default(add)\n    return neg\n' > %t.tab-after-spaces
# RUN: %expect-exit 2 %declone print %t.tab-after-spaces 2>&1 | %FileCheck %s --check-prefix=TABAFTER
# TABAFTER: .tab-after-spaces:3:1: error: inconsistent use of tabs and spaces in indentation
# RUN: printf 'def forward(self, x):\n\tadd = torch.ops.aten.add.Tensor(x, x)\n        neg = torch.ops.aten.neg.default(add)\n\treturn neg\n' > %t.spaces-after-tab
# RUN: %expect-exit 2 %declone print %t.spaces-after-tab 2>&1 | %FileCheck %s --check-prefix=SPACESAFTER
# SPACESAFTER: .spaces-after-tab:3:1: error: inconsistent use of tabs and spaces in indentation
# RUN: printf 'class M(torch.nn.Module):\n\tdef forward(self, x):\n\t\tadd = torch.ops.aten.add.Tensor(x, x)\n\t        neg = torch.ops.aten.neg.default(add)\n\t\treturn neg\n' > %t.nested
# RUN: %expect-exit 2 %declone print %t.nested 2>&1 | %FileCheck %s --check-prefix=NESTED
# NESTED: .nested:4:1: error: inconsistent use of tabs and spaces in indentation
# RUN: printf 'class M(torch.nn.Module):\n\tdef forward(self, x):\n\t\tadd = torch.ops.aten.add.Tensor(x, x)\n\t\treturn add\n' > %t.tabs
# RUN: %declone print %t.tabs > /dev/null
# RUN: printf 'class M(torch.nn.Module):\n    def forward(self, x):\n    \tadd = torch.ops.aten.add.Tensor(x, x)\n    \treturn add\n' > %t.unambiguous
# RUN: %declone print %t.unambiguous > /dev/null
def forward(self, x):
    return (x,)
