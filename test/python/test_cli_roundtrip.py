"""declone.fx.dumps -> the CLI: what Python writes, `declone print` reads and writes back
unchanged; `declone opt` on the dump decides as declone.fx.eliminate_clones did on the live graph
and writes the same text; `declone verify BEFORE AFTER` accepts every safe rewrite and catches
vLLM's wrong ones (those of 0.32.0's pass, `--mode vllm-0.32`, and the ones 0.33.0's, `--mode
vllm`, still makes).

The CLI is $DECLONE_BIN, or <build>/bin/declone next to the python/ dir declone came from. Every
invocation loads libtorch (~0.6 s), so each module prepares its files first and runs all its CLI
commands at once on a thread pool; the tests then check the results one by one.

When the verifier cannot execute a graph (exit 2, "cannot execute"), or cannot judge it because
it is not deterministic (`verify G G` fails: random ops such as dropout's bernoulli_), the check
is skipped with that reason, which is also recorded in the model report.
"""

import concurrent.futures
import json
import os
import re

import pytest
import torch

import declone.fx
from declone_test_support import (CLONE, MODELS, PHASES, compare_runs, recompile, run, run_cli,
                                  trace, traced_model)
from test_clone_elimination import CASES

RANDOM_OPS = ("bernoulli", "dropout", "rand", "normal", "uniform", "exponential", "multinomial",
              "poisson", "geometric", "cauchy", "log_normal")


def _donated_args(donated):
    return ["--donated", ",".join(map(str, donated))] if donated else []


class Commands:
    """CLI invocations collected first and run together."""

    def __init__(self, cli):
        self.cli, self.pending = cli, {}

    def add(self, key, *args):
        self.pending[key] = tuple(map(str, args))

    def run(self):
        """Each distinct command runs once; keys with the same command share its result."""
        workers = max(2, os.cpu_count() or 2)
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            futures = {args: pool.submit(run_cli, self.cli, *args)
                       for args in dict.fromkeys(self.pending.values())}
            return {key: futures[args].result() for key, args in self.pending.items()}


def write_unless_same(path, text, same_as):
    """Writes text to path, or returns same_as (an existing file with this text)."""
    if same_as is not None and same_as.read_text() == text:
        return same_as
    path.write_text(text)
    return path


def has_random_ops(gm):
    return any(n.op == "call_function" and any(r in str(n.target) for r in RANDOM_OPS)
               for n in gm.graph.nodes)


def check_print(result, text):
    assert result.returncode == 0, result.stderr
    assert result.stdout == text, "declone print changed the text"


def check_opt(result, remarks, after_text):
    assert result.returncode == 0, result.stderr
    assert result.stdout == after_text, "declone opt and declone.fx disagree on the rewrite"
    cli = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    assert [(r["node"], r["decision"], r["reason"], r["detail"], r["line"]) for r in cli] == \
        [(r.node, r.decision, r.reason, r.detail, r.line) for r in remarks]


def cannot_execute(result):
    return result.returncode == 2 and "cannot execute" in result.stderr


def last_line(result):
    """The verdict or the error: diagnostics end with the source line and a caret after it."""
    lines = (result.stdout + result.stderr).strip().splitlines()
    errors = [line for line in lines if ": error: " in line]
    if errors:
        return errors[-1]
    return lines[-1] if lines else f"exit {result.returncode}"


# --- small graphs ---------------------------------------------------------------------------

# One case per reason code and per vLLM miscompile: the whole table costs too much CLI time.
SMALL_MODES = ("safe", "vllm", "vllm-0.32")
CLI_CASES = ("clone_then_read", "write_source_used_after", "write_input_not_donated",
             "write_input_donated", "chain_then_write", "two_clones_written_donated",
             "mixed_first_donated", "int_placeholder_counts", "output_would_alias_input",
             "outputs_would_alias_each_other", "mamba_slice", "storage_offset", "channels_last",
             "write_through_view", "write_through_out_kwarg", "source_written_after_clone",
             "input_written_after_clone", "batch_norm_running_stats")


