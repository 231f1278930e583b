"""The Python pass's remarks where PyTorch users look (torch 2.x): TORCH_LOGS (the
``declone_remarks`` artifact, the ``declone`` log) and TORCH_TRACE (a ``declone_remarks``
artifact per pass run, which tlparse files beside the graph). Each case is a process of its
own: torch reads TORCH_LOGS and TORCH_TRACE when it is imported.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import torch

from declone import _logging
from test_remark_sources import MODEL

TORCH_2 = int(torch.__version__.split(".")[0]) >= 2
needs_torch_logging = pytest.mark.skipif(
    not TORCH_2, reason="torch 1.13 has no torch._logging (TORCH_LOGS, TORCH_TRACE)")
ROOT = Path(__file__).resolve().parents[2]

SCRIPT = '''\
import json, sys
import torch
sys.path.insert(0, {here!r})
import model_file
import declone.fx
import torch._inductor.config as inductor_config
if {set_logs}:
    # set_logs names torch's own artifacts as keywords; others go in `modules`.
    torch._logging.set_logs(modules={{"declone_remarks": True}})
clone_pass = declone.fx.CloneEliminationPass()
with inductor_config.patch(post_grad_custom_post_pass=clone_pass):
    torch.compile(model_file.f, backend="inductor")(torch.randn(4, 5))
print(json.dumps([json.loads(remark.json()) for remark in clone_pass.remarks]))
'''


def entry_points_dir(tmp_path):
    """A folder that declares the package's ``torch.backends`` entry point as pip would install
    it (read from pyproject.toml), for the build tree on PYTHONPATH, which has no metadata."""
    with open(ROOT / "pyproject.toml", "rb") as file:
        declared = tomllib.load(file)["project"]["entry-points"]["torch.backends"]
    info = tmp_path / "entry_points" / "declone_build_tree-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: declone-build-tree\n"
                                   "Version: 0\n")
    (info / "entry_points.txt").write_text(
        "[torch.backends]\n" + "".join(f"{name} = {value}\n" for name, value in declared.items()))
    return info.parent


def run_model(tmp_path, entry_points=False, set_logs=False, **env):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "model_file.py").write_text(MODEL)
    script = tmp_path / "run.py"
    script.write_text(SCRIPT.format(here=str(tmp_path), set_logs=set_logs))
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("TORCH_LOGS", "TORCH_TRACE"))}
    # A cache of its own: the graph is compiled, so the pass runs.
    environment.update(TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor_cache"), **env)
    if entry_points:
        environment["PYTHONPATH"] = os.pathsep.join(
            [environment.get("PYTHONPATH", ""), str(entry_points_dir(tmp_path))])
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=environment, timeout=600)


def remark_lines(stderr):
    return [line for line in stderr.splitlines() if "[__declone_remarks]" in line]


def test_registering_the_names_never_fails():
    # It runs inside `import torch` of every program where declone is installed.
    assert _logging.register_names() is None
    if not TORCH_2:
        assert _logging.channel() is None  # torch 1.13: nothing is logged, silently


# --- TORCH_TRACE -----------------------------------------------------------------------------

def trace_artifacts(directory):
    """The payloads of the ``declone_remarks`` artifacts in a TORCH_TRACE folder, with the
    metadata of their records."""
    found = []
    for log in Path(directory).glob("*.log"):
        lines = log.read_text().splitlines()
        for index, line in enumerate(lines):
            start = line.find("] {")
            if start < 0:
                continue
            metadata = json.loads(line[start + 2:])
            if metadata.get("artifact", {}).get("name") != "declone_remarks":
                continue
            payload = []
            for following in lines[index + 1:]:
                if not following.startswith("\t"):
                    break
                payload.append(following[1:])
            found.append((metadata, json.loads("\n".join(payload))))
    return found


@needs_torch_logging
def test_torch_trace_gets_a_declone_remarks_artifact_that_tlparse_files(tmp_path):
    trace = tmp_path / "trace"
    result = run_model(tmp_path, TORCH_TRACE=str(trace))
    assert result.returncode == 0, result.stderr
    ((metadata, payload),) = trace_artifacts(trace)
    assert metadata["artifact"] == {"name": "declone_remarks", "encoding": "json"}
    # Written inside the compile: tlparse files it under the compile's id.
    assert (metadata["frame_id"], metadata["frame_compile_id"]) == (0, 0)
    assert (payload["mode"], payload["clones"], payload["removed"], payload["kept"]) == (
        "safe", 1, 0, {"layout-changed": 1})
    (remark,) = payload["remarks"]
    assert remark["source"].endswith("model_file.py:6") and remark["reason"] == "layout-changed"
    assert payload["remarks"] == json.loads(result.stdout)

    tlparse = shutil.which("tlparse", path=os.pathsep.join(
        [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if tlparse is None:
        pytest.skip("tlparse is not installed (requirements.txt pins it: pip install tlparse)")
    (log,) = trace.glob("*.log")
    out = tmp_path / "tl_out"
    parsed = subprocess.run([tlparse, str(log), "-o", str(out), "--no-browser"],
                            capture_output=True, text=True, timeout=300)
    assert parsed.returncode == 0, parsed.stderr
    # tlparse 0.4.3 files artifacts as <compile dir>/<name>_<record index>.json.
    (artifact,) = out.glob("-_0_0_0/declone_remarks_*.json")
    filed = json.loads(artifact.read_text())
    # tlparse re-serializes floats and may round the last digit of `seconds` differently.
    assert filed.pop("seconds") == pytest.approx(payload.pop("seconds"))
    assert filed == payload
    assert "declone_remarks" in (out / "index.html").read_text()


# --- TORCH_LOGS ------------------------------------------------------------------------------

@needs_torch_logging
@pytest.mark.parametrize("setting", ["declone_remarks", "+declone_remarks"])
def test_torch_logs_declone_remarks_prints_each_remark_at_its_source(tmp_path, setting):
    result = run_model(tmp_path, entry_points=True, TORCH_LOGS=setting)
    assert result.returncode == 0, result.stderr
    lines = remark_lines(result.stderr)
    assert any(re.search(r"\] \[0/0\] \[__declone_remarks\] \S*model_file\.py:6: remark: "
                         r"clone 'clone' kept \[layout-changed\]: strides \[3, 1\] != \[5, 1\] "
                         r"\(q = y\[:, :3\]\.contiguous\(\); graph: <fx>:\d+\)$", line)
               for line in lines), result.stderr
    assert any(re.search(r"\[__declone_remarks\] declone \(safe\): 1 clone, 0 removed, 1 kept "
                         r"\(layout-changed: 1\) in [\d.]+ ms$", line) for line in lines), lines


@needs_torch_logging
def test_without_the_entry_point_import_torch_rejects_the_artifact_name(tmp_path):
    # Why the entry point: torch parses TORCH_LOGS inside `import torch`, before declone.fx can
    # register anything, and an unknown name is an error there.
    result = run_model(tmp_path, TORCH_LOGS="declone_remarks")
    assert result.returncode != 0
    assert "declone_remarks" in result.stderr and "Valid settings" in result.stderr


@needs_torch_logging
def test_torch_logs_declone_works_without_the_entry_point(tmp_path):
    # A module's name is always accepted: +declone shows the remarks (DEBUG), declone only the
    # summaries (INFO).
    verbose = run_model(tmp_path / "verbose", TORCH_LOGS="+declone")
    assert verbose.returncode == 0, verbose.stderr
    assert any("model_file.py:6: remark: clone 'clone' kept" in line
               for line in remark_lines(verbose.stderr)), verbose.stderr
    quiet = run_model(tmp_path / "quiet", TORCH_LOGS="declone")
    assert quiet.returncode == 0, quiet.stderr
    lines = remark_lines(quiet.stderr)
    assert any("declone (safe): 1 clone, " in line for line in lines), quiet.stderr
    assert not any(": remark: " in line for line in lines), lines


@needs_torch_logging
def test_set_logs_turns_the_artifact_on(tmp_path):
    result = run_model(tmp_path, set_logs=True)
    assert result.returncode == 0, result.stderr
    assert any("model_file.py:6: remark: clone 'clone' kept" in line
               for line in remark_lines(result.stderr)), result.stderr


@needs_torch_logging
def test_nothing_is_printed_unless_asked(tmp_path):
    result = run_model(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "declone" not in result.stderr
    assert json.loads(result.stdout)[0]["reason"] == "layout-changed"
