"""declone.vllm, the vLLM plugin, with the real vLLM package.

- the ``vllm.general_plugins`` entry point of pyproject.toml resolves to ``register``, and vLLM's
  own plugin loader loads it;
- ``DECLONE_VLLM`` unset or empty leaves vLLM's ``UnsafeCloneEliminationPass`` in every
  ``PostGradPassManager``; ``safe`` or ``vllm`` puts declone's pass in its place; anything else
  is an error;
- the whole manager, run on lowered vLLM IR graphs, runs declone's pass: each decision is
  logged, the clones removed are vLLM's own pass's on these graphs, and the result is eager's;
- DESIGN.md section 6: a clone feeding an ``auto_functionalized`` call that
  ``FixFunctionalizationPass`` turns in place must stay, though it is redundant in the
  functional graph; one feeding an op that pass does not list may go;
- the remarks and the graph they refer to are written where vLLM dumps its graphs.
"""

import copy
import importlib.metadata
import json
import logging
import pathlib
import pickle
import tomllib

import pytest

# First: it sets VLLM_TARGET_DEVICE before vLLM is imported, and registers the CPU providers.
import test_ir_pipeline as pipeline  # isort: skip

import torch
from torch._higher_order_ops.auto_functionalize import auto_functionalized
from torch.fx.experimental.proxy_tensor import make_fx
from vllm.compilation.passes import pass_manager
from vllm.compilation.passes.ir.clone_elimination import UnsafeCloneEliminationPass
from vllm.compilation.passes.utility.fix_functionalization import FixFunctionalizationPass

import declone.fx
import declone.vllm
import declone_test_support as support

PostGradPassManager = pass_manager.PostGradPassManager
PYPROJECT = pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml"
GROUP = "vllm.general_plugins"
EPS = pipeline.EPS


# An op with an out-argument that FixFunctionalizationPass does not list: it stays functional.
def _scale_into_kernel(out, x):
    out.copy_(x * 2)


_library = torch.library.Library(pipeline.NAMESPACE, "FRAGMENT")
_library.define("scale_into(Tensor(a!) out, Tensor x) -> ()")
_library.impl("scale_into", _scale_into_kernel, "CPU")
torch.library.register_fake(f"{pipeline.NAMESPACE}::scale_into", lambda out, x: None,
                            lib=_library)


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vllm_c():
    """torch.ops._C with the stand-ins FixFunctionalizationPass needs, removed after the
    module."""
    library = pipeline.define_vllm_c()
    if library is None:
        pytest.skip("vLLM's compiled _C is loaded: its kernels, not CPU stand-ins, would run")
    yield torch.ops._C
    library._destroy()


@pytest.fixture
def plugin_env(monkeypatch):
    """Sets DECLONE_VLLM (None: unset) and calls register(); PostGradPassManager.configure is
    restored after the test."""
    monkeypatch.setattr(PostGradPassManager, "configure", PostGradPassManager.configure)

    def enable(value):
        if value is None:
            monkeypatch.delenv(declone.vllm.ENVIRONMENT_VARIABLE, raising=False)
        else:
            monkeypatch.setenv(declone.vllm.ENVIRONMENT_VARIABLE, value)
        declone.vllm.register()

    return enable


@pytest.fixture
def declone_log(caplog):
    """The records of the plugin's logger. vLLM's loggers do not propagate to the root, where
    caplog listens, so its handler is put on the plugin's logger itself."""
    logger = logging.getLogger("vllm.declone")
    level = logger.level
    logger.addHandler(caplog.handler)
    logger.setLevel(logging.DEBUG)
    yield caplog
    logger.removeHandler(caplog.handler)
    logger.setLevel(level)


def _configured_manager(config):
    manager = PostGradPassManager()
    manager.configure(config)
    return manager


def _pyproject_entry_point():
    with PYPROJECT.open("rb") as file:
        entry_points = tomllib.load(file)["project"]["entry-points"][GROUP]
    assert list(entry_points) == ["declone"], entry_points
    return importlib.metadata.EntryPoint(name="declone", value=entry_points["declone"],
                                         group=GROUP)


# --- the entry point ---------------------------------------------------------------------------


def test_entry_point_target_resolves():
    assert _pyproject_entry_point().load() is declone.vllm.register


