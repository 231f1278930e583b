"""pytest configuration for the Inductor suite: declone inside torch.compile, on real model code.

It needs PyTorch with Inductor (the virtual environment `make deps` creates, torch 2.13) and
the built package:

    PYTHONPATH=build/python .venv/bin/python -m pytest test/inductor

DECLONE_INDUCTOR_REPORT, if set, names a JSON file that receives the per-model figures (clones,
removals per mode, kept per reason, pass and compile time); the table is printed at the end.
"""

import json
import os
import pathlib
import sys

import pytest

import torch

if not hasattr(torch, "compile") or torch.__version__.startswith("1."):
    pytest.skip(f"torch {torch.__version__} has no torch.compile", allow_module_level=True)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
import declone_test_support  # noqa: E402

declone_test_support.let_torchvision_import()

REPORT = {}


@pytest.fixture(scope="session")
def report():
    return REPORT


def _row(name, figures):
    kept = ", ".join(f"{reason} {count}" for reason, count in sorted(figures["safe_kept"].items()))
    return (f"{name:<24} {figures['clones']:>6} {figures['inductor_removed']:>8} "
            f"{figures['joint_safe_removed']:>7} {figures['safe_clones']:>5} "
            f"{figures['safe_removed']:>5} {str(figures['vllm_removed']):>5} "
            f"{figures['pass_ms']:>8.1f} {figures['compile_s']:>9.1f} "
            f"{100 * figures['pass_share']:>6.2f}%  {kept}")


def pytest_terminal_summary(terminalreporter):
    if not REPORT:
        return
    terminalreporter.section("declone in torch.compile")
    terminalreporter.write_line(
        "clones: in the joint graph; inductor: of those, removed by Inductor's own passes; "
        "joint: removed by declone safe there; left: clones at post_grad_custom_post_pass; "
        "safe, vllm: removed there")
    terminalreporter.write_line(f"{'model':<24} {'clones':>6} {'inductor':>8} {'joint':>7} "
                                f"{'left':>5} {'safe':>5} {'vllm':>5} {'pass ms':>8} "
                                f"{'compile s':>9} {'share':>7}  kept by safe")
    for name in sorted(REPORT):
        terminalreporter.write_line(_row(name, REPORT[name]))
    verified = [outcome == "verified" for figures in REPORT.values()
                for outcome in figures.get("verify", [])]
    terminalreporter.write_line(f"declone opt --verify: {sum(verified)} of {len(verified)} "
                                "joint graphs verified")
    for name in sorted(REPORT):
        for outcome in REPORT[name].get("verify", []):
            if outcome != "verified":
                terminalreporter.write_line(f"{name}: {outcome}")
    for name in sorted(REPORT):
        for side in ("inductor_only", "declone_only"):
            if REPORT[name][side]:
                terminalreporter.write_line(f"{name}: removed by {side.split('_')[0]} only: "
                                            f"{', '.join(REPORT[name][side])}")
    path = os.environ.get("DECLONE_INDUCTOR_REPORT")
    if path:
        pathlib.Path(path).write_text(json.dumps(REPORT, indent=1, sort_keys=True) + "\n")
