"""vLLM IR blocks through vLLM's own passes, then each clone eliminator, then execution.

Each variant is a small model written with vLLM IR ops (``fused_add_rms_norm`` in its
``maybe_inplace`` or functional overload, ``rms_norm``), traced with make_fx on fake tensors and
taken through the passes vLLM runs on it: ``VllmIRInplaceFunctionalizationPass`` (which marks the
donated inputs in the pass context) and ``VllmIRLoweringPass`` with an in-place CPU provider
registered here, whose ``func_impl_fn`` clones the activations it writes. Then the real
``UnsafeCloneEliminationPass``, declone's plugin pass in safe mode and in vllm mode each rewrite a
copy of the lowered graph, and FixFunctionalizationPass runs last, as in vLLM's pass manager. On
these graphs, the ones vLLM's pass is written for, all three must remove the same clones, and
every rewritten graph must compute what the model computes eagerly and leave its non-donated
inputs as they were. Some variants also call a vLLM ``_C`` op through ``auto_functionalized``
(CPU stand-ins for vLLM's kernels), which FixFunctionalizationPass turns in place: declone's
plugin then decides on its copy of the graph as that pass leaves it.

The helpers at the top (CPU providers, blocks, ``lower``) are also used by test_plugin.py and by
bench/python/vllm_timing.py.
"""

import contextlib
import copy
import os

import pytest

os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")  # before vLLM picks its platform

torch = pytest.importorskip("torch")
pytest.importorskip("vllm", reason="vLLM is not installed (make venv-vllm)")

from torch import Tensor  # noqa: E402
from torch._guards import detect_fake_mode  # noqa: E402
from torch._higher_order_ops.auto_functionalize import auto_functionalized  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402
from vllm import ir  # noqa: E402
from vllm.compilation.passes.inductor_pass import get_pass_context, pass_context  # noqa: E402
from vllm.compilation.passes.ir.clone_elimination import (  # noqa: E402
    UnsafeCloneEliminationPass,
)
from vllm.compilation.passes.ir.inplace_functionalization import (  # noqa: E402
    VllmIRInplaceFunctionalizationPass,
)
from vllm.compilation.passes.ir.lowering_pass import VllmIRLoweringPass  # noqa: E402
from vllm.compilation.passes.utility.fix_functionalization import (  # noqa: E402
    FixFunctionalizationPass,
)
from vllm.config import set_current_vllm_config  # noqa: E402
from vllm.config.utils import Range  # noqa: E402

import declone.vllm  # noqa: E402

EPS = 1e-6
TOKENS, HIDDEN, MAMBA_WIDTH = 6, 8, 3
COMPILE_RANGE = Range(start=1, end=8192)
PROVIDER = "declone_cpu"
NAMESPACE = "declone_vllm_test"

# --- CPU kernels and providers ------------------------------------------------------------------
# The kernels have the schemas of vLLM's _C.rms_norm / _C.fused_add_rms_norm: an out-argument
# and two in-place arguments, which is what the providers lower the IR ops to on a GPU.

_library = torch.library.Library(NAMESPACE, "FRAGMENT")


def define_op(schema, kernel, fake, library=_library):
    """Defines ``schema`` in ``library`` with a CPU kernel and a fake one (also used by
    defunctionalize_programs.py for its own namespace)."""
    name = schema.split("(")[0]
    library.define(schema)
    library.impl(name, kernel, "CPU")
    torch.library.register_fake(f"{library.ns}::{name}", fake, lib=library)


def _fused_add_rms_norm_kernel(x, residual, weight, epsilon):
    native = ir.ops.fused_add_rms_norm.impls["native"].impl_fn
    out, new_residual = native(x, residual, weight, epsilon)
    x.copy_(out)
    residual.copy_(new_residual)


def _rms_norm_kernel(result, x, weight, epsilon):
    result.copy_(ir.ops.rms_norm.impls["native"].impl_fn(x, weight, epsilon))


def _mamba_mixer_kernel(x, out_proj):
    # Like the Mamba kernels, it reads its input as a dense row-major buffer: a (5, 1)-strided
    # slice where it expects (3, 1) would be read wrong, so it refuses one.
    if not x.is_contiguous():
        raise RuntimeError(f"mamba_mixer needs a contiguous input, got strides {x.stride()}")
    return x.cumsum(0) @ out_proj


define_op("fused_add_rms_norm(Tensor(a!) input, Tensor(b!) residual, Tensor? weight, "
          "float epsilon) -> ()", _fused_add_rms_norm_kernel, lambda x, r, w, eps: None)
