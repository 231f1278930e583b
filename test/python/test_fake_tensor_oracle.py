"""The Python side of `--fake-tensor` (tools/declone/fake_tensor_oracle.py): it rebuilds a call
from a dump's text without evaluating it as Python, and runs it under FakeTensorMode."""

import importlib.util
import json
import pathlib
import subprocess
import sys

import pytest
import torch

_SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "tools" / "declone" / \
    "fake_tensor_oracle.py"
_spec = importlib.util.spec_from_file_location("fake_tensor_oracle", _SCRIPT)
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)
FakeTensorMode = pytest.importorskip("torch._subclasses.fake_tensor").FakeTensorMode


def transposed():
    return {"dtype": "float32", "device": "cpu", "sizes": [3, 4], "strides": [1, 3], "offset": 0}


def run(call, *tensors):
    return oracle.run(torch, FakeTensorMode, {"call": call, "tensors": list(tensors)})


def test_a_call_in_the_dumps_syntax_gets_fake_tensors_strides():
    assert run("torch.ops.aten.tril.default(t0, 1)", transposed()) == {
        "sequence": False, "results": [{"sizes": [3, 4], "strides": [4, 1], "offset": 0}]}
    result = run("torch.ops.aten.zeros.default([2, 3], dtype = torch.float16, "
                 "device = device(type='cpu'), pin_memory = False)")
    assert result["results"] == [{"sizes": [2, 3], "strides": [3, 1], "offset": 0}]
    # A view keeps its storage offset; a tuple gives one result per element.
    strided = dict(transposed(), offset=5)
    assert run("torch.ops.aten.select.int(t0, 1, 2)", strided)["results"][0]["offset"] == 11
    split = run("torch.ops.aten.split.Tensor(t0, 2)", transposed())
    assert split["sequence"] and len(split["results"]) == 2
    assert run("torch.ops.aten.add.Tensor(t0, -inf)", transposed())["results"][0] is not None


@pytest.mark.parametrize("call", [
    "__import__('os').system('true')",
    "torch.ops.aten.add.Tensor(t0, __import__('os'))",
    "torch.ops.aten.add.Tensor.__call__(t0, t0)",
    "torch.ops.aten.__class__.__init__.x(t0)",
    "torch.ops.aten.add.Tensor(t0, (lambda: 1)())",
    "torch.ops.aten.add.Tensor(t0, torch.nn)",
    "torch.ops.aten.add.Tensor(t0, 2 ** 100)",
    "torch.ops.aten.add.Tensor(t0, t7)",
    "open('/etc/passwd')",
])
def test_anything_but_an_op_on_literals_and_tensors_is_refused(call):
    with pytest.raises((ValueError, IndexError, AttributeError)):
        run(call, transposed())


def test_the_protocol_over_standard_input_and_output():
    requests = [{"call": "torch.ops.aten.tril.default(t0, 1)", "tensors": [transposed()]},
                {"call": "torch.ops.aten.nonzero.default(t0)", "tensors": [transposed()]},
                {"call": "os.system('true')", "tensors": []}]
    result = subprocess.run([sys.executable, "-c", _SCRIPT.read_text()],
                            input="".join(json.dumps(r) + "\n" for r in requests),
                            capture_output=True, text=True, timeout=300, check=True)
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert replies[0]["ready"] and replies[0]["torch"] == torch.__version__
    assert replies[1]["results"][0]["strides"] == [4, 1]
    assert "error" in replies[2], "nonzero's size depends on the data: no fake result"
    assert "error" in replies[3]
