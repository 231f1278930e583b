# Rule 4 (source-read-after-write): once the clone is written, the source must never be used
# again. vLLM's check sees the direct positional write; the safe mode also sees writes through
# views of the clone and writes passed by keyword (out=), which vLLM misses.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
# RUN: %declone opt %s --remarks --mode vllm-0.32 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone' kept [source-read-after-write]: add_ (line [[@LINE+2]]) writes clone, then sin (line [[@LINE+3]]) reads relu
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' kept [source-read-after-write]: add_ (line [[@LINE+1]]) writes clone, then sin (line [[@LINE+2]]) uses relu
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(clone, 1);  add_ = None
        sin: "f32[4][1]cpu" = torch.ops.aten.sin.default(relu)
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone_1' kept [source-read-after-write]: mul_ (line [[@LINE+3]]) writes view, then cos (line [[@LINE+4]]) reads relu
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_1' removed
        view: "f32[2, 2][2, 1]cpu" = torch.ops.aten.view.default(clone_1, [2, 2])
        mul_: "f32[2, 2][2, 1]cpu" = torch.ops.aten.mul_.Tensor(view, 2);  view = mul_ = None
        cos: "f32[4][1]cpu" = torch.ops.aten.cos.default(relu)
        clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone_2' kept [source-read-after-write]: add (line [[@LINE+2]]) writes clone_2, then relu is returned
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_2' removed
        add: "f32[4][1]cpu" = torch.ops.aten.add.out(sin, cos, out = clone_2)
        return (clone, clone_1, clone_2, relu, add)