def test_vllm_loads_the_entry_point(monkeypatch):
    """vLLM's loader, given the entry point as an installed declone would declare it."""
    from vllm.plugins import DEFAULT_PLUGINS_GROUP, load_plugins_by_group

    entry_point = _pyproject_entry_point()
    assert entry_point.group == DEFAULT_PLUGINS_GROUP
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda group: importlib.metadata.EntryPoints(
                            [entry_point] if group == GROUP else []))
    monkeypatch.delenv("VLLM_PLUGINS", raising=False)
    assert load_plugins_by_group(DEFAULT_PLUGINS_GROUP) == {"declone": declone.vllm.register}


def test_installed_entry_point():
    """Only an installed declone declares the entry point (PYTHONPATH=build/python does not):
    then it must be pyproject.toml's."""
    found = [entry_point for entry_point in importlib.metadata.entry_points(group=GROUP)
             if entry_point.name == "declone"]
    try:
        importlib.metadata.distribution("declone")
    except importlib.metadata.PackageNotFoundError:
        assert found == [], "an entry point named declone without a declone distribution"
    else:
        assert [entry_point.value for entry_point in found] == [_pyproject_entry_point().value]


# --- DECLONE_VLLM --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, ""], ids=["unset", "empty"])
def test_unset_leaves_vllm_alone(value, plugin_env, vllm_config):
    configure = PostGradPassManager.configure
    plugin_env(value)
    assert PostGradPassManager.configure is configure
    assert type(_configured_manager(vllm_config).clone_elimination) is \
        UnsafeCloneEliminationPass


def test_unknown_mode_is_an_error(plugin_env):
    with pytest.raises(ValueError, match="DECLONE_VLLM='fast'.*'safe', 'vllm'"):
        plugin_env("fast")


@pytest.mark.parametrize("mode", declone.vllm.MODES)
def test_register_replaces_vllm_pass(mode, plugin_env, vllm_config):
    vllm_manager = _configured_manager(vllm_config)
    plugin_env(mode)
    plugin_env(mode)  # vLLM may load plugins twice: one replacement still
    manager = _configured_manager(vllm_config)

    assert isinstance(manager.clone_elimination, declone.vllm.CloneEliminationPass)
    assert manager.clone_elimination.mode == mode
    # Everything else is vLLM's, as configured without the plugin.
    for name in ("ir_lowering", "post_cleanup", "fix_functionalization"):
        assert type(getattr(manager, name)) is type(getattr(vllm_manager, name))
    assert [type(p) for p in manager.passes] == [type(p) for p in vllm_manager.passes]
    # The manager's uuid, Inductor's cache key, covers the replacement.
    with pipeline.vllm_pass_context(vllm_config):
        assert manager.uuid() != vllm_manager.uuid()


def test_uuid(vllm_config, monkeypatch):
    safe = declone.vllm.CloneEliminationPass(vllm_config, "safe")
    assert safe.uuid() == declone.vllm.CloneEliminationPass(vllm_config, "safe").uuid()
    assert safe.uuid() != declone.vllm.CloneEliminationPass(vllm_config, "vllm").uuid()
    before = safe.uuid()
    monkeypatch.setattr(declone.vllm, "_source_hash", lambda: "another plugin")
    assert safe.uuid() != before


def test_pass_pickles(vllm_config, vllm_c):
    """Inductor may pickle or deep-copy the config that holds the pass manager."""
    clone_pass = declone.vllm.CloneEliminationPass(vllm_config, "vllm")
    graph_module = make_fx(_caveat, tracing_mode="fake")(*_caveat_inputs())
    with pipeline.vllm_pass_context(vllm_config):
        clone_pass(graph_module.graph)
    assert clone_pass.remarks
    for restored in (pickle.loads(pickle.dumps(clone_pass)), copy.deepcopy(clone_pass)):
        assert type(restored) is declone.vllm.CloneEliminationPass
        assert restored.mode == "vllm" and restored.uuid() == clone_pass.uuid()


