"""Custom-op schemas for the CLI: ``declone.fx.schemas_of(ops)`` and ``python -m declone schemas
MODULE... [-o FILE]``. The acceptance test: a dump that calls a module's custom ops next to
clones leaves them undecided (``unknown-effects``: no schema) until ``declone opt`` gets the
schemas the command wrote; then the CLI removes them, as the live pass (which reads the
registered schemas itself) does.
"""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

import declone.fx
from declone import _schemas
from declone_test_support import cli, run_cli, trace  # noqa: F401: cli is a fixture

HAS_CUSTOM_OP = hasattr(getattr(torch, "library", None), "custom_op")

# Two ops, one functional and one that writes its first argument, the way each torch defines
# them: torch.library.custom_op with mutates_args (torch 2.4 and later), and Library.define
# (torch 1.13 too). Plus an op written `Tensor!`, which PyTorch prints as `Tensor($0! -> )`.
MODULES = {
    "custom_op": '''\
        import torch
        from torch import Tensor


        @torch.library.custom_op("declone_schemas_co::scale", mutates_args=())
        def scale(x: Tensor, factor: float) -> Tensor:
            return x * factor


        @scale.register_fake
        def _(x, factor):
            return torch.empty_like(x)


        @torch.library.custom_op("declone_schemas_co::accumulate_", mutates_args=("out",))
        def accumulate_(out: Tensor, src: Tensor) -> None:
            out.add_(src)


        @accumulate_.register_fake
        def _(out, src):
            return None
        ''',
    "library": '''\
        import torch

        lib = torch.library.Library("declone_schemas_lib", "DEF")
        lib.define("scale(Tensor x, float factor) -> Tensor")
        lib.define("accumulate_(Tensor(a!) out, Tensor src) -> ()")
        lib.define("bang(Tensor! x) -> ()")


        def scale(x, factor):
            return x * factor


        def scale_meta(x, factor):
            return torch.empty(x.shape, dtype=x.dtype, device=x.device)


        def accumulate_(out, src):
            out.add_(src)


        def nothing(*args):
            return None


        lib.impl("scale", scale, "CPU")
        lib.impl("scale", scale_meta, "Meta")
        lib.impl("accumulate_", accumulate_, "CPU")
        lib.impl("accumulate_", nothing, "Meta")
        lib.impl("bang", nothing, "CPU")
        ''',
}
NAMESPACES = {"custom_op": "declone_schemas_co", "library": "declone_schemas_lib"}
EXPECTED = {
    "custom_op": ["declone_schemas_co::accumulate_(Tensor(a0!) out, Tensor src) -> ()",
                  "declone_schemas_co::scale(Tensor x, float factor) -> Tensor"],
    "library": ["declone_schemas_lib::accumulate_(Tensor(a!) out, Tensor src) -> ()",
                "declone_schemas_lib::bang(Tensor! x) -> ()",
                "declone_schemas_lib::scale(Tensor x, float factor) -> Tensor"],
}
VARIANTS = [pytest.param("custom_op", marks=pytest.mark.skipif(
                not HAS_CUSTOM_OP, reason="torch.library.custom_op is torch 2.4's")),
            "library"]


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """The modules' files, each that this torch can run imported once into this process (an op
    is registered once)."""
    folder = tmp_path_factory.mktemp("op_modules")
    paths = {}
    for variant, text in MODULES.items():
        path = folder / f"ops_{variant}.py"
        path.write_text(textwrap.dedent(text))
        paths[variant] = path
        if variant != "custom_op" or HAS_CUSTOM_OP:
            _schemas._import(str(path))
    return paths


def _registered_here(modules, variant):
    return getattr(torch.ops, NAMESPACES[variant])


def python_m_declone(*args, cwd):
    # The package this test imported, wherever the subprocess runs (PYTHONPATH may be relative).
    package_root = str(Path(declone.__file__).resolve().parents[1])
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [package_root, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "declone", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, env=environment, timeout=600)


def model_for(ops):
    def model(x):
        a = x * 2
        b = a.clone()                   # read by the functional op
        s = ops.scale(b, 3.0)
        acc = torch.zeros_like(x)
        d = a.clone()                   # read by the op that writes acc
        ops.accumulate_(acc, d)
        return s + acc + a
    return model


