# `declone schemas [PATTERN]`: the schemas declone resolves ops with, by glob or substring, in
# either spelling (schema or FX); --schemas files are listed with the built-ins.
# RUN: %declone schemas aten.clone.default | %FileCheck %s --check-prefix=EXACT
# EXACT: aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
# EXACT-NOT: clone.out
# RUN: %declone schemas 'aten::clone*' | %FileCheck %s --check-prefix=GLOB
# GLOB: aten::clone(Tensor self
# GLOB: aten::clone.out(Tensor self
# RUN: %declone schemas --names 'aten::add_*' | %FileCheck %s --check-prefix=NAMES
# NAMES: aten::add_
# NAMES-NOT: {{^}}aten::add{{$}}
# RUN: printf 'mylib::scale(Tensor(a!) x, float s) -> ()\n' > %t.schemas
# RUN: %declone schemas --schemas %t.schemas mylib | %FileCheck %s --check-prefix=EXTRA
# EXTRA: mylib::scale(Tensor(a!) x, float s) -> ()
# RUN: %declone schemas no_such_op_anywhere 2>&1 | %FileCheck %s --check-prefix=NONE
# NONE: declone schemas: warning: no schema matches 'no_such_op_anywhere'
# RUN: %declone schemas | wc -l | %FileCheck %s --check-prefix=COUNT
# COUNT: {{[0-9][0-9][0-9][0-9]+}}
def forward(self, x):
    return (x,)