def test_mode_defaults_to_the_environment(vllm_config, monkeypatch):
    monkeypatch.setenv(declone.vllm.ENVIRONMENT_VARIABLE, "vllm")
    assert declone.vllm.CloneEliminationPass(vllm_config).mode == "vllm"
    monkeypatch.delenv(declone.vllm.ENVIRONMENT_VARIABLE)
    assert declone.vllm.CloneEliminationPass(vllm_config).mode == "safe"
    with pytest.raises(ValueError, match="mode"):
        declone.vllm.CloneEliminationPass(vllm_config, "fast")


# --- the manager, on lowered graphs --------------------------------------------------------------


def _run_manager(manager, forward, config):
    """Traces ``forward`` and runs ``manager`` on it as vLLM's backend does: the IR graph (after
    VllmIRInplaceFunctionalizationPass) in a pass context holding its donated inputs, with the
    CPU providers selected, under the graph's fake mode."""
    graph_module, donated = pipeline.trace(forward, pipeline.example_inputs(), config)
    with pipeline.vllm_pass_context(config, donated), pipeline.cpu_providers(), \
            pipeline.fake_mode_of(graph_module):
        manager(graph_module.graph)
    graph_module.recompile()
    return graph_module, donated


@pytest.mark.parametrize("mode", declone.vllm.MODES)
@pytest.mark.parametrize("kind,layers,c_rms_norm", [
    ("mamba", 2, False), ("reuse", 2, False), ("functional", 2, False), ("reuse", 2, True)])
def test_manager_runs_declone(kind, layers, c_rms_norm, mode, plugin_env, vllm_config, vllm_c,
                              declone_log):
    forward = pipeline.block(kind, layers, c_rms_norm)
    vllm_manager = _configured_manager(vllm_config)
    vllm_graph, _ = _run_manager(vllm_manager, forward, vllm_config)
    assert not [r for r in declone_log.records if r.name == "vllm.declone"]

    plugin_env(mode)
    manager = _configured_manager(vllm_config)
    graph_module, donated = _run_manager(manager, forward, vllm_config)

    remarks = manager.clone_elimination.remarks
    assert remarks, "declone's pass saw no clones"
    assert any(r.decision == "kept" for r in remarks) and \
        any(r.decision == "removed" for r in remarks)
    messages = [record.getMessage() for record in declone_log.records
                if record.name == "vllm.declone"]
    for remark in remarks:
        line = f"declone ({mode}): {declone.vllm._describe(remark)}"
        assert line in messages, f"{line!r} not logged: {messages}"
    # vLLM's pass is right on these graphs (test_ir_pipeline.py): both leave the same clones.
    assert pipeline.clone_names(graph_module.graph) == pipeline.clone_names(vllm_graph.graph)
    assert pipeline.compare_with_eager(forward, graph_module, donated) == []


# --- DESIGN.md section 6: FixFunctionalizationPass runs after clone elimination -------------------


def _caveat(h, x, weight):
    """DESIGN.md section 6: the clone is redundant in this functional graph, and only there."""
    c = torch.ops.aten.clone.default(h)
    r = auto_functionalized(torch.ops._C.rms_norm.default, result=c, input=x, weight=weight,
                            epsilon=EPS)[1]
    return r + h


def _removable(h, x, weight):
    """As _caveat, of a value nothing reads afterwards: the clone may go even in place."""
    t = h * 2
    c = torch.ops.aten.clone.default(t)
    return auto_functionalized(torch.ops._C.rms_norm.default, result=c, input=x, weight=weight,
                               epsilon=EPS)[1]


def _unlisted(h, x, weight):
    """As _caveat, with an op FixFunctionalizationPass does not list: it stays functional."""
    c = torch.ops.aten.clone.default(h)
    r = auto_functionalized(getattr(torch.ops, pipeline.NAMESPACE).scale_into.default, out=c,
                            x=x)[1]
    return r + h + weight


def _caveat_inputs(seed=0):
    generator = torch.Generator().manual_seed(seed)
    return [torch.randn(4, 8, generator=generator), torch.randn(4, 8, generator=generator),
            torch.randn(8, generator=generator)]


def _clone_then_fix_functionalization(clone_pass, function, config):
    """``function`` traced, then ``clone_pass`` and FixFunctionalizationPass, in the order the
    manager runs them (no input donated): the clones left, and the differences from eager."""
    def run(graph):
        clone_pass(graph)
        FixFunctionalizationPass(config)(graph)

    return _run_and_compare(run, function, config)


