"""declone's vLLM modes decide clone for clone as the real vLLM passes, on random programs.

For every seed, random_programs.generate traces an in-place-heavy program with make_fx (fake
tensors, so views share storages as in vLLM's graphs). The real
``vllm.compilation.passes.ir.clone_elimination.UnsafeCloneEliminationPass`` rewrites one deep
copy (inside vLLM's pass context, with the program's donated inputs) and
``declone.fx.eliminate_clones(..., mode="vllm")`` another. Every clone vLLM decides must get the
same decision, and the same decisions must give the same graph; where vLLM fails an assertion
(two direct writers of one clone), declone must keep that clone with the reason
``unsupported`` (the clones before it are compared as well; vLLM never decides those after it).
``mode="vllm-0.32"`` is compared in the same way with vLLM 0.32.0's pass, which is 0.33.0's
without ``would_alias_graph_io`` (conftest.VllmClonePass). A sample of the graphs also goes
through the CLI (``dumps`` -> ``declone opt --mode vllm --remarks=json``), which must decide as
the real pass does (with and without some values).

The first 300 graphs are compared again with about a third of their call_function nodes
stripped of meta["val"], as a node another pass inserted without one: vLLM then takes the
clone's layout as kept and its storage as shared, whatever declone could compute.

A disagreement is shrunk (statements dropped while it persists) and reported with the minimal
program, its dump and both passes' decisions. The counts, and how often each of the pass's
rules decided (declone's reason codes), are printed at the end of the session.

DECLONE_VLLM_PARITY_SEEDS sets the number of seeds (default below).
"""

import collections
import copy
import dataclasses
import functools
import hashlib
import json
import os
import time
from typing import Dict, List

import pytest
import torch

import declone.fx
import declone_test_support as support
from random_programs import custom_op_schemas, generate, shrink

SEEDS = range(int(os.environ.get("DECLONE_VLLM_PARITY_SEEDS", "1200")))
CLI_SEEDS = SEEDS[::4]  # the CLI runs one process per graph
# Decisions compared over the default seeds, at least (a run with fewer seeds, by hand, needs
# only some).
MIN_CLONES = 1 if "DECLONE_VLLM_PARITY_SEEDS" in os.environ else 3000
SHOWN = 3                # disagreements shrunk and shown in full
METADATA_SEEDS = 300     # graphs compared again with some nodes' meta["val"] removed


@dataclasses.dataclass
class Comparison:
    clones: int                 # clones in the graph
    compared: int               # clones both passes decided (vLLM's asserting one included)
    asserted: bool
    problems: List[str]
    vllm: object                # conftest.VllmOutcome
    declone: Dict[str, str]     # clone -> declone's remark, as text
    outcomes: collections.Counter  # declone's "removed" or reason code, per compared clone
    graph: object               # the GraphModule compared (as it was before either pass)


def _describe(remark):
    """A remark as "removed" or "kept [reason]: detail", from a Remark or a --remarks=json row."""
    get = remark.get if isinstance(remark, dict) else lambda key: getattr(remark, key)
    if get("decision") == "removed":
        return "removed"
    return f"kept [{get('reason')}]: {get('detail')}"


@functools.lru_cache(maxsize=None)
def program_and_graph(seed):
    """generate(seed), traced once for all the tests here (the passes rewrite copies)."""
    return generate(seed)


