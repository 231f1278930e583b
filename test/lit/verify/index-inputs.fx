# Integer inputs whose values end up as indices are drawn within what they index: BERT's token
# type ids (arg1_1, a buffer of the model) are expanded and gathered before they index a 2-row
# embedding, its position ids (arg2_1) index 64 positions. Random values up to 16 made the
# graph fail ("index out of range in self"); now it runs, and its clone goes. A buffer read with
# get_attr (self.token_type_ids) is bounded the same way.
# RUN: %declone opt %s --verify --remarks 2>&1 >/dev/null | %FileCheck %s
# CHECK: remark: clone 'clone' removed
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 4][4, 1]cpu", arg1_1: "i64[1, 64][64, 1]cpu", arg2_1: "i64[1, 64][64, 1]cpu"):
        slice_1: "i64[1, 12][64, 1]cpu" = torch.ops.aten.slice.Tensor(arg2_1, 1, 0, 12);  arg2_1 = None
        expand: "i64[1, 64][64, 1]cpu" = torch.ops.aten.expand.default(arg1_1, [1, -1]);  arg1_1 = None
        gather: "i64[1, 12][12, 1]cpu" = torch.ops.aten.gather.default(expand, 1, slice_1);  expand = slice_1 = None
        embedding: "f32[1, 12, 4][48, 4, 1]cpu" = torch.ops.aten.embedding.default(arg0_1, gather);  gather = None
        clone: "f32[1, 12, 4][48, 4, 1]cpu" = torch.ops.aten.clone.default(embedding);  embedding = None
        token_type_ids: "i64[1, 12][12, 1]cpu" = self.token_type_ids
        embedding_1: "f32[1, 12, 4][48, 4, 1]cpu" = torch.ops.aten.embedding.default(arg0_1, token_type_ids);  arg0_1 = token_type_ids = None
        return (clone, embedding_1)