def _run_and_compare(run, function, config):
    graph_module = make_fx(function, tracing_mode="fake")(*_caveat_inputs())
    with pipeline.vllm_pass_context(config):
        run(graph_module.graph)
    graph_module.recompile()
    inputs = _caveat_inputs(1)
    expected = function(*[tensor.clone() for tensor in inputs])
    arguments = [tensor.clone() for tensor in inputs]
    actual = graph_module(*arguments)
    differences = [] if torch.allclose(expected, actual) else ["output"]
    differences += [f"input {i} written" for i, (a, b) in enumerate(zip(inputs, arguments))
                    if not torch.equal(a, b)]
    return pipeline.clone_names(graph_module.graph), differences


def test_fix_functionalization_caveat(vllm_config, vllm_c):
    """vLLM's pass removes the clone, right about the functional graph, and the in-place
    rewrite then writes the caller's h: declone's plugin keeps it."""
    vllm_left, vllm_differences = _clone_then_fix_functionalization(
        UnsafeCloneEliminationPass(vllm_config), _caveat, vllm_config)
    assert vllm_left == [] and vllm_differences == ["output", "input 0 written"], (
        "vLLM's passes no longer get this wrong: the regression test shows nothing")

    # declone's own decision on the functional graph is vLLM's: the plugin's copy is what
    # keeps the clone.
    functional = make_fx(_caveat, tracing_mode="fake")(*_caveat_inputs())
    [remark] = declone.fx.eliminate_clones(functional.graph)
    assert remark.decision == "removed"

    safe = declone.vllm.CloneEliminationPass(vllm_config, "safe")
    left, differences = _clone_then_fix_functionalization(safe, _caveat, vllm_config)
    assert left == ["clone"] and differences == []
    [remark] = safe.remarks
    assert (remark.node, remark.decision, remark.reason) == ("clone", "kept", "input-mutation")

    # vllm mode stays vLLM's decision, wrong result included.
    vllm_mode = declone.vllm.CloneEliminationPass(vllm_config, "vllm")
    assert _clone_then_fix_functionalization(vllm_mode, _caveat, vllm_config) == \
        (vllm_left, vllm_differences)


def test_fix_functionalization_caveat_in_the_manager(plugin_env, vllm_config, vllm_c):
    """The same through the whole PostGradPassManager, vLLM's and then the plugin's."""
    vllm_manager = _configured_manager(vllm_config)
    assert _run_and_compare(vllm_manager, _caveat, vllm_config) == \
        ([], ["output", "input 0 written"])
    plugin_env("safe")
    assert _run_and_compare(_configured_manager(vllm_config), _caveat, vllm_config) == \
        (["clone"], [])


def test_clone_into_listed_op_removed_when_safe(vllm_config, vllm_c):
    safe = declone.vllm.CloneEliminationPass(vllm_config, "safe")
    assert _clone_then_fix_functionalization(safe, _removable, vllm_config) == ([], [])


def test_unlisted_op_stays_functional(vllm_config, vllm_c):
    safe = declone.vllm.CloneEliminationPass(vllm_config, "safe")
    assert _clone_then_fix_functionalization(safe, _unlisted, vllm_config) == ([], [])


def test_fallback_when_fix_functionalization_fails(vllm_config, vllm_c, monkeypatch,
                                                   declone_log):
    """Where vLLM's pass cannot run (an op of its list this build lacks), every call is taken
    as rewritten in place: even the unlisted op's clone stays."""
    def fails(self, graph):
        raise AttributeError("'_OpNamespace' '_C' object has no attribute 'rotary_embedding'")

    safe = declone.vllm.CloneEliminationPass(vllm_config, "safe")
    monkeypatch.setattr(type(safe._fix_functionalization), "__call__", fails)
    graph_module = make_fx(_unlisted, tracing_mode="fake")(*_caveat_inputs())
    with pipeline.vllm_pass_context(vllm_config):
        safe(graph_module.graph)
    assert [(r.node, r.decision) for r in safe.remarks] == [("clone", "kept")]
    assert any(record.levelno == logging.WARNING and "rotary_embedding" in record.getMessage()
               for record in declone_log.records)


# --- the debug dump ----------------------------------------------------------------------------


