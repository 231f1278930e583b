"""pytest configuration for the tests against the real vLLM 0.33 clone pass (test/vllm).

Run with the interpreter of the vLLM venv and the built package on the path:

    PYTHONPATH=build/python DECLONE_BIN=build/bin/declone VLLM_TARGET_DEVICE=cpu \\
        .venv-vllm/bin/python -m pytest -q test/vllm

vLLM is imported once per session and its VllmConfig built once (importing takes ~20 s here).
The counts the tests gather (graphs, clones, agreements, wrong removals) are printed at the end.
"""

import collections
import contextlib
import os
import pathlib
import sys
import traceback
import unittest.mock

import pytest

HERE = pathlib.Path(__file__).resolve().parent
for path in (HERE, HERE.parent / "python"):  # random_programs; declone_test_support
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

# vLLM cannot tell a CPU-only machine from a broken GPU one by itself.
os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")

try:
    import declone.fx  # noqa: F401
except ImportError as e:  # pragma: no cover - package not built / not on the path
    pytest.exit(f"cannot import declone.fx ({e}): set PYTHONPATH=<build>/python", returncode=4)

import declone_test_support as support  # noqa: E402

cli = support.cli  # the session fixture

# Filled by the tests, printed by pytest_terminal_summary: section title -> lines.
REPORT = collections.OrderedDict()


@pytest.fixture(scope="session")
def report():
    return REPORT


def pytest_terminal_summary(terminalreporter):
    for title, lines in REPORT.items():
        terminalreporter.section(title)
        for line in lines:
            terminalreporter.write_line(line)


class VllmOutcome:
    """What vLLM's pass did to one graph: ``decisions`` maps the name of every clone it decided
    to "removed" or "kept"; ``asserted`` names the clone it was deciding when it failed an
    assertion (the clones after it were never decided), or is None."""

    def __init__(self, decisions, asserted=None, assertion=""):
        self.decisions, self.asserted, self.assertion = decisions, asserted, assertion

    def __repr__(self):
        tail = f", asserted at {self.asserted}: {self.assertion}" if self.asserted else ""
        return f"{self.decisions}{tail}"


class VllmClonePass:
    """vLLM's UnsafeCloneEliminationPass, run as vLLM's PostGradPassManager runs it: inside
    vLLM's config context and a pass context whose donated_input_ids are the donated
    placeholders' positions (vLLM's InplaceFunctionalizationPass fills them in the same way).

    ``output_check=False`` gives vLLM 0.32.0's pass: 0.33.0's without the
    ``would_alias_graph_io`` branch (the module function is made to answer False)."""

    def __init__(self, config, output_check=True):
        from vllm.compilation.passes.inductor_pass import get_pass_context, pass_context
        from vllm.compilation.passes.ir import clone_elimination
        from vllm.config import set_current_vllm_config
        from vllm.config.utils import Range

        UnsafeCloneEliminationPass = clone_elimination.UnsafeCloneEliminationPass
        self.config = config
        self.clone_pass = UnsafeCloneEliminationPass(self.config)
        self._without_output_check = (
            contextlib.nullcontext() if output_check else
            unittest.mock.patch.object(clone_elimination, "would_alias_graph_io",
                                       lambda clone, original: False))
        self._get_pass_context, self._pass_context = get_pass_context, pass_context
        self._set_config, self._range = set_current_vllm_config, Range(start=1, end=8192)
        # The frame whose `node` is the clone being decided when an assertion fails.
        self._call_code = UnsafeCloneEliminationPass.__call__.__wrapped__.__code__

    def __call__(self, graph, donated_input_ids):
        """Runs the pass on ``graph`` in place; returns a VllmOutcome."""
        names = [n.name for n in support.clones(graph)]
        asserted, assertion = None, ""
        try:
            with self._set_config(self.config), self._pass_context(self._range), \
                    self._without_output_check:
                self._get_pass_context().donated_input_ids = set(donated_input_ids)
                self.clone_pass(graph)
        except AssertionError as e:
            asserted = self._clone_being_decided(e)
            assertion = str(e) or traceback.format_exception_only(e)[-1].strip()
        left = {n.name for n in graph.nodes}
        decided = names[:names.index(asserted)] if asserted else names
        return VllmOutcome({n: "kept" if n in left else "removed" for n in decided},
                           asserted, assertion)

    def _clone_being_decided(self, error):
        tb = error.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code is self._call_code:
                return tb.tb_frame.f_locals["node"].name
            tb = tb.tb_next
        raise AssertionError("vLLM's pass failed an assertion outside its loop over the "
                             "clones") from error


@pytest.fixture(scope="session")
def vllm_config():
    """vLLM imported and its default VllmConfig built, once per session."""
    pytest.importorskip("vllm", reason="vLLM is not installed (make venv-vllm)")
    from vllm.config import VllmConfig
    return VllmConfig()


@pytest.fixture(scope="session")
def vllm_clone_pass(vllm_config):
    """vLLM 0.33.0's pass."""
    return VllmClonePass(vllm_config)


@pytest.fixture(scope="session")
def vllm_032_clone_pass(vllm_config):
    """vLLM 0.32.0's pass (0.33.0's without its output-alias check)."""
    return VllmClonePass(vllm_config, output_check=False)
