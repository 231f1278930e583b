# Dumps from PyTorch before 2.3 do not free unused nodes on their own line: printed unchanged.
# RUN: %declone print %s | diff %s -
from __future__ import annotations



def forward(self, primals_1: "f32[32]", primals_2: "f32[32]"):
    add: "f32[32]" = torch.ops.aten.add.Tensor(primals_1, 1)
    copy_: "f32[32]" = torch.ops.aten.copy_.default(primals_2, add);  primals_2 = add = None
    return [primals_1]
    
