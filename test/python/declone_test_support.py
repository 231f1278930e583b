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

def copy_input(value):
    """A copy with its own storage and the same sizes, strides and storage offset."""
    if not isinstance(value, torch.Tensor):
        return copy.deepcopy(value)
    storage = value.storage().clone()
    out = torch.empty(0, dtype=value.dtype, device=value.device)
    out.set_(storage, value.storage_offset(), value.size(), value.stride())
    return out


def flatten(value):
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in flatten(item)]
    return [value]


def storage_ptr(t):
    return t.storage().data_ptr()


class Run:
    """The outputs and the final inputs of one execution."""

    def __init__(self, inputs, outputs):
        self.inputs, self.outputs = inputs, outputs

    def aliasing(self, donated=()):
        """Which outputs share storage with which non-donated inputs and with each other."""
        inputs = {storage_ptr(t): i for i, t in enumerate(self.inputs)
                  if isinstance(t, torch.Tensor) and i not in donated}
        facts = set()
        out_ptrs = {}
        for k, out in enumerate(self.outputs):
            if not isinstance(out, torch.Tensor):
                continue
            ptr = storage_ptr(out)
            if ptr in inputs:
                facts.add(("output", k, "input", inputs[ptr]))
            for j in out_ptrs.get(ptr, []):
                facts.add(("output", j, "output", k))
            out_ptrs.setdefault(ptr, []).append(k)
        return facts


def run(gm, inputs, seed=0):
    copies = [copy_input(t) for t in inputs]
    torch.manual_seed(seed)
    with torch.no_grad():
        outputs = flatten(gm(*copies))
    return Run(copies, outputs)


def _same_tensor(a, b, what, exact):
    problems = []
    if a.shape != b.shape:
        problems.append(f"{what}: shape {tuple(b.shape)} != {tuple(a.shape)}")
        return problems
    if a.dtype != b.dtype:
        problems.append(f"{what}: dtype {b.dtype} != {a.dtype}")
        return problems
    if a.stride() != b.stride():
        problems.append(f"{what}: stride {b.stride()} != {a.stride()}")
    if a.storage_offset() != b.storage_offset():
        problems.append(f"{what}: storage offset {b.storage_offset()} != {a.storage_offset()}")
    try:
        if exact:
            torch.testing.assert_close(b, a, rtol=0, atol=0, equal_nan=True)
        else:
            torch.testing.assert_close(b, a, equal_nan=True)
    except AssertionError as e:
        problems.append(f"{what}: values differ: {str(e).splitlines()[0:3]}")
    return problems


def compare_runs(before, after, donated=(), check_aliasing=True, exact=True):
    """Differences between two runs of the same program on copies of the same inputs: every
    output's values, sizes, strides and storage offset; every non-donated input's final
    contents; which outputs alias non-donated inputs or each other."""
    problems = []
    if len(before.outputs) != len(after.outputs):
        return [f"{len(after.outputs)} outputs != {len(before.outputs)}"]
    for k, (a, b) in enumerate(zip(before.outputs, after.outputs)):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            problems += _same_tensor(a, b, f"output {k}", exact)
        elif a != b:
            problems.append(f"output {k}: {b!r} != {a!r}")
    for i, (a, b) in enumerate(zip(before.inputs, after.inputs)):
        if i in donated or not isinstance(a, torch.Tensor):
            continue
        problems += [p.replace("values differ", "final contents differ")
                     for p in _same_tensor(a, b, f"input {i}", exact)]
    if check_aliasing:
        fa, fb = before.aliasing(donated), after.aliasing(donated)
        for fact in sorted(fb - fa):
            problems.append("new alias: %s %d aliases %s %d" % fact)
        for fact in sorted(fa - fb):
            problems.append("lost alias: %s %d aliases %s %d" % fact)
    return problems


def recompile(gm):
    gm.graph.lint()
    gm.recompile()
    return gm


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