def remarks_of(stderr):
    """(node, decision, detail) of each remark."""
    return re.findall(r": remark: clone '(\w+)' (removed|kept \[[a-z-]+\])(?:: (.*))?$",
                      stderr, re.MULTILINE)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_cli_decides_the_clones_once_it_has_the_modules_schemas(variant, modules, cli,
                                                                    tmp_path):
    ops = _registered_here(modules, variant)
    namespace = NAMESPACES[variant]
    gm = trace(model_for(ops), torch.randn(4, 5))
    dump = tmp_path / "model.fx"
    dump.write_text(declone.fx.dumps(gm))

    # Without the schemas the CLI cannot tell what the ops do with the clones.
    before = run_cli(cli, "opt", dump, "--remarks")
    assert before.returncode == 0, before.stderr
    undecided = remarks_of(before.stderr)
    assert [(node, decision) for node, decision, _ in undecided] == [
        ("clone", "kept [unknown-effects]"), ("clone_1", "kept [unknown-effects]")], undecided
    assert re.match(rf"scale \(line \d+\) touches clone: no schema for {namespace}::"
                    r"scale\.default", undecided[0][2]), undecided
    assert re.match(rf"accumulate_ \(line \d+\) touches clone_1: no schema for {namespace}::"
                    r"accumulate_\.default", undecided[1][2]), undecided

    schemas = tmp_path / "ops.schemas"
    written = python_m_declone("schemas", modules[variant], "-o", schemas, cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    lines = schemas.read_text().splitlines()
    assert lines[0].startswith(f"# Custom op schemas registered by importing {modules[variant]}")
    assert lines[1:] == EXPECTED[variant]

    after = run_cli(cli, "opt", dump, "--schemas", schemas, "--remarks")
    assert after.returncode == 0, after.stderr
    assert remarks_of(after.stderr) == [("clone", "removed", ""), ("clone_1", "removed", "")]
    assert "aten.clone" not in after.stdout
    # The live pass reads the registered schemas itself, and decides the same.
    live = declone.fx.eliminate_clones(trace(model_for(ops), torch.randn(4, 5)).graph)
    assert [(r.node, r.decision) for r in live] == [("clone", "removed"), ("clone_1", "removed")]


@pytest.mark.parametrize("variant", VARIANTS)
def test_schemas_of_takes_ops_packets_custom_ops_and_names(variant, modules):
    ops = _registered_here(modules, variant)
    namespace = NAMESPACES[variant]
    scale, accumulate = EXPECTED[variant][-1], EXPECTED[variant][0]
    assert declone.fx.schemas_of([ops.scale.default, ops.accumulate_]) == \
        f"{scale}\n{accumulate}\n"
    assert declone.fx.schemas_of(f"{namespace}::scale") == scale + "\n"
    assert declone.fx.schemas_of([f"{namespace}.accumulate_.default",
                                  f"{namespace}::accumulate_.default"]) == accumulate + "\n"
    if variant == "custom_op":  # the object torch.library.custom_op returns
        module = sys.modules[Path(modules[variant]).stem]
        assert declone.fx.schemas_of(module.scale) == scale + "\n"
    with pytest.raises(ValueError, match="no op named 'nope::op'"):
        declone.fx.schemas_of("nope::op")
    with pytest.raises(TypeError, match="not an op"):
        declone.fx.schemas_of([42])


def test_the_anonymous_write_alias_is_written_back_as_declone_reads_it(modules, cli, tmp_path):
    # PyTorch prints `Tensor! x` as `Tensor($0! -> ) x`, which declone's parser rejects.
    ops = _registered_here(modules, "library")
    assert "($0! -> )" in str(ops.bang.default._schema)
    text = declone.fx.schemas_of(ops.bang)
    assert text == "declone_schemas_lib::bang(Tensor! x) -> ()\n"
    (tmp_path / "bang.schemas").write_text(text)
    listed = run_cli(cli, "schemas", "declone_schemas_lib::bang", "--schemas",
                     tmp_path / "bang.schemas")
    assert listed.returncode == 0 and listed.stdout == text, listed.stderr


def test_what_the_parser_rejects_is_reported_line_by_line(cli):
    lines = ["ns::ok(Tensor x) -> Tensor", "ns::raw(Tensor($0! -> ) x) -> ()",
             "ns::fine(Tensor x) -> ()"]
    assert _schemas.unreadable(lines, cli) == [
        ("ns::raw(Tensor($0! -> ) x) -> ()", "column 16: unexpected character '$'")]
    assert _schemas.unreadable(lines[:1], cli) == []


def test_a_module_name_on_the_path_and_standard_output(modules, tmp_path):
    (tmp_path / "my_ops_module.py").write_text(textwrap.dedent(MODULES["library"]).replace(
        "declone_schemas_lib", "declone_schemas_named"))
    result = python_m_declone("schemas", "my_ops_module", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1:] == [line.replace("declone_schemas_lib",
                                                           "declone_schemas_named")
                                              for line in EXPECTED["library"]]


@pytest.mark.skipif(int(torch.__version__.split(".")[0]) < 2,
                    reason="torch 1.13 has no Inductor to register ops")
def test_ops_torch_registers_meanwhile_are_left_out(tmp_path):
    # Importing Inductor's test operators registers ops of torch's own (_inductor_test::*).
    (tmp_path / "uses_inductor.py").write_text(textwrap.dedent('''\
        import torch
        import torch._inductor.test_operators

        lib = torch.library.Library("declone_schemas_mine", "DEF")
        lib.define("mine(Tensor x) -> Tensor")
        '''))
    result = python_m_declone("schemas", "uses_inductor.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1:] == ["declone_schemas_mine::mine(Tensor x) -> Tensor"]


def test_errors_and_warnings(tmp_path):
    missing = python_m_declone("schemas", "no_such_module_for_declone", cwd=tmp_path)
    assert missing.returncode == 2
    assert "python -m declone schemas: error: cannot import no_such_module_for_declone: " \
           "ModuleNotFoundError" in missing.stderr
    (tmp_path / "plain.py").write_text("x = 1\n")
    empty = python_m_declone("schemas", "plain.py", cwd=tmp_path)
    assert empty.returncode == 0
    assert "warning: importing plain.py registered no custom ops" in empty.stderr
    assert python_m_declone("schemas", cwd=tmp_path).returncode == 2


def test_python_m_declone_help_names_the_command(tmp_path):
    help_text = python_m_declone("--help", cwd=tmp_path)
    assert help_text.returncode == 0
    assert "opt       remove redundant clones" in help_text.stdout  # the CLI's own help first
    assert "schemas MODULE...  write the schemas of the custom ops a Python module" \
           in help_text.stdout
    schemas_help = python_m_declone("help", "schemas", cwd=tmp_path)
    assert schemas_help.returncode == 0
    assert schemas_help.stdout.startswith("usage: python -m declone schemas [-h] [-o FILE] "
                                          "MODULE [MODULE ...]")


@pytest.mark.skipif(not HAS_CUSTOM_OP, reason="torch.library.custom_op is torch 2.4's")
def test_a_torch_compile_graph_gets_its_clones_decided_too(modules, cli, tmp_path):
    """The joint graph Inductor hands its first pass (every clone functionalization left):
    there the mutating op is auto_functionalized, which declone reads without a schema, and
    the functional op's clone waits for one."""
    import torch._inductor.config as inductor_config
    ops = _registered_here(modules, "custom_op")
    dumps = []
    torch._dynamo.reset()
    with inductor_config.patch(joint_custom_pre_pass=lambda graph: dumps.append(
            declone.fx.dumps(graph)), force_disable_caches=True):
        torch.compile(model_for(ops), backend="inductor")(torch.randn(4, 5))
    (text,) = dumps
    assert "auto_functionalized" in text and text.count("aten.clone.default(") == 2
    dump = tmp_path / "joint.fx"
    dump.write_text(text)
    before = remarks_of(run_cli(cli, "opt", dump, "--remarks").stderr)
    assert [(node, decision) for node, decision, _ in before] == [
        ("clone", "kept [unknown-effects]"), ("clone_1", "removed")], before
    schemas = tmp_path / "ops.schemas"
    assert python_m_declone("schemas", modules["custom_op"], "-o", schemas,
                            cwd=tmp_path).returncode == 0
    after = remarks_of(run_cli(cli, "opt", dump, "--schemas", schemas, "--remarks").stderr)
    assert [(node, decision) for node, decision, _ in after] == [("clone", "removed"),
                                                                ("clone_1", "removed")]


def test_the_live_pass_reads_a_tensor_bang_schema_too(modules):
    # The live importer parses each op's printed schema as well: `Tensor($0! -> )` read as
    # `Tensor!`, the op's write is known, and the clone is kept for what the write does rather
    # than for an op it cannot read.
    ops = _registered_here(modules, "library")

    def f(x):
        a = x * 2
        c = a.clone()
        ops.bang(a)                     # writes the clone's source after the clone
        return c + 1

    (remark,) = declone.fx.eliminate_clones(trace(f, torch.randn(3)).graph)
    assert (remark.decision, remark.reason) == ("kept", "clone-read-after-source-write"), remark
