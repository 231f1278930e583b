"""The CLI on the logs torch 2.13 writes, written here by a real torch.compile of a small model
with two custom ops: its TORCH_TRACE (`report` lists the inductor_post_grad_graph artifact, and
`opt LOG#inductor_post_grad_graph` decides as the live pass did on that graph) and the stderr of
TORCH_LOGS=post_grad_graphs,aot_graphs,graph_code (`report` and `opt` read it). Each compile is a
process of its own: torch reads TORCH_TRACE and TORCH_LOGS when it is imported.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from declone_test_support import cli, run_cli  # noqa: F401 (cli is a fixture)

TORCH_2 = int(torch.__version__.split(".")[0]) >= 2
pytestmark = pytest.mark.skipif(
    not TORCH_2 or not hasattr(torch.library, "custom_op"),
    reason="torch 1.13 writes neither TORCH_TRACE artifacts nor TORCH_LOGS, and has no "
           "torch.library.custom_op")

MODEL = '''\
import torch
from torch import nn


@torch.library.custom_op("declone_logs::scale_rows", mutates_args=())
def scale_rows(x: torch.Tensor, s: float) -> torch.Tensor:
    return x * s


@scale_rows.register_fake
def _(x, s):
    return torch.empty_like(x)


@torch.library.custom_op("declone_logs::add_into", mutates_args=("out",))
def add_into(out: torch.Tensor, x: torch.Tensor) -> None:
    out.add_(x)


@add_into.register_fake
def _(out, x):
    return None


class Attention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.d = d

    def forward(self, x):
        qkv = self.qkv(x)
        q = qkv[..., : self.d].contiguous()
        q = torch.ops.declone_logs.scale_rows(q, 0.5)
        k = qkv[..., self.d : 2 * self.d].clone()
        torch.ops.declone_logs.add_into(k, q)
        return q + k
'''

SCRIPT = '''\
import json, sys
import torch
sys.path.insert(0, {here!r})
import model_file
import declone.fx
import torch._inductor.config as inductor_config
torch.set_grad_enabled(False)
clone_pass = declone.fx.CloneEliminationPass() if {live} else None
with inductor_config.patch(post_grad_custom_post_pass=clone_pass, force_disable_caches=True):
    torch.compile(model_file.Attention())(torch.randn(2, 4, 8))
remarks = clone_pass.remarks if clone_pass else []
print(json.dumps([json.loads(remark.json()) for remark in remarks]))
'''


def compile_model(tmp_path, live, **env):
    tmp_path.mkdir(parents=True, exist_ok=True)
    model = tmp_path / "model_file.py"
    model.write_text(MODEL)
    script = tmp_path / "run.py"
    script.write_text(SCRIPT.format(here=str(tmp_path), live=live))
    environment = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor-cache"),
                       **env)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(Path(__import__("declone").__file__).resolve().parents[1]),
         environment.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            env=environment, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    return model, json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def remarks_json(stderr):
    return [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]


def model_line(model, text):
    """`PATH:LINE` of the model's line that holds `text`."""
    for number, line in enumerate(model.read_text().splitlines(), 1):
        if text in line:
            return f"{model}:{number}"
    raise AssertionError(text)


def test_trace_post_grad_graph_decides_as_the_live_pass(tmp_path, cli):
    trace_dir = tmp_path / "trace"
    model, live, _ = compile_model(tmp_path, live=True, TORCH_TRACE=str(trace_dir))
    logs = list(trace_dir.glob("*.log"))
    assert len(logs) == 1, logs
    log = logs[0]

    report = run_cli(cli, "report", log, "-q", "--json")
    assert report.returncode == 0, report.stderr
    rows = json.loads(report.stdout)["rows"]
    post_grad = [row for row in rows if row["record"]
                 and row["record"].startswith("inductor_post_grad_graph:")]
    assert len(post_grad) == 1, [row["name"] for row in rows]
    assert post_grad[0]["file"] == str(log)
    assert post_grad[0]["compile_id"] == "0/0"
    assert post_grad[0]["error"] is None
    # The live pass keeps the two layout-changing copies; the post-grad graph torch logs is the
    # one after the pass, with what it kept.
    assert {(r["node"], r["decision"], r["reason"]) for r in live} == {
        ("clone", "kept", "layout-changed"), ("clone_1", "kept", "layout-changed")}, live
    assert post_grad[0]["clones"] == 2 and post_grad[0]["removed"] == 0, post_grad[0]

    opt = run_cli(cli, "opt", f"{log}#inductor_post_grad_graph", "--remarks=json", "-o",
                  os.devnull)
    assert opt.returncode == 0, opt.stderr
    from_log = remarks_json(opt.stderr)
    kept_live = {(r["node"], r["reason"], r["detail"]) for r in live if r["decision"] == "kept"}
    assert {(r["node"], r["reason"], r["detail"]) for r in from_log} == kept_live
    # Both lead with the model's line; the log's remark names a line of the log, which
    # addresses the same graph again.
    contiguous = model_line(model, "q = qkv[..., : self.d].contiguous()")
    assert [r["source"] for r in from_log if r["node"] == "clone"] == [contiguous]
    assert [r["source"] for r in live if r["node"] == "clone"] == [contiguous]
    text = run_cli(cli, "opt", f"{log}#inductor_post_grad_graph", "--remarks", "-o", os.devnull)
    first = text.stderr.splitlines()[0]
    assert first.startswith(f"{contiguous}: remark: clone 'clone' kept [layout-changed]"), first
    location = re.search(r"graph: (\S+)\)$", first).group(1)
    assert location.startswith(f"{log}#inductor_post_grad_graph:")
    pasted = run_cli(cli, "print", location)
    assert pasted.returncode == 0, pasted.stderr
    assert "torch.ops.aten.clone.default(slice_1" in pasted.stdout


def test_torch_logs_stderr_reads(tmp_path, cli):
    model, _, stderr = compile_model(
        tmp_path, live=False, TORCH_LOGS="post_grad_graphs,aot_graphs,graph_code")
    log = tmp_path / "stderr.txt"
    log.write_text(stderr)

    report = run_cli(cli, "report", log, "-q", "--json")
    assert report.returncode == 0, report.stderr
    rows = json.loads(report.stdout)["rows"]
    assert [row["stage"] for row in rows] == ["graph_code", "aot_graphs", "post_grad_graphs"], \
        [row["name"] for row in rows]
    assert all(row["error"] is None for row in rows), rows
    assert (rows[2]["clones"], rows[2]["kept"]) == (2, 2), rows[2]

    opt = run_cli(cli, "opt", f"{log}#post_grad_graphs", "--remarks=json", "-o", os.devnull)
    assert opt.returncode == 0, opt.stderr
    decided = {(r["node"], r["decision"], r["reason"]) for r in remarks_json(opt.stderr)}
    assert decided == {("clone", "kept", "layout-changed"),
                       ("clone_1", "kept", "layout-changed")}, decided
    sources = {r["node"]: r["source"] for r in remarks_json(opt.stderr)}
    assert sources["clone_1"] == model_line(model, "torch.ops.declone_logs.add_into(k, q)")