def test_remarks_dumped_with_graphs(tmp_path, cli):
    from vllm.config import CompilationConfig, VllmConfig

    config = VllmConfig(compilation_config=CompilationConfig(debug_dump_path=tmp_path))
    forward = pipeline.block("mamba", 2)
    graph_module, donated = pipeline.trace(forward, pipeline.example_inputs(), config)
    with pipeline.vllm_pass_context(config, donated), pipeline.cpu_providers(), \
            pipeline.fake_mode_of(graph_module):
        pipeline.VllmIRLoweringPass(config)(graph_module.graph)
        clone_pass = declone.vllm.CloneEliminationPass(config, "safe")
        clone_pass(graph_module.graph)
        clone_pass(graph_module.graph)  # a second graph: a second pair of files

    directory = config.compile_debug_dump_path()
    assert sorted(path.name for path in directory.iterdir()) == [
        f"declone_{kind}.{index}.{extension}" for kind, extension in
        [("graph", "py"), ("remarks", "json"), ("schemas", "txt")] for index in (0, 1)]
    dump = json.loads((directory / "declone_remarks.0.json").read_text())
    assert dump["mode"] == "safe" and dump["donated_input_ids"] == donated
    assert (dump["graph"], dump["schemas"]) == ("declone_graph.0.py", "declone_schemas.0.txt")
    removed = [r["node"] for r in dump["remarks"] if r["decision"] == "removed"]
    assert removed and len(removed) < len(dump["remarks"])
    # The dumped graph is the one the remarks are about: the CLI, given the custom ops'
    # schemas, decides it the same way.
    result = support.run_cli(cli, "opt", directory / dump["graph"], "--remarks=json",
                             "--schemas", directory / dump["schemas"],
                             "--donated", ",".join(map(str, donated)))
    assert result.returncode == 0, result.stderr
    cli_remarks = [json.loads(line) for line in result.stderr.splitlines()]
    assert [(r["node"], r["line"], r["decision"], r["reason"]) for r in cli_remarks] == \
        [(r["node"], r["line"], r["decision"], r["reason"]) for r in dump["remarks"]]
    # The second graph had its removable clones removed already.
    second = json.loads((directory / "declone_remarks.1.json").read_text())
    assert all(r["decision"] == "kept" for r in second["remarks"])


def test_remarks_dumped_for_the_defunctionalized_copy(tmp_path, cli, vllm_c):
    """In safe mode the remarks are about the graph as FixFunctionalizationPass leaves it: that
    graph is dumped, with the schema of vLLM's in-place op (printed by PyTorch with an
    anonymous alias set, which the dump names)."""
    from vllm.config import CompilationConfig, VllmConfig

    config = VllmConfig(compilation_config=CompilationConfig(debug_dump_path=tmp_path))
    graph_module = make_fx(_caveat, tracing_mode="fake")(*_caveat_inputs())
    with pipeline.vllm_pass_context(config):
        declone.vllm.CloneEliminationPass(config, "safe")(graph_module.graph)

    directory = config.compile_debug_dump_path()
    dump = json.loads((directory / "declone_remarks.0.json").read_text())
    assert dump["defunctionalized"] is True
    graph_text = (directory / dump["graph"]).read_text()
    assert "torch.ops._C.rms_norm.default(" in graph_text and "auto_functionalized" not in \
        graph_text
    result = support.run_cli(cli, "opt", directory / dump["graph"], "--remarks=json",
                             "--schemas", directory / dump["schemas"])
    assert result.returncode == 0, result.stderr
    assert [json.loads(line) for line in result.stderr.splitlines()] == dump["remarks"]
    assert [(r["node"], r["decision"], r["reason"]) for r in dump["remarks"]] == \
        [("clone", "kept", "input-mutation")]


# --- DECLONE_VLLM_DEFUNCTIONALIZE: declone's pass in place of FixFunctionalizationPass ----------


def _rotary_kernel(positions, query, key, head_size, cos_sin_cache, is_neox):
    """A CPU stand-in for vLLM's rotary embedding: it writes q and k in place."""
    query.add_(positions.unsqueeze(-1).to(query.dtype) * cos_sin_cache[0, 0])
    key.mul_(2)


