"""pytest configuration for the declone Python suite.

Run with Debian's interpreter (the one with python3-torch) and the built package on the path:

    PYTHONPATH=<build>/python /usr/bin/python3 -m pytest -q test/python

DECLONE_BIN overrides the CLI used by the round-trip tests (default: <build>/bin/declone, next
to the python/ directory declone was imported from). DECLONE_MODEL_REPORT, if set, names a JSON
file that receives the per-model clone counts.
"""

import json
import os
import pathlib
import sys

import pytest

# pip-installs the checkout (a full compile): CTest runs it alone, by name (`packaging`).
collect_ignore = ["test_packaging.py"]

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

try:
    import torch  # noqa: F401
except ImportError:  # pragma: no cover - wrong interpreter
    pytest.exit("torch is not importable: run the suite with /usr/bin/python3 "
                "(Debian's python3-torch)", returncode=4)
try:
    import declone.fx  # noqa: F401
except ImportError as e:  # pragma: no cover - package not built / not on the path
    pytest.exit(f"cannot import declone.fx ({e}): set PYTHONPATH=<build>/python", returncode=4)

import declone_test_support as support  # noqa: E402

support.let_torchvision_import()

# Filled by test_models.py, written at the end of the session.
MODEL_REPORT = {}


cli = support.cli  # the session fixture


@pytest.fixture(scope="session")
def model_report():
    return MODEL_REPORT


def pytest_terminal_summary(terminalreporter):
    if not MODEL_REPORT:
        return
    tr = terminalreporter
    tr.section("declone: clones per model (seen / removed)")
    tr.write_line("clones removed by safe / vllm mode (vLLM 0.33.0's pass); verify: `declone "
                  "verify` of the safe and the vllm rewrite")
    header = (f"{'model':<22}{'phase':<7}{'nodes':>7}{'clones':>8}{'safe':>7}{'vllm':>7}"
              f"  {'verify safe':<27}verify vllm")
    tr.write_line(header)
    for key in sorted(MODEL_REPORT):
        row = MODEL_REPORT[key]
        tr.write_line(f"{row['model']:<22}{row['phase']:<7}{row.get('nodes', '-'):>7}"
                      f"{row.get('clones', '-'):>8}"
                      f"{row.get('removed_safe', '-'):>7}{row.get('removed_vllm', '-'):>7}  "
                      f"{row.get('verify', '-'):<27}{row.get('verify_vllm', '-')}")
    for key in sorted(MODEL_REPORT):
        row = MODEL_REPORT[key]
        if row.get("kept_reasons_safe"):
            tr.write_line(f"  {key} kept (safe): {row['kept_reasons_safe']}")
        if row.get("vllm_semantics", "same") != "same":
            tr.write_line(f"  {key} vllm mode changed the results: {row['vllm_semantics']}")


def pytest_sessionfinish(session, exitstatus):
    target = os.environ.get("DECLONE_MODEL_REPORT")
    if target and MODEL_REPORT:
        with open(target, "w") as f:
            json.dump(MODEL_REPORT, f, indent=2, sort_keys=True)
            f.write("\n")
