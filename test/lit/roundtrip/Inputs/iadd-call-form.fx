class GraphModule(torch.nn.Module):
    def forward(self, x: "Sym(s0)"):
        iadd = operator.iadd(1, x);  x = None
        return (iadd,)