@pytest.fixture(scope="module")
def rotary(vllm_c):
    """_C.rotary_embedding with a CPU kernel (vllm_c defines it without one)."""
    library = torch.library.Library("_C", "IMPL")
    library.impl("rotary_embedding", _rotary_kernel, "CPU")
    torch.library.register_fake("_C::rotary_embedding", lambda *args: None, lib=library)
    yield torch.ops._C.rotary_embedding.default
    library._destroy()


@pytest.fixture
def defunctionalizing(monkeypatch, plugin_env):
    """Registers the plugin with DECLONE_VLLM_DEFUNCTIONALIZE=1 and DECLONE_VLLM set to
    ``mode`` (None: unset)."""
    def enable(mode):
        monkeypatch.setenv(declone.vllm.DEFUNCTIONALIZE_VARIABLE, "1")
        plugin_env(mode)

    return enable


def _rotary_model(positions, cache, x, w):
    """As AOTAutograd functionalizes vLLM's attention prologue: q and k, slices of the qkv
    matmul, written by rotary embedding, scattered back, and the heads taken from the result."""
    qkv = x @ w
    q, k, _ = torch.ops.aten.split_with_sizes.default(qkv, [4, 4, 4], -1)
    r = auto_functionalized(torch.ops._C.rotary_embedding.default, positions=positions, query=q,
                            key=k, head_size=4, cos_sin_cache=cache, is_neox=True)
    qkv = torch.ops.aten.slice_scatter.default(qkv, r[1], 1, 0, 4)
    qkv = torch.ops.aten.slice_scatter.default(qkv, r[2], 1, 4, 8)
    q, k, v = torch.ops.aten.split_with_sizes.default(qkv, [4, 4, 4], -1)
    return q * 1, k + v


def _rotary_inputs(seed=0):
    generator = torch.Generator().manual_seed(seed)
    return [torch.arange(4), torch.randn(16, 4, generator=generator),
            torch.randn(4, 12, generator=generator), torch.randn(12, 12, generator=generator)]


def _written_in_place(h, x, weight):
    """rms_norm's result is a graph input read afterwards: writing it in place is wrong."""
    r = auto_functionalized(torch.ops._C.rms_norm.default, result=h, input=x, weight=weight,
                            epsilon=EPS)[1]
    return r + h