define_op("rms_norm(Tensor(a!) result, Tensor input, Tensor? weight, float epsilon) -> ()",
          _rms_norm_kernel, lambda result, x, w, eps: None)
define_op("mamba_mixer(Tensor x, Tensor out_proj) -> Tensor", _mamba_mixer_kernel,
          lambda x, out_proj: x.new_empty((x.shape[0], out_proj.shape[1])))
_ops = getattr(torch.ops, NAMESPACE)


@ir.ops.fused_add_rms_norm.register_impl(PROVIDER, inplace=True)
def fused_add_rms_norm_cpu(
    x: Tensor,
    x_residual: Tensor,
    weight: Tensor | None,
    epsilon: float,
    variance_size: int | None = None,
) -> tuple[Tensor, Tensor]:
    assert variance_size is None
    _ops.fused_add_rms_norm(x, x_residual, weight, epsilon)
    return x, x_residual


@ir.ops.rms_norm.register_impl(PROVIDER)
def rms_norm_cpu(
    x: Tensor, weight: Tensor | None, epsilon: float, variance_size: int | None = None
) -> Tensor:
    assert variance_size is None
    result = torch.empty(x.shape, device=x.device, dtype=x.dtype)
    _ops.rms_norm(result, x, weight, epsilon)
    return result


@contextlib.contextmanager
def cpu_providers():
    """The CPU providers selected for lowering, as a platform's priority list would."""
    with ir.ops.fused_add_rms_norm.set_priority([PROVIDER, "native"]), \
            ir.ops.rms_norm.set_priority([PROVIDER, "native"]):
        yield


# --- vLLM's _C ops, stood in for ---------------------------------------------------------------
# FixFunctionalizationPass looks its ops up as torch.ops._C.<name>.default: rotary_embedding on
# every call, the others down its list until one matches an auto_functionalized node. Without
# vLLM's compiled _C, as here, the lookups fail. These stand-ins have the schemas of vLLM's
# torch_bindings.cpp; only rms_norm is ever run.
VLLM_C_SCHEMAS = {
    "rotary_embedding": "(Tensor positions, Tensor! query, Tensor!? key, int head_size, "
                        "Tensor cos_sin_cache, bool is_neox) -> ()",
    "fused_add_rms_norm": "(Tensor! input, Tensor! residual, Tensor weight, float epsilon) -> ()",
    "fused_add_rms_norm_static_fp8_quant": "(Tensor! result, Tensor input, Tensor! residual, "
                                           "Tensor weight, Tensor scale, float epsilon) -> ()",
    "rms_norm_dynamic_per_token_quant": "(Tensor! result, Tensor input, Tensor weight, "
                                        "Tensor! scale, float epsilon, Tensor? scale_ub, "
                                        "Tensor!? residual) -> ()",
    "rms_norm": "(Tensor! result, Tensor input, Tensor weight, float epsilon) -> ()",
    "rms_norm_static_fp8_quant": "(Tensor! result, Tensor input, Tensor weight, Tensor scale, "
                                 "float epsilon) -> ()",
    "silu_and_mul": "(Tensor! result, Tensor input) -> ()",
    "silu_and_mul_quant": "(Tensor! result, Tensor input, Tensor scale) -> ()",
    "fused_qk_norm_rope": "(Tensor! qkv, int num_heads_q, int num_heads_k, int num_heads_v, "
                          "int head_dim, float eps, Tensor q_weight, Tensor k_weight, "
                          "Tensor cos_sin_cache, bool is_neox, Tensor position_ids, "
                          "int forced_token_heads_per_warp) -> ()",
}


def define_vllm_c():
    """Defines the stand-ins in torch.ops._C; returns their Library (``_destroy()`` removes
    them), or None where vLLM's compiled _C is loaded (its kernels would run, not CPU ones)."""
    if hasattr(torch.ops._C, "rms_norm"):
        return None
    library = torch.library.Library("_C", "FRAGMENT")
    for name, schema in VLLM_C_SCHEMAS.items():
        library.define(name + schema)
    library.impl("rms_norm", _rms_norm_kernel, "CPU")
    torch.library.register_fake("_C::rms_norm", lambda result, x, weight, epsilon: None,
                                lib=library)
    return library


# --- blocks ------------------------------------------------------------------------------------