def compare(vllm_pass, program, gm, remarks=None, mode="vllm"):
    """Runs vLLM's pass on a copy of ``gm``; compares its decisions with ``remarks`` (one per
    clone, as Remark objects or JSON rows), by default those of declone.fx in ``mode`` on
    another copy, whose rewritten graph must then equal vLLM's."""
    names = support.clone_names(gm)
    real_gm = copy.deepcopy(gm)
    real = vllm_pass(real_gm.graph, program.donated)
    ours_gm = None
    if remarks is None:
        ours_gm = copy.deepcopy(gm)
        remarks = declone.fx.eliminate_clones(ours_gm.graph, program.donated, mode=mode)
    get = lambda r, key: r[key] if isinstance(r, dict) else getattr(r, key)  # noqa: E731
    ours = {get(r, "node"): r for r in remarks}
    problems = []
    outcomes = collections.Counter()
    for name in names:
        remark = ours.get(name)
        if remark is None:
            problems.append(f"{name}: declone gave no remark")
            continue
        decision, reason = get(remark, "decision"), get(remark, "reason")
        if name == real.asserted or name in real.decisions:
            outcomes[reason or decision] += 1
        if name == real.asserted:
            if decision != "kept" or reason != "unsupported":
                problems.append(f"{name}: vLLM asserts ({real.assertion}); declone: "
                                f"{_describe(remark)}")
        elif name in real.decisions:
            if decision != real.decisions[name]:
                problems.append(f"{name}: vLLM {real.decisions[name]}; declone "
                                f"{_describe(remark)}")
            elif reason == "unsupported":
                problems.append(f"{name}: declone says vLLM asserts here; vLLM "
                                f"{real.decisions[name]} it")
    # Same decisions must make the same graph (declone.fx replays its removals in order).
    if not problems and not real.asserted and ours_gm is not None \
            and str(real_gm.graph) != str(ours_gm.graph):
        problems.append(f"same decisions, different graphs:\nvLLM:\n{real_gm.graph}\n"
                        f"declone:\n{ours_gm.graph}")
    compared = len(real.decisions) + (real.asserted is not None)
    return Comparison(len(names), compared, real.asserted is not None, problems, real,
                      {get(r, "node"): _describe(r) for r in remarks}, outcomes, gm)


def explain(program, check, what="vLLM 0.33.0"):
    """The shrunk program of a disagreement, its dump and both passes' decisions."""
    minimal = shrink(program, lambda p: check(p, p.trace()).problems)
    result = check(minimal, minimal.trace())
    ours = "\n".join(f"  {name}: {text}" for name, text in result.declone.items())
    return (f"--- minimal program (from seed {program.seed}) ---\n{minimal.source()}"
            f"--- dump ---\n{declone.fx.dumps(result.graph)}"
            f"--- donated: {list(minimal.donated)}\n"
            f"--- {what}: {result.vllm}\n--- declone:\n{ours}\n"
            f"--- disagreements:\n  " + "\n  ".join(result.problems))


def mode_is_built(mode):
    """Whether this build of declone.fx takes ``mode``."""
    gm = support.trace(lambda x: x.clone(), torch.ones(2))
    try:
        declone.fx.eliminate_clones(gm.graph, (), mode=mode)
    except ValueError:
        return False
    return True


# declone's mode -> the real pass it must reproduce (a conftest fixture) and its name.
MODES = {"vllm": ("vllm_clone_pass", "vLLM 0.33.0"),
         "vllm-0.32": ("vllm_032_clone_pass", "vLLM 0.32.0")}


def strip_some_metadata(gm, fraction=0.3):
    """A copy of ``gm`` in which about ``fraction`` of the call_function nodes have no
    meta["val"] (nor tensor_meta), as a node another pass inserts without one. Which nodes is
    fixed by their names, so that shrinking keeps the choice."""
    gm = copy.deepcopy(gm)  # node metas are copied, the values in them shared
    for node in gm.graph.nodes:
        if node.op == "call_function":
            digest = hashlib.sha256(node.name.encode()).digest()
            if digest[0] < fraction * 256:
                node.meta.pop("val", None)
                node.meta.pop("tensor_meta", None)
    return gm