def _manager_result(manager, function, inputs, config):
    """``function`` traced, run through ``manager`` in vLLM's pass context (no input donated),
    and run on copies of ``inputs`` against eager: the functionalized calls and clones left,
    and what differs."""
    graph_module = make_fx(function, tracing_mode="fake")(*inputs())
    with pipeline.vllm_pass_context(config):
        manager(graph_module.graph)
    graph_module.recompile()
    left = [node.name for node in graph_module.graph.nodes
            if node.target in (auto_functionalized, torch.ops.aten.clone.default)]
    expected_inputs, actual_inputs = inputs(1), inputs(1)
    expected = function(*expected_inputs)
    actual = graph_module(*actual_inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    actual = actual if isinstance(actual, (tuple, list)) else (actual,)
    differences = ["output"] if not all(torch.allclose(e, a) for e, a in zip(expected, actual)) \
        else []
    differences += [f"input {i} written" for i, (e, a) in
                    enumerate(zip(expected_inputs, actual_inputs)) if not torch.equal(e, a)]
    return left, differences


@pytest.mark.parametrize("value", ["yes", "2", "true"])
def test_defunctionalize_variable_values(value, monkeypatch):
    monkeypatch.setenv(declone.vllm.DEFUNCTIONALIZE_VARIABLE, value)
    with pytest.raises(ValueError, match="DECLONE_VLLM_DEFUNCTIONALIZE"):
        declone.vllm.register()
    for off in ("0", ""):
        monkeypatch.setenv(declone.vllm.DEFUNCTIONALIZE_VARIABLE, off)
        assert declone.vllm.defunctionalize_from_environment() is False


@pytest.mark.parametrize("mode", [None, "safe", "vllm"], ids=["alone", "safe", "vllm"])
def test_register_replaces_fix_functionalization(mode, defunctionalizing, vllm_config):
    vllm_manager = _configured_manager(vllm_config)
    defunctionalizing(mode)
    manager = _configured_manager(vllm_config)
    assert isinstance(manager.fix_functionalization, declone.vllm.DefunctionalizationPass)
    if mode is None:  # vLLM's clone pass stays
        assert type(manager.clone_elimination) is UnsafeCloneEliminationPass
    else:  # and declone's knows that the pass after it checks what it writes
        assert manager.clone_elimination.mode == mode
        assert manager.clone_elimination.checked_defunctionalization is True
        unchecked = declone.vllm.CloneEliminationPass(vllm_config, mode)
        assert unchecked.uuid() != manager.clone_elimination.uuid()
    for name in ("ir_lowering", "post_cleanup"):
        assert type(getattr(manager, name)) is type(getattr(vllm_manager, name))
    with pipeline.vllm_pass_context(vllm_config):
        assert manager.uuid() != vllm_manager.uuid()
    # Inductor may pickle or deep-copy the config that holds the manager.
    for restored in (pickle.loads(pickle.dumps(manager.fix_functionalization)),
                     copy.deepcopy(manager.fix_functionalization)):
        assert restored.uuid() == manager.fix_functionalization.uuid()


@pytest.mark.parametrize("function,inputs,vllm_outcome,declone_outcome", [
    # vLLM's pass is right, and so is declone's: nothing left, the result eager's.
    (_removable, _caveat_inputs, ([], []), ([], [])),
    (_rotary_model, _rotary_inputs, ([], []), ([], [])),
    # DESIGN.md section 6: vLLM's clone pass and FixFunctionalizationPass together write h;
    # with declone's defunctionalization after it the call stays functional and h intact.
    (_caveat, _caveat_inputs, ([], ["output", "input 0 written"]), (["auto_functionalized"], [])),
    # vLLM's pass alone writes the caller's h; declone's keeps the call.
    (_written_in_place, _caveat_inputs, ([], ["output", "input 0 written"]),
     (["auto_functionalized"], [])),
], ids=["removable", "rotary", "caveat", "input-read-after"])
@pytest.mark.parametrize("mode", [None, "safe"], ids=["vllm-clones", "safe-clones"])
def test_manager_defunctionalizes(function, inputs, vllm_outcome, declone_outcome, mode,
                                  defunctionalizing, vllm_config, rotary):
    """The whole manager, vLLM's and then with the plugin: declone rewrites what vLLM's pass
    rewrites where that is right (no call or clone more is left), and nothing where it is
    wrong."""
    left, differences = _manager_result(_configured_manager(vllm_config), function, inputs,
                                        vllm_config)
    assert (left, differences) == vllm_outcome
    defunctionalizing(mode)
    manager = _configured_manager(vllm_config)
    # Either clone pass removes the caveat's clone, right about the functional graph (safe
    # mode need not decide on a rewritten copy now); declone's defunctionalization after it
    # then keeps the call, which writes a copy of h, not h.
    left, differences = _manager_result(manager, function, inputs, vllm_config)
    assert (left, differences) == declone_outcome
    remarks = manager.fix_functionalization.remarks
    assert remarks and all(r.copy for r in remarks)
    assert all(r.decision == "removed" for r in remarks) == (left == [])


@pytest.mark.parametrize("kind", ["reuse", "functional"])
def test_manager_defunctionalizes_lowered_blocks(kind, defunctionalizing, vllm_config, vllm_c):
    """On lowered vLLM IR blocks whose norms go through _C.rms_norm: with the plugin's two
    passes, every call vLLM's FixFunctionalizationPass rewrites is rewritten, the same clones
    are left, and the result is eager's."""
    forward = pipeline.block(kind, 2, c_rms_norm=True)
    vllm_graph, _ = _run_manager(_configured_manager(vllm_config), forward, vllm_config)
    defunctionalizing("safe")
    manager = _configured_manager(vllm_config)
    graph_module, donated = _run_manager(manager, forward, vllm_config)
    assert not graph_module.graph.find_nodes(op="call_function", target=auto_functionalized)
    assert pipeline.clone_names(graph_module.graph) == pipeline.clone_names(vllm_graph.graph)
    remarks = manager.fix_functionalization.remarks
    assert len(remarks) == 2 and all(r.decision == "removed" for r in remarks)
    assert pipeline.compare_with_eager(forward, graph_module, donated) == []
