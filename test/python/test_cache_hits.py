"""A graph Inductor takes from its caches (FX graph cache, AOTAutograd cache) is not compiled,
and no post-grad pass runs on it: CloneEliminationPass records such a compile in
``cache_hits`` and says so on the declone log, instead of leaving ``runs`` silently as it was;
``force_disable_caches`` makes the pass run again. Each case is a process of its own with a
fresh cache folder (the caches are on disk, and in memory within a process).
"""

import json
import os
import subprocess
import sys

import pytest
import torch

from test_remark_sources import MODEL

pytestmark = pytest.mark.skipif(int(torch.__version__.split(".")[0]) < 2,
                                reason="torch 1.13 has no Inductor (no caches, no custom passes)")

SCRIPT = '''\
import json, sys
import torch
sys.path.insert(0, {here!r})
import model_file
import declone.fx
import torch._inductor.config as inductor_config

clone_pass = declone.fx.CloneEliminationPass()
report = []


def compile_once(**config):
    torch._dynamo.reset()  # forget the compiled code: the next call compiles again
    with inductor_config.patch(post_grad_custom_post_pass=clone_pass, **config):
        torch.compile(model_file.f, backend="inductor")(torch.randn(4, 5))
    report.append({{"runs": len(clone_pass.runs),
                    "cache_hits": [list(hit) for hit in clone_pass.cache_hits]}})


for config in {configs!r}:
    compile_once(**config)
print(json.dumps(report))
'''


def compile_in_process(tmp_path, configs, cache):
    (tmp_path / "model_file.py").write_text(MODEL)
    script = tmp_path / "run.py"
    script.write_text(SCRIPT.format(here=str(tmp_path), configs=configs))
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("TORCH_LOGS", "TORCH_TRACE", "TORCHINDUCTOR_"))}
    environment.update(TORCHINDUCTOR_CACHE_DIR=str(cache), TORCH_LOGS="declone")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            env=environment, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1]), result.stderr


def said_so(stderr):
    return [line for line in stderr.splitlines()
            if "Inductor reused compiled graphs from its caches" in line]


def test_a_second_compile_in_the_process_is_a_cache_hit_and_says_so(tmp_path):
    report, stderr = compile_in_process(tmp_path, [{}, {}, {"force_disable_caches": True}],
                                        tmp_path / "cache")
    first, second, forced = report
    assert first == {"runs": 1, "cache_hits": []}
    # The second compile found the graph in the caches: the pass did not run, and says so.
    assert second["runs"] == 1
    ((compile_id, fx_graph_hits, autograd_hits),) = second["cache_hits"]
    assert compile_id == "0/0" and fx_graph_hits + autograd_hits >= 1
    (line,) = said_so(stderr)
    assert "[__declone_remarks] compile 0/0: Inductor reused compiled graphs from its caches (" \
           in line
    assert line.endswith("declone's pass did not run on them. To run it: "
                         "torch._inductor.config.force_disable_caches = True or "
                         "TORCHINDUCTOR_FORCE_DISABLE_CACHES=1")
    # With the caches off, the pass runs again.
    assert forced == {"runs": 2, "cache_hits": second["cache_hits"]}


def test_a_later_process_hits_the_cache_on_disk(tmp_path):
    (first,), _ = compile_in_process(tmp_path, [{}], tmp_path / "cache")
    assert first == {"runs": 1, "cache_hits": []}
    # The same program again: the graph comes from the cache folder, and the pass never runs.
    (second,), stderr = compile_in_process(tmp_path, [{}], tmp_path / "cache")
    assert second["runs"] == 0 and len(second["cache_hits"]) == 1, second
    assert len(said_so(stderr)) == 1
