#!/usr/bin/python3
"""Times clone elimination on live torch.fx graphs: a Python restatement of vLLM's
UnsafeCloneEliminationPass (vllm_reference.py) against declone.fx.eliminate_clones in "vllm"
and "safe" mode.

    PYTHONPATH=<build>/python /usr/bin/python3 bench/python/clone_pass_bench.py [--blocks N]
        [--repeats N] [--models] [--json OUT]

Graphs: a make_fx (fake mode) trace of a deep stack of small blocks, each with the clone
patterns vLLM's pass meets (read-only clone, written clone whose source is used later, written
clone whose source is dead, layout-changing .contiguous(), chains), ~10k nodes by default; with
--models also torchvision training graphs (forward + backward). Each pass runs on a fresh
deepcopy of the GraphModule (copy not timed); the best of --repeats runs is reported. The
decisions of the Python pass and of declone's vllm mode are compared on every graph.
"""

import argparse
import copy
import gc
import json
import os
import sys
import time

import torch
from torch.fx.experimental.proxy_tensor import make_fx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vllm_reference import vllm_clone_elimination  # noqa: E402

import declone.fx  # noqa: E402

CLONE = torch.ops.aten.clone.default

# CPU time of this process: both passes are single-threaded Python and C++, and CPU time does
# not count the time other processes take from a busy machine.
_clock = time.process_time


def block(x, y, i):
    a = x * 1.5 + y                       # 2 nodes
    r = a.clone() * 2                     # read-only clone: removed
    w = a.clone()
    w.add_(1)                             # written clone, a used after: kept
    k = (a - 1).clone()
    k.relu_()                             # written clone, source dead: removed
    t = a.t().contiguous().t()            # layout-changing clone: kept
    ch = r.clone().clone()                # chain: removed
    return (w + a) * 0.25 + k * ch - t * 0.5, y


def stack(blocks):
    def f(x, y):
        for i in range(blocks):
            x, y = block(x, y, i)
        return x
    return f


def trace_stack(blocks):
    return make_fx(stack(blocks), tracing_mode="fake")(torch.randn(8, 16), torch.randn(8, 16))


def trace_model(name):
    import torchvision
    from torch.nn.utils import stateless

    torch.manual_seed(0)
    model = getattr(torchvision.models, name)().train()
    params, buffers = dict(model.named_parameters()), dict(model.named_buffers())
    pnames, bnames = list(params), list(buffers)

    def f(*args):
        p, b = args[:len(pnames)], args[len(pnames):-1]
        out = stateless.functional_call(model, {**dict(zip(pnames, p)), **dict(zip(bnames, b))},
                                        (args[-1],))
        loss = out.sum()
        return (loss, *torch.autograd.grad(loss, p))

    return make_fx(f, tracing_mode="fake")(*params.values(), *buffers.values(),
                                           torch.randn(2, 3, 64, 64))


def best_of(gm, repeats, fn):
    """Best CPU time of fn on fresh copies of gm. As timeit does, the cyclic garbage collector
    is off while timing: the copy leaves enough garbage behind that a collection would land in
    whichever pass allocates first."""
    best, result = float("inf"), None
    for _ in range(repeats):
        fresh = copy.deepcopy(gm)
        gc.collect()
        gc.disable()
        try:
            start = _clock()
            result = fn(fresh.graph)
            best = min(best, _clock() - start)
        finally:
            gc.enable()
    return best * 1e3, result


def import_and_core_time(gm, repeats):
    """Converting the whole live graph into declone's C++ graph alone (with the annotations
    vllm mode reads, as eliminate_clones does), and converting plus the C++ pass (analyses and
    decisions) without touching the live graph, under best_of's conditions; (None, None) when
    the extension's entry points are not available."""
    try:
        import_graph = declone.fx._import
    except AttributeError:
        return None, None
    import_best = pass_best = float("inf")
    for _ in range(repeats):
        fresh = copy.deepcopy(gm)
        gc.collect()
        gc.disable()
        try:
            start = _clock()
            imported = import_graph(fresh.graph, True, "vllm")
            middle = _clock()
            imported.eliminate_clones([], "vllm")
            end = _clock()
        finally:
            gc.enable()
        import_best = min(import_best, middle - start)
        pass_best = min(pass_best, end - middle)
    return import_best * 1e3, pass_best * 1e3