def block(kind, layers, c_rms_norm=False):
    """A decoder-like block of ``layers`` layers, taking (x, residual, norm_weight, proj,
    mixer_proj) and returning (normalized output, residual). With ``c_rms_norm`` each layer
    also normalizes through ``auto_functionalized(_C.rms_norm, result=empty, ...)``, as a
    model whose norm is a vLLM CustomOp does, and which FixFunctionalizationPass turns in place
    (``define_vllm_c`` must have run). ``kind``:

    - "donated": ``fused_add_rms_norm.maybe_inplace``: the inputs are donated to the first
      layer, each layer's activations to the next;
    - "functional": the functional overload: the inputs stay the caller's;
    - "reuse": the functional overload, and each layer's input is read again after it;
    - "mamba": donated, and each layer feeds a column slice made contiguous
      (``x[:, :3].contiguous()``) to a mixer kernel that needs it dense.
    """
    fused = (ir.ops.fused_add_rms_norm.maybe_inplace if kind in ("donated", "mamba")
             else ir.ops.fused_add_rms_norm)

    def forward(x, residual, norm_weight, proj, mixer_proj):
        for _ in range(layers):
            hidden, residual = fused(x, residual, norm_weight, EPS)
            if c_rms_norm:
                hidden = auto_functionalized(
                    torch.ops._C.rms_norm.default, result=torch.empty_like(hidden),
                    input=hidden, weight=norm_weight, epsilon=EPS)[1]
            if kind == "reuse":
                x = hidden @ proj + x
            elif kind == "mamba":
                x = _ops.mamba_mixer((hidden @ proj)[:, :MAMBA_WIDTH].contiguous(), mixer_proj)
            else:
                x = hidden @ proj
        return ir.ops.rms_norm(x, norm_weight, EPS), residual

    forward.__name__ = f"{kind}_{layers}" + ("_c_rms_norm" if c_rms_norm else "")
    return forward


def example_inputs(seed=0):
    generator = torch.Generator().manual_seed(seed)
    shapes = [(TOKENS, HIDDEN), (TOKENS, HIDDEN), (HIDDEN,), (HIDDEN, HIDDEN),
              (MAMBA_WIDTH, HIDDEN)]
    # Scaled so that 200 layers stay finite.
    return [torch.randn(shape, generator=generator) / HIDDEN ** 0.5 for shape in shapes]


def fake_mode_of(graph_module):
    return detect_fake_mode([node.meta.get("val") for node in
                             graph_module.graph.find_nodes(op="placeholder")])


@contextlib.contextmanager
def vllm_pass_context(config, donated_input_ids=()):
    """The contexts vLLM's backend runs its passes in, with the given donated inputs."""
    with set_current_vllm_config(config), pass_context(COMPILE_RANGE):
        get_pass_context().donated_input_ids = set(donated_input_ids)
        yield


def trace(forward, inputs, config):
    """make_fx on fake tensors, then VllmIRInplaceFunctionalizationPass (vLLM runs it before
    AOTAutograd): the IR graph and the donated input ids the pass found."""
    graph_module = make_fx(forward, tracing_mode="fake")(*inputs)
    with vllm_pass_context(config):
        VllmIRInplaceFunctionalizationPass(config)(graph_module.graph)
        donated = sorted(get_pass_context().donated_input_ids)
    return graph_module, donated


def lower(forward, inputs, config):
    """``trace``, then VllmIRLoweringPass with the CPU providers, under the graph's fake mode:
    lowering traces the providers on the nodes' fake values, and the tensors they allocate
    must be fake too."""
    graph_module, donated = trace(forward, inputs, config)
    with vllm_pass_context(config, donated), cpu_providers(), fake_mode_of(graph_module):
        VllmIRLoweringPass(config)(graph_module.graph)
    graph_module.recompile()
    return graph_module, donated


def clone_names(graph):
    return [node.name for node in graph.nodes
            if node.op == "call_function" and node.target is torch.ops.aten.clone.default]


def run_pass(clone_pass, graph_module, donated, config, fix_functionalization=False):
    """``clone_pass`` on a copy of ``graph_module`` in vLLM's pass context, then, with
    ``fix_functionalization``, FixFunctionalizationPass as vLLM's manager runs it last (it needs
    ``define_vllm_c``): the copy, and the names of the clones the clone pass removed."""
    rewritten = copy.deepcopy(graph_module)
    before = clone_names(rewritten.graph)
    with vllm_pass_context(config, donated):
        clone_pass(rewritten.graph)
        left = set(clone_names(rewritten.graph))
        if fix_functionalization:
            FixFunctionalizationPass(config)(rewritten.graph)
    rewritten.recompile()
    return rewritten, [name for name in before if name not in left]


