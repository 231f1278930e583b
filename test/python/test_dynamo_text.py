"""What FX prints for Dynamo-style graphs, through declone.fx and the CLI: a placeholder whose
name is not its target (Dynamo's `l_x_` for the parameter `L_x_`, bound first thing as
`l_x_ = L_x_`), Tensor method calls, a complex scalar and an Ellipsis index.
"""

import operator

import pytest
import torch
import torch.fx as fx

import declone.fx
from declone_test_support import find_cli, run_cli


def dynamo_style_module():
    graph = fx.Graph()
    x = graph.placeholder("l_x_")
    x.target = "L_x_"  # as Dynamo's placeholders: FX prints `def forward(self, L_x_)`
    view = graph.call_method("view", (x, 4, 5))
    clone = graph.call_method("clone", (view,))
    mul = graph.call_function(torch.ops.aten.mul.Tensor, (clone, 1 + 2j))
    item = graph.call_function(operator.getitem, (x, (Ellipsis, 0)))
    graph.output((mul, item))
    return fx.GraphModule(torch.nn.Module(), graph)


def test_dumps_writes_what_fx_prints():
    gm = dynamo_style_module()
    text = declone.fx.dumps(gm)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[1] == "def forward(self, L_x_):"
    assert lines[2] == "l_x_ = L_x_"
    # FX's own code for the graph: the same statements (it has no annotations to differ by).
    fx_lines = [line.strip() for line in gm.code.splitlines() if line.strip()]
    assert lines[1:] == fx_lines


def test_cli_reads_the_dump_back_unchanged(tmp_path):
    cli = find_cli()
    if cli is None:
        pytest.skip("the declone CLI is not built")
    path = tmp_path / "dynamo.fx"
    text = declone.fx.dumps(dynamo_style_module())
    path.write_text(text)
    printed = run_cli(cli, "print", path)
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == text


def test_eliminate_clones_decides_on_the_live_graph():
    # The method `view.clone()` is no aten.clone node: no decision names it, and the graph keeps
    # computing the same values.
    gm = dynamo_style_module()
    x = torch.randn(20, 1)
    before = gm(x)
    remarks = declone.fx.eliminate_clones(gm.graph)
    assert [r.node for r in remarks] == []
    gm.recompile()
    after = gm(x)
    assert all(torch.equal(a, b) for a, b in zip(before, after))