@pytest.fixture(scope="module")
def small(cli, tmp_path_factory):
    data, commands = {}, Commands(cli)
    for name in CLI_CASES:
        case = CASES[name]
        directory = tmp_path_factory.mktemp(name)
        torch.manual_seed(0)
        inputs = case.inputs()
        before_gm = trace(case.fn, *inputs)
        before = declone.fx.dumps(before_gm)
        before_path = directory / "before.fx"
        before_path.write_text(before)
        commands.add((name, "print"), "print", before_path)
        after_path = None
        for mode in SMALL_MODES:
            gm = trace(case.fn, *inputs)
            remarks = declone.fx.eliminate_clones(gm.graph, case.donated, mode=mode)
            after = declone.fx.dumps(gm)
            after_path = write_unless_same(directory / f"after-{mode}.fx", after, after_path)
            data[name, mode] = (remarks, after)
            commands.add((name, mode, "opt"), "opt", before_path, "--mode", mode,
                         *_donated_args(case.donated), "--remarks=json")
            commands.add((name, mode, "verify"), "verify", before_path, after_path,
                         *_donated_args(case.donated))
        data[name] = before
    return data, commands.run()


@pytest.mark.parametrize("name", CLI_CASES)
def test_case_print_roundtrip(small, name):
    data, results = small
    check_print(results[name, "print"], data[name])


@pytest.mark.parametrize("mode", SMALL_MODES)
@pytest.mark.parametrize("name", CLI_CASES)
def test_case_opt_matches_python(small, name, mode):
    data, results = small
    remarks, after = data[name, mode]
    check_opt(results[name, mode, "opt"], remarks, after)


@pytest.mark.parametrize("mode", SMALL_MODES)
@pytest.mark.parametrize("name", CLI_CASES)
def test_case_verify(small, name, mode):
    case = CASES[name]
    _, results = small
    result = results[name, mode, "verify"]
    if cannot_execute(result):
        pytest.skip(f"the verifier cannot execute this graph: {last_line(result)}")
    if result.returncode == 2 and any(not isinstance(t, torch.Tensor) for t in case.inputs()):
        # dumps writes make_fx's int argument as an unannotated placeholder; the verifier
        # cannot make a value for it ("needs a tensor or Sym annotation to make an input").
        pytest.skip(f"unannotated non-tensor placeholder: {last_line(result)}")
    _, correct = case.expected(mode)
    if correct:
        assert result.returncode == 0, result.stdout + result.stderr
    else:
        assert result.returncode == 1, "verify missed vLLM's miscompile: " + last_line(result)


def test_text_remarks_match_python(cli, tmp_path):
    gm = trace(CASES["chain_then_write"].fn, torch.randn(4, 5))
    path = tmp_path / "g.fx"
    path.write_text(declone.fx.dumps(gm))
    result = run_cli(cli, "opt", path, "--remarks")
    assert result.returncode == 0, result.stderr
    remarks = declone.fx.eliminate_clones(gm.graph)
    cli_lines = [line for line in result.stderr.splitlines() if ": remark: " in line]
    assert cli_lines == [str(r).replace("<fx>:", f"{path}:", 1) for r in remarks]


@pytest.mark.parametrize("name", ["mamba_slice", "storage_offset", "mixed_first_donated",
                                  "write_through_out_kwarg"])
def test_real_mode_dump_roundtrip(cli, tmp_path, name):
    """make_fx real mode: only tensor_meta (no device, no storage offset) in the dump."""
    case = CASES[name]
    gm = trace(case.fn, *case.inputs(), tracing_mode="real")
    text = declone.fx.dumps(gm)
    path = tmp_path / "g.fx"
    path.write_text(text)
    check_print(run_cli(cli, "print", path), text)


def test_dumps_of_the_seed_case():
    gm = trace(CASES["mamba_slice"].fn, torch.randn(4, 5))
    text = declone.fx.dumps(gm)
    # torch 1.13's make_fx records x[:, :3] as two slices (the first of the whole dim 0), later
    # torch as one.
    sliced = re.search(r'(slice_\d+): "f32\[4, 3\]\[5, 1\]cpu" = '
                       r'torch\.ops\.aten\.slice\.Tensor\(\w+, 1, 0, 3\)', text)
    assert sliced, text
    assert (f'clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default({sliced.group(1)}, '
            'memory_format = torch.contiguous_format)') in text
    # A Graph dumps as its GraphModule does.
    assert declone.fx.dumps(gm.graph) == text


def test_dumps_writes_storage_offsets():
    gm = trace(lambda x: (x + 1)[1:] * 1, torch.randn(4, 5))
    text = declone.fx.dumps(gm)
    assert '"f32[3, 5][5, 1]cpu@5" = torch.ops.aten.slice.Tensor(add, 0, 1, ' in text


