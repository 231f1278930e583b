def forward(self, x: "f32[4, 3][3, 1]cpu"):
    scaled: "f32[4, 3][3, 1]cpu" = torch.ops.mylib.scale_rows.default(x, 2.0);  x = None
    return (scaled,)