def compare_with_eager(forward, graph_module, donated, seed=1):
    """Runs ``forward`` eagerly (the IR ops' native implementations) and ``graph_module`` on
    copies of the same inputs; returns what differs: outputs by value, and the inputs that are
    not donated by their contents afterwards (a donated input's contents are undefined
    afterwards), or the error the graph raised. Empty when they match."""
    inputs = example_inputs(seed)
    expected = forward(*[tensor.clone() for tensor in inputs])
    arguments = [tensor.clone() for tensor in inputs]
    try:
        actual = graph_module(*arguments)
    except RuntimeError as error:  # a kernel refusing what a wrong rewrite gives it
        return [f"raised {error}"]
    differences = []
    for index, (want, got) in enumerate(zip(expected, actual)):
        if not torch.allclose(want, got, rtol=1e-4, atol=1e-5):
            differences.append(f"output {index}")
    for index, (before, after) in enumerate(zip(inputs, arguments)):
        if index not in donated and not torch.equal(before, after):
            differences.append(f"input {index} written")
    return differences


# --- the test ----------------------------------------------------------------------------------

# (kind, layers, c_rms_norm): the last ones take declone's plugin through its copy of the graph
# as FixFunctionalizationPass leaves it.
VARIANTS = [("donated", 1, False), ("donated", 2, False), ("donated", 4, False),
            ("functional", 1, False), ("functional", 4, False), ("reuse", 1, False),
            ("reuse", 3, False), ("mamba", 1, False), ("mamba", 4, False),
            ("donated", 2, True), ("reuse", 2, True), ("mamba", 2, True)]
ELIMINATORS = ("real", "safe", "vllm")

_TABLE = []


@pytest.fixture(scope="module")
def table(report):
    """The rows of the summary table, written to the terminal summary after the module."""
    yield _TABLE
    header = (f"{'variant':<22}{'clones':>7}   " + "".join(f"{f'{name} removed':<15}"
                                                        for name in ELIMINATORS)
              + "matches eager (real/safe/vllm)")
    lines = [header] + [
        f"{variant:<22}{clones:>7}   " + "".join(f"{len(names):<15}" for names in removed)
        + "/".join("yes" if match else "NO" for match in matches)
        for variant, clones, removed, matches in _TABLE]
    report["vLLM IR pipeline: clones removed by each eliminator"] = lines


@pytest.fixture(scope="module")
def vllm_c():
    library = define_vllm_c()
    yield
    if library is not None:
        library._destroy()


def _variant_name(kind, layers, c_rms_norm):
    return f"{kind}-{layers}" + ("+_C.rms_norm" if c_rms_norm else "")


@pytest.mark.parametrize("kind,layers,c_rms_norm", VARIANTS,
                         ids=[_variant_name(*variant) for variant in VARIANTS])
def test_ir_pipeline(kind, layers, c_rms_norm, vllm_config, vllm_c, table):
    forward = block(kind, layers, c_rms_norm)
    lowered, donated = lower(forward, example_inputs(), vllm_config)
    clones = clone_names(lowered.graph)
    assert clones, "lowering the in-place provider made no clones: nothing is tested"

    eliminators = {
        "real": UnsafeCloneEliminationPass(vllm_config),
        "safe": declone.vllm.CloneEliminationPass(vllm_config, "safe"),
        "vllm": declone.vllm.CloneEliminationPass(vllm_config, "vllm"),
    }
    removed, differences = {}, {}
    for name, eliminator in eliminators.items():
        rewritten, removed[name] = run_pass(eliminator, lowered, donated, vllm_config,
                                            fix_functionalization=True)
        differences[name] = compare_with_eager(forward, rewritten, donated)
    table.append((_variant_name(kind, layers, c_rms_norm), len(clones),
                  [removed[name] for name in ELIMINATORS],
                  [not differences[name] for name in ELIMINATORS]))

    assert removed["safe"] == removed["real"], (
        f"declone safe removed {removed['safe']}, vLLM's pass {removed['real']}\n"
        + "\n".join(map(str, eliminators["safe"].remarks)))
    assert removed["vllm"] == removed["real"], (
        f"declone vllm removed {removed['vllm']}, vLLM's pass {removed['real']}")
    assert not any(differences.values()), f"differences from eager: {differences}"
    # The variants differ in what must stay: a clone of an input the caller keeps, of a value
    # read again after the write, or one that changes the layout.
    if kind in ("functional", "reuse", "mamba"):
        assert len(removed["real"]) < len(clones), f"{kind}: every clone removed"
    if kind == "donated":
        assert len(removed["real"]) == len(clones), f"{kind}: clones left"