def test_verify_reports_the_layout_vllm_broke(cli, tmp_path):
    """The seed's miscompile, by hand: dropping the clone of x[:, :3] shows strides (5, 1)."""
    gm = trace(CASES["mamba_slice"].fn, torch.randn(4, 5))
    before = tmp_path / "before.fx"
    before.write_text(declone.fx.dumps(gm))
    clone = next(n for n in gm.graph.nodes if n.target is CLONE)
    clone.replace_all_uses_with(clone.args[0])
    gm.graph.erase_node(clone)
    after = tmp_path / "after.fx"
    after.write_text(declone.fx.dumps(gm))
    result = run_cli(cli, "verify", before, after)
    if cannot_execute(result):
        pytest.skip(f"the verifier cannot execute this graph: {last_line(result)}")
    assert result.returncode == 1
    assert "output 0: stride (5, 1) != (3, 1)" in result.stdout + result.stderr


def test_verify_is_deterministic_with_random_ops(cli, tmp_path):
    """A graph is equivalent to itself, dropout included: both runs must draw the same random
    numbers."""
    gm = trace(lambda x: torch.nn.functional.dropout(x, 0.3, True) * 2, torch.randn(4, 5))
    path = tmp_path / "dropout.fx"
    path.write_text(declone.fx.dumps(gm))
    result = run_cli(cli, "verify", path, path)
    if cannot_execute(result):
        pytest.skip(f"the verifier cannot execute this graph: {last_line(result)}")
    assert result.returncode == 0, last_line(result)


# --- torchvision models ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def models(cli, tmp_path_factory):
    data, commands = {}, Commands(cli)
    for name in MODELS:
        for phase in PHASES:
            directory = tmp_path_factory.mktemp(f"{name}-{phase}")
            gm, inputs = traced_model(name, phase)
            before = declone.fx.dumps(gm)
            before_path = directory / "before.fx"
            before_path.write_text(before)
            commands.add((name, phase, "print"), "print", before_path)
            random = has_random_ops(gm)
            if random:
                commands.add((name, phase, "self-verify"), "verify", before_path, before_path)
            reference = run(gm, inputs)
            after_path = None
            for mode in ("safe", "vllm"):
                gm, _ = traced_model(name, phase)
                remarks = declone.fx.eliminate_clones(gm.graph, mode=mode)
                after = declone.fx.dumps(gm)
                after_path = write_unless_same(directory / f"after-{mode}.fx", after, after_path)
                changed = bool(compare_runs(reference, run(recompile(gm), inputs)))
                data[name, phase, mode] = (remarks, after, changed)
                commands.add((name, phase, mode, "opt"), "opt", before_path, "--mode", mode,
                             "--remarks=json")
                commands.add((name, phase, mode, "verify"), "verify", before_path, after_path)
            data[name, phase] = (before, random)
    return data, commands.run()


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("name", MODELS)
def test_model_dump_print_roundtrip(models, name, phase):
    data, results = models
    check_print(results[name, phase, "print"], data[name, phase][0])


@pytest.mark.parametrize("mode", ["safe", "vllm"])
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("name", MODELS)
def test_model_opt_matches_python(models, name, phase, mode):
    data, results = models
    remarks, after, _ = data[name, phase, mode]
    check_opt(results[name, phase, mode, "opt"], remarks, after)


@pytest.mark.parametrize("mode", ["safe", "vllm"])
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("name", MODELS)
def test_model_verify(models, model_report, name, phase, mode):
    data, results = models
    record = model_report.setdefault(f"{name}/{phase}", {"model": name, "phase": phase})
    key = "verify" if mode == "safe" else "verify_vllm"
    _, random = data[name, phase]
    _, _, changed = data[name, phase, mode]
    result = results[name, phase, mode, "verify"]
    if cannot_execute(result):
        record[key] = f"skipped: {last_line(result)}"
        pytest.skip(f"the verifier cannot execute this graph: {last_line(result)}")
    if random and results[name, phase, "self-verify"].returncode != 0:
        reason = ("verify BEFORE BEFORE fails (random ops draw different numbers per run): "
                  + last_line(results[name, phase, "self-verify"]))
        record[key] = "skipped: nondeterministic"
        pytest.skip(reason)
    record[key] = {0: "same", 1: "differs"}.get(result.returncode, f"exit {result.returncode}")
    if mode == "safe":
        assert result.returncode == 0, last_line(result)
    else:
        # vllm mode may break a model; the verifier must agree with running it.
        assert result.returncode == (1 if changed else 0), last_line(result)
