"""Where the real vLLM 0.33 pass and declone's safe mode decide differently, execution decides.

On seeded random programs (random_programs.generate, other seeds than test_parity's), the real
UnsafeCloneEliminationPass and ``declone.fx.eliminate_clones(..., mode="safe")`` each rewrite a
copy. For every clone they decide differently, the original graph and the graph with only that
clone removed (its uses replaced by its input) run on copies of the same random inputs, and
their runs are compared: outputs (values, sizes, strides, storage offsets), the final contents
of every non-donated input, and which outputs alias a non-donated input or each other
(declone_test_support.compare_runs). A rewrite that raises is wrong too.

Asserted: safe mode is never the wrong one. Every graph safe mode rewrites runs as the original
does, and every clone it removes where vLLM keeps one is, alone, a removal that changes nothing.
Counted and printed: the removals of vLLM's pass that safe mode refuses, wrong (the program
computes something else) or not (safe mode was conservative), by safe mode's reason code.

DECLONE_VLLM_SOUNDNESS_SEEDS sets the number of seeds (default below).
"""

import collections
import copy
import os
import time

import declone.fx
import declone_test_support as support
from random_programs import generate

FIRST_SEED = 100_000  # test_parity uses 0, 1, 2, ...
SEEDS = range(FIRST_SEED, FIRST_SEED + int(os.environ.get("DECLONE_VLLM_SOUNDNESS_SEEDS", "1000")))


def without_clone(gm, name):
    """A copy of ``gm`` with clone ``name`` replaced by its input."""
    gm = copy.deepcopy(gm)
    node = next(n for n in gm.graph.nodes if n.name == name)
    node.replace_all_uses_with(node.args[0])
    gm.graph.erase_node(node)
    return support.recompile(gm)


def differences(before, gm, inputs, donated):
    """How a run of ``gm`` on copies of ``inputs`` differs from the run ``before``."""
    try:
        after = support.run(gm, inputs)
    except Exception as e:  # noqa: BLE001 - a rewrite that makes the program fail is wrong
        return [f"raises {type(e).__name__}: {str(e).splitlines()[0]}"]
    return support.compare_runs(before, after, donated)


def where(program, gm, name, problems):
    return (f"seed {program.seed}, clone {name}: {problems[0]}\n{program.source()}"
            f"{declone.fx.dumps(gm)}")


def test_safe_mode_is_never_wrong_where_vllm_differs(vllm_clone_pass, report):
    start = time.perf_counter()
    graphs = clones = differing = safe_rewrites = 0
    wrong = collections.Counter()          # vLLM removes, safe keeps, and the removal is wrong
    conservative = collections.Counter()   # ... and the removal changes nothing
    example = {}                           # safe's reason -> a wrong removal of vLLM's
    safe_only = 0                          # safe removes, vLLM keeps (or asserts)
    failures = []
    for seed in SEEDS:
        program, gm = generate(seed)
        donated = program.donated
        inputs = program.example_inputs()
        before = support.run(gm, inputs)
        real = vllm_clone_pass(copy.deepcopy(gm).graph, donated)
        safe_gm = copy.deepcopy(gm)
        remarks = {r.node: r for r in
                   declone.fx.eliminate_clones(safe_gm.graph, donated, mode="safe")}
        graphs += 1
        clones += len(remarks)

        if any(r.decision == "removed" for r in remarks.values()):
            safe_rewrites += 1
            problems = differences(before, support.recompile(safe_gm), inputs, donated)
            if problems:
                failures.append("safe mode's rewrite of the whole graph changes the program: "
                                + where(program, gm, "(all)", problems))

        for name, remark in remarks.items():
            # Clones vLLM never decided (it asserted first) are checked by the whole graph run.
            if real.decisions.get(name, remark.decision) == remark.decision:
                continue
            differing += 1
            problems = differences(before, without_clone(gm, name), inputs, donated)
            if remark.decision == "removed":
                safe_only += 1
                if problems:
                    failures.append("safe mode removes a clone whose removal alone changes the "
                                    "program: " + where(program, gm, name, problems))
            elif problems:
                wrong[remark.reason] += 1
                example.setdefault(remark.reason, f"seed {program.seed} {name}: {problems[0]}")
            else:
                conservative[remark.reason] += 1

    seconds = time.perf_counter() - start
    lines = [f"{graphs} graphs, {clones} clones, {differing} decided differently "
             f"(vLLM removes {sum(wrong.values()) + sum(conservative.values())}, safe removes "
             f"{safe_only}); {safe_rewrites} safe rewrites executed; {seconds:.0f} s",
             "vLLM's removals that safe mode keeps, by safe mode's reason: wrong / harmless"]
    for reason in sorted(set(wrong) | set(conservative)):
        lines.append(f"  {reason:<32}{wrong[reason]:>5} / {conservative[reason]:<5}"
                     f"{'  e.g. ' + example[reason] if reason in example else ''}")
    report.setdefault("vLLM 0.33 vs declone safe mode, by execution (test_soundness)",
                      []).extend(lines)

    assert not failures, f"{len(failures)} unsound safe-mode removals; the first:\n{failures[0]}"
    # The comparison has teeth: the generator reaches the holes in vLLM's rules, and a run
    # tells a wrong removal from a right one. (If this fails, the programs or the oracle broke,
    # not declone.)
    assert sum(wrong.values()) > 0, "\n".join(lines)