def run_parity(mode, request, report, seeds, prepare=lambda gm: gm, label=""):
    """Compares declone's ``mode`` with the real pass it reproduces on ``prepare``d graphs of
    ``seeds``; reports the counts; fails with the first disagreements, shrunk. Returns the
    number of decisions compared."""
    fixture, what = MODES[mode]
    vllm_pass = request.getfixturevalue(fixture)
    if not mode_is_built(mode):
        pytest.skip(f"this build of declone has no mode {mode!r}")
    start = time.perf_counter()
    graphs = clones = compared = asserted = 0
    outcomes = collections.Counter()
    failing = []
    check = lambda p, gm: compare(vllm_pass, p, prepare(gm), mode=mode)  # noqa: E731
    for seed in seeds:
        program, gm = program_and_graph(seed)
        result = check(program, gm)
        graphs += 1
        clones += result.clones
        compared += result.compared
        asserted += result.asserted
        outcomes += result.outcomes
        if result.problems:
            failing.append((program, result))
    disagreeing = sum(len(r.problems) for _, r in failing)
    agreed = compared - disagreeing
    summary = (f"{graphs} graphs, {clones} clones, {compared} decisions compared, {agreed} "
               f"agreed ({100.0 * agreed / max(compared, 1):.2f}%), {asserted} graphs where "
               f"the pass asserts; {time.perf_counter() - start:.0f} s")
    # Which of the pass's rules the programs reach: declone's decisions, by reason code.
    reached = ", ".join(f"{key} {count}" for key, count in outcomes.most_common())
    report.setdefault("declone's vLLM modes vs the real passes (test_parity)", []).extend(
        [f"mode {mode:<10} vs {what}{label}: {summary}", f"  decisions: {reached}"])
    if failing:
        shown = "\n\n".join(explain(p, check, what) for p, _ in failing[:SHOWN])
        seeds = [p.seed for p, _ in failing]
        pytest.fail(f"mode {mode!r} vs {what}{label}: {summary}\n{len(failing)} graphs "
                    f"disagree (seeds {seeds[:20]}{' ...' if len(seeds) > 20 else ''}); the "
                    f"first {min(SHOWN, len(failing))}, shrunk:\n\n{shown}", pytrace=False)
    return compared


@pytest.mark.parametrize("mode", list(MODES))
def test_mode_decides_as_vllm(mode, request, report):
    compared = run_parity(mode, request, report, SEEDS)
    assert compared >= MIN_CLONES, f"too few decisions compared: {compared} < {MIN_CLONES}"


@pytest.mark.parametrize("mode", list(MODES))
def test_mode_decides_as_vllm_where_values_are_missing(mode, request, report):
    """Nodes without meta["val"]: vLLM then takes a clone's layout as kept and its storage as
    shared with the graph's inputs and outputs; declone's vLLM modes must do the same, whatever
    values declone.fx can compute for such nodes."""
    compared = run_parity(mode, request, report, SEEDS[:METADATA_SEEDS], strip_some_metadata,
                          " (some values missing)")
    assert compared > 0


# Graph variants for the CLI: as traced, and with some values missing (the dump then has no
# annotation on those nodes).
CLI_VARIANTS = {"as traced": (CLI_SEEDS, lambda gm: gm),
                "some values missing": (SEEDS[:METADATA_SEEDS], strip_some_metadata)}


@pytest.mark.parametrize("variant", list(CLI_VARIANTS))
@pytest.mark.parametrize("mode", list(MODES))
def test_cli_decides_as_vllm(mode, variant, request, cli, tmp_path, report):
    fixture, what = MODES[mode]
    vllm_pass = request.getfixturevalue(fixture)
    seeds, prepare = CLI_VARIANTS[variant]
    start = time.perf_counter()
    schemas = tmp_path / "declone_test.schemas"
    schemas.write_text("\n".join(custom_op_schemas()) + "\n")
    graph_file = tmp_path / "graph.py"

    def check(program, gm):
        gm = prepare(gm)
        graph_file.write_text(declone.fx.dumps(gm))
        args = ["opt", "--mode", mode, "--remarks=json", "--schemas", schemas, graph_file]
        if program.donated:
            args += ["--donated", ",".join(map(str, program.donated))]
        result = support.run_cli(cli, *args)
        if result.returncode == 2 and "--mode must be" in result.stderr:
            pytest.skip(f"this build of the CLI has no mode {mode!r}")
        assert result.returncode == 0, f"declone {' '.join(map(str, args))}:\n{result.stderr}"
        rows = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
        return compare(vllm_pass, program, gm, rows)

    graphs = compared = 0
    failing = []
    for seed in seeds:
        program, gm = program_and_graph(seed)
        result = check(program, gm)
        graphs += 1
        compared += result.compared
        if result.problems:
            failing.append(program)
    summary = (f"{graphs} graphs, {compared} decisions compared, {len(failing)} graphs "
               f"disagree; {time.perf_counter() - start:.0f} s")
    report.setdefault("declone's vLLM modes vs the real passes (test_parity)", []).append(
        f"CLI opt --mode {mode:<10} vs {what} ({variant}): {summary}")
    if failing:
        pytest.fail(f"CLI opt --mode {mode} vs {what} ({variant}): {summary}\n\n"
                    f"{explain(failing[0], check, what)}", pytrace=False)
    assert compared > 0, summary
