"""Shared helpers for the declone Python tests: tracing, running a GraphModule on copies of the
same inputs, and comparing two runs (outputs, strides, storage offsets, final inputs, aliasing).
"""

import copy
import os
import pathlib
import shutil
import subprocess
import sys

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

from declone import _verify

CLONE = torch.ops.aten.clone.default
REPO = pathlib.Path(__file__).resolve().parents[2]
BENCH_DIR = REPO / "bench" / "python"

# The Python restatement of vLLM's pass lives next to the benchmark that times it.
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))
from vllm_reference import vllm_clone_elimination  # noqa: E402,F401  (re-exported)


# --- environment ---------------------------------------------------------------------------

_TORCHVISION_STAND_INS = []


def let_torchvision_import():
    """PyPI's torchvision wheels are built against PyPI's CUDA torch: beside the CPU torch wheel
    their C++ operators (_C.so needs libtorch_cuda.so) do not load, and torchvision 0.28 then
    fails at import, registering fake kernels for two of them (nms, qnms) that do not exist.
    The tests (and timm) use only torchvision's Python models and layers: where the library
    does not load, declaring those two operators lets the import go through. Nothing is
    declared where it loads (Debian's python3-torchvision)."""
    import importlib.util
    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        return
    library = next(pathlib.Path(spec.submodule_search_locations[0]).glob("_C*.so"), None)
    if library is None:
        return
    try:
        torch.ops.load_library(str(library))
        return
    except (OSError, ImportError):
        pass
    if hasattr(torch.ops.torchvision, "nms"):
        return
    stand_ins = torch.library.Library("torchvision", "DEF")
    stand_ins.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    stand_ins.define("qnms(Tensor qdets, Tensor scores, float iou_threshold) -> Tensor")
    _TORCHVISION_STAND_INS.append(stand_ins)  # the definitions last as long as the library


# --- tracing -------------------------------------------------------------------------------

def trace(fn, *inputs, tracing_mode="fake"):
    """make_fx at aten level. torch 1.13: "real" records only meta["tensor_meta"] (no storage
    offset, no device), "fake" records meta["val"] (FakeTensor) and tensor_meta; in-place ops
    stay in-place."""
    return make_fx(fn, tracing_mode=tracing_mode)(*inputs)


def clones(graph_or_module):
    graph = getattr(graph_or_module, "graph", graph_or_module)
    return [n for n in graph.nodes if n.op == "call_function" and n.target is CLONE]


def clone_names(graph_or_module):
    return [n.name for n in clones(graph_or_module)]


def placeholder_names(graph_or_module):
    graph = getattr(graph_or_module, "graph", graph_or_module)
    return [n.name for n in graph.nodes if n.op == "placeholder"]


# --- running -------------------------------------------------------------------------------

# One place for each fact: the copies, the runs and the comparison are those of
# declone.fx.eliminate_clones(..., verify=True) (declone/_verify.py), which says what differs as
# `declone verify` does; the tests compare exactly (no tolerance) unless told otherwise.
copy_input = _verify.copy_value  # a copy with its own storage, the same sizes/strides/offset
flatten = _verify.flatten
Run = _verify.Run  # the outputs and the final inputs of one execution


def run(gm, inputs, seed=0):
    """Runs ``gm`` on copies of ``inputs`` (seeded, autograd off)."""
    return _verify.run_callable(gm, inputs, seed)


def compare_runs(before, after, donated=(), check_aliasing=True, exact=True):
    """Differences between two runs of the same program on copies of the same inputs: every
    output's values, sizes, strides and storage offset; every non-donated input's final
    contents; which outputs alias non-donated inputs or each other."""
    return _verify.differences(before, after, donated, exact=exact, aliasing=check_aliasing,
                               every=True)


def recompile(gm):
    gm.graph.lint()
    gm.recompile()
    return gm


def without_clones(gm):
    """A copy of ``gm`` with every clone dropped by hand: the rewrite a careless pass makes."""
    out = copy.deepcopy(gm)
    for node in list(out.graph.nodes):
        if node.target is CLONE:
            node.replace_all_uses_with(node.args[0])
            out.graph.erase_node(node)
    return recompile(out)


# --- the CLI -------------------------------------------------------------------------------

def find_cli():
    """DECLONE_BIN, else bin/declone next to the python/ dir that declone was imported from."""
    explicit = os.environ.get("DECLONE_BIN")
    if explicit:
        return explicit
    import declone
    package_dir = pathlib.Path(declone.__file__).resolve().parent   # <build>/python/declone
    candidate = package_dir.parent.parent / "bin" / "declone"
    if candidate.exists():
        return str(candidate)
    return shutil.which("declone")


@pytest.fixture(scope="session")
def cli():
    """The CLI (find_cli); skips the test where it is not built. A conftest or test module
    imports it by name to use it."""
    path = find_cli()
    if not path or not os.path.exists(path):
        pytest.skip("declone CLI not found: set DECLONE_BIN or build <build>/bin/declone")
    return path


def run_cli(cli, *args, stdin=None, timeout=300):
    return subprocess.run([cli, *map(str, args)], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


# --- torchvision models at aten level ------------------------------------------------------

MODELS = ("resnet18", "mobilenet_v2", "shufflenet_v2_x0_5", "efficientnet_b0")
PHASES = ("eval", "train")
IMAGE = (2, 3, 64, 64)

_MODEL_CACHE = {}


def traced_model(name, phase):
    """(GraphModule, inputs): the model's parameters, buffers and an image as placeholders.

    eval: the forward in eval mode. train: forward and backward in training mode (returns the
    loss and the parameter gradients; batch norm updates its running stats in place), with
    dropout and stochastic depth off so that the graphs are deterministic. Parameters
    require grad while tracing, as in training, which is where the clones around in-place
    activations come from. The cached GraphModule must not be rewritten: deepcopy it.
    """
    key = (name, phase)
    if key not in _MODEL_CACHE:
        import torchvision
        from torch.nn.utils import stateless

        torch.manual_seed(0)
        model = getattr(torchvision.models, name)()
        model.train(phase == "train")
        # No dropout / stochastic depth: `declone verify` does not replay random numbers
        # (test_verify_is_deterministic_with_random_ops), and the train graphs should verify.
        for module in model.modules():
            if isinstance(module, torch.nn.Dropout) or type(module).__name__ == "StochasticDepth":
                module.eval()
        params = dict(model.named_parameters())
        buffers = dict(model.named_buffers())
        pnames, bnames = list(params), list(buffers)

        def forward(*args):
            p = args[:len(pnames)]
            b = args[len(pnames):-1]
            state = {**dict(zip(pnames, p)), **dict(zip(bnames, b))}
            out = stateless.functional_call(model, state, (args[-1],))
            if phase == "eval":
                return out
            loss = out.sum()
            return (loss, *torch.autograd.grad(loss, p))

        image = torch.randn(*IMAGE)
        trace_args = [*params.values(), *buffers.values(), image]
        gm = make_fx(forward, tracing_mode="fake")(*trace_args)
        inputs = [t.detach().clone() for t in trace_args]
        if phase == "eval":
            # Plausible running stats: var > 0.
            for i, bname in enumerate(bnames):
                if bname.endswith("running_var"):
                    inputs[len(pnames) + i].uniform_(0.5, 1.5)
        _MODEL_CACHE[key] = (gm, inputs)
    gm, inputs = _MODEL_CACHE[key]
    return copy.deepcopy(gm), inputs
