#!/usr/bin/env python3
"""Times declone's vLLM plugin pass (safe and vllm mode) against vLLM's own
UnsafeCloneEliminationPass, on a deep vLLM IR block lowered by vLLM's passes.

    PYTHONPATH=build/python VLLM_TARGET_DEVICE=cpu .venv-vllm/bin/python \\
        bench/python/vllm_timing.py [--layers 200] [--kind mamba] [--c-rms-norm] [--repeats 15]

The block is test/vllm/test_ir_pipeline.py's (make_fx on fake tensors, then
VllmIRInplaceFunctionalizationPass and VllmIRLoweringPass with its in-place CPU provider): in
"mamba" kind each layer has two clones of the lowered fused_add_rms_norm, which go, and one
layout-changing ``.contiguous()``, which stays. With --c-rms-norm each layer also calls
``auto_functionalized(_C.rms_norm, ...)`` (a CPU stand-in for vLLM's kernel), which
FixFunctionalizationPass turns in place: declone's safe mode then decides on a copy of the graph
as that pass leaves it, and that copy is part of its time. Each pass runs as PostGradPassManager
calls it (its ``__call__``, in vLLM's pass context with the donated inputs) on a fresh deepcopy
of the lowered graph (that copy not timed); the passes take turns within each repeat, in a
rotating order, so that a busy machine slows them alike. The median CPU time of each is
reported, and declone's as a ratio of vLLM's. All three must remove the same clones.
"""

import argparse
import copy
import os
import pathlib
import statistics
import sys
import time

os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "test" / "vllm"))

import test_ir_pipeline as pipeline  # noqa: E402
from vllm.compilation.passes.ir.clone_elimination import (  # noqa: E402
    UnsafeCloneEliminationPass,
)
from vllm.config import VllmConfig  # noqa: E402

import declone.vllm  # noqa: E402

# CPU time of this process: the passes are single-threaded, and CPU time does not count what
# other processes take from a shared machine.
_clock = time.process_time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", type=int, default=200)
    parser.add_argument("--kind", default="mamba",
                        choices=["donated", "functional", "reuse", "mamba"])
    parser.add_argument("--c-rms-norm", action="store_true",
                        help="each layer also calls auto_functionalized(_C.rms_norm)")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    # Held until the end: the stand-ins live as long as their Library.
    vllm_c = pipeline.define_vllm_c() if args.c_rms_norm else None  # noqa: F841
    config = VllmConfig()
    start = time.perf_counter()
    lowered, donated = pipeline.lower(pipeline.block(args.kind, args.layers, args.c_rms_norm),
                                      pipeline.example_inputs(), config)
    clones = pipeline.clone_names(lowered.graph)
    with_c = " with _C.rms_norm" if args.c_rms_norm else ""
    print(f"{args.kind} block{with_c}, {args.layers} layers: {len(lowered.graph.nodes)} nodes, "
          f"{len(clones)} clones, {len(donated)} donated inputs "
          f"(traced and lowered in {time.perf_counter() - start:.1f} s)")

    passes = {
        "vLLM UnsafeCloneEliminationPass": UnsafeCloneEliminationPass(config),
        "declone plugin, safe": declone.vllm.CloneEliminationPass(config, "safe"),
        "declone plugin, vllm": declone.vllm.CloneEliminationPass(config, "vllm"),
    }
    names = list(passes)
    seconds = {name: [] for name in names}
    removed = {}
    for repeat in range(args.repeats):
        for name in names[repeat % len(names):] + names[:repeat % len(names)]:
            graph_module = copy.deepcopy(lowered)
            with pipeline.vllm_pass_context(config, donated):
                begin = _clock()
                passes[name](graph_module.graph)
                seconds[name].append(_clock() - begin)
            left = set(pipeline.clone_names(graph_module.graph))
            removed.setdefault(name, [clone for clone in clones if clone not in left])

    reference = statistics.median(seconds[names[0]])
    print(f"median CPU time of {args.repeats} interleaved runs:")
    for name in names:
        median = statistics.median(seconds[name])
        print(f"  {name:<34}{median * 1e3:9.2f} ms  {median / reference:6.2f}x vLLM's   "
              f"removed {len(removed[name])} of {len(clones)}")
    if any(removed[name] != removed[names[0]] for name in names):
        sys.exit("the passes removed different clones")


if __name__ == "__main__":
    main()