def measure(label, gm, repeats):
    clones = sum(1 for n in gm.graph.nodes if n.target is CLONE)
    py_ms, reference = best_of(gm, repeats, lambda g: vllm_clone_elimination(g))
    vllm_ms, ours = best_of(gm, repeats, lambda g: declone.fx.eliminate_clones(g, mode="vllm"))
    safe_ms, safe = best_of(gm, repeats, lambda g: declone.fx.eliminate_clones(g, mode="safe"))
    dumps_ms, _ = best_of(gm, repeats, declone.fx.dumps)
    import_ms, core_ms = import_and_core_time(gm, repeats)
    agree = [(r.node, r.decision) for r in ours] == [(d.node, d.decision) for d in reference]
    return {
        "graph": label, "nodes": len(gm.graph.nodes), "clones": clones,
        "removed_python": sum(d.decision == "removed" for d in reference),
        "removed_vllm": sum(r.decision == "removed" for r in ours),
        "removed_safe": sum(r.decision == "removed" for r in safe),
        "python_ms": py_ms, "declone_vllm_ms": vllm_ms, "declone_safe_ms": safe_ms,
        "dumps_ms": dumps_ms, "import_ms": import_ms, "core_ms": core_ms,
        "vllm_ratio": vllm_ms / py_ms, "safe_ratio": safe_ms / py_ms,
        "decisions_agree": agree,
    }


def _ms(value):
    return "n/a" if value is None else format(value, ".2f")


def print_table(rows):
    header = (f"{'graph':<26}{'nodes':>7}{'clones':>8}{'removed py/vllm/safe':>22}"
              f"{'python ms':>11}{'vllm ms':>10}{'ratio':>7}{'safe ms':>10}{'ratio':>7}"
              f"{'import ms':>11}{'core ms':>9}{'dumps ms':>10}  agree")
    print(header)
    print("-" * len(header))
    for r in rows:
        removed = f"{r['removed_python']}/{r['removed_vllm']}/{r['removed_safe']}"
        print(f"{r['graph']:<26}{r['nodes']:>7}{r['clones']:>8}{removed:>22}"
              f"{r['python_ms']:>11.2f}{r['declone_vllm_ms']:>10.2f}{r['vllm_ratio']:>7.2f}"
              f"{r['declone_safe_ms']:>10.2f}{r['safe_ratio']:>7.2f}{_ms(r['import_ms']):>11}"
              f"{_ms(r['core_ms']):>9}{r['dumps_ms']:>10.2f}  "
              f"{'yes' if r['decisions_agree'] else 'NO'}")
    print("ratio = declone time / Python vLLM pass time (lower is faster). declone's time is "
          "'import' (live graph -> C++ graph),\n'core' (analyses and decisions; vllm mode) and "
          "replaying the removals on the live graph. 'dumps' is live graph -> text.")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=476, help="blocks in the synthetic stack "
                        "(21 nodes each; 476 is ~10k nodes)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--models", action="store_true",
                        help="also torchvision training graphs (mobilenet_v2, efficientnet_b0)")
    parser.add_argument("--json", help="write the rows as JSON to this file")
    args = parser.parse_args()

    start = time.perf_counter()
    graphs = [(f"stack x{args.blocks}", trace_stack(args.blocks))]
    if args.models:
        graphs += [(f"{m}/train", trace_model(m)) for m in ("mobilenet_v2", "efficientnet_b0")]
    print(f"traced {len(graphs)} graph(s) in {time.perf_counter() - start:.1f} s; "
          f"best of {args.repeats} runs (CPU time), torch {torch.__version__}\n")
    rows = [measure(label, gm, args.repeats) for label, gm in graphs]
    print_table(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
            f.write("\n")
    return 0 if all(r["decisions_agree"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
