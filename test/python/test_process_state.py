"""The extension leaves the process it is loaded into as it found it: a library that runs inside
PyTorch programs installs no signal handlers, blocks no signals, starts no threads that stay, and
changes no environment, umask, working folder or locale (issue 32).

A fresh interpreter imports torch (whose own state is the baseline), records the process state,
imports declone and uses every entry point of the package and its extension, and records the
state again. The C-level dispositions are read with sigaction(2) itself: signal.getsignal only
knows the handlers Python installed."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(r'''
    import ctypes
    import json
    import locale
    import os
    import signal

    import torch
    from torch.fx.experimental.proxy_tensor import make_fx

    libc = ctypes.CDLL(None, use_errno=True)


    class SigAction(ctypes.Structure):  # glibc's struct sigaction on Linux
        _fields_ = [("handler", ctypes.c_void_p), ("mask", ctypes.c_ulong * 16),
                    ("flags", ctypes.c_int), ("restorer", ctypes.c_void_p)]


    UNCATCHABLE = {signal.SIGKILL, signal.SIGSTOP}


    def signals():
        return sorted(int(s) for s in signal.valid_signals() if s not in UNCATCHABLE)


    def c_dispositions():
        out = {}
        for number in signals():
            action = SigAction()
            if libc.sigaction(number, None, ctypes.byref(action)) == 0:
                # The kernel's mask is the first word: glibc leaves the rest undefined.
                out[number] = [action.handler or 0, action.flags, action.mask[0]]
        return out


    def python_handlers():
        out = {}
        for number in signals():
            try:
                out[number] = repr(signal.getsignal(number))
            except (ValueError, OSError):
                pass
        return out


    def umask():
        mask = os.umask(0o22)
        os.umask(mask)
        return mask


    def state():
        return {
            "sigaction": c_dispositions(),
            "signal.getsignal": python_handlers(),
            "blocked signals": sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])),
            "environment": dict(os.environ),
            "umask": umask(),
            "working folder": os.getcwd(),
            "locale": locale.setlocale(locale.LC_ALL, None),
        }


    def threads():
        return len(os.listdir("/proc/self/task"))


    def chain_then_write(x):
        a = x * 2
        c2 = a.clone().clone()
        c2.add_(1)
        return c2, a


    def slice_clone(x):
        return x[:, :3].contiguous(), (x + 1)[1:].clone()


    def traced():
        x = torch.randn(4, 5)
        return [make_fx(fn, tracing_mode="fake")(x) for fn in (chain_then_write, slice_clone)]


    graphs = traced()  # torch's work first: its lazily made state is not the extension's
    before, threads_before = state(), threads()

    import declone
    import declone.fx
    import declone.vllm
    from declone import _declone

    used = []
    for mode in ("safe", "vllm", "vllm-0.32"):
        _declone.vllm_version(mode)
        for gm in traced():
            declone.fx.dumps(gm)  # import and the writer
            for remark in declone.fx.eliminate_clones(gm, mode=mode):
                str(remark), repr(remark), remark.json()
            declone.fx.dumps(gm)
        used.append(f"eliminate_clones mode={mode}")
    try:
        _declone.vllm_version("no-such-mode")
    except ValueError:
        pass
    remark = _declone.Remark(node="clone", line=3, decision="kept", reason="layout-changed",
                             detail="why", source="model.py:1", code="y = x.clone()")
    str(remark), remark.json()
    cloning = declone.fx.CloneEliminationPass(donated_input_ids=(0,), mode="safe")
    for gm in traced():
        cloning(gm.graph)
    cloning.uuid()
    if hasattr(declone.fx, "defunctionalize"):
        both = declone.fx.CloneEliminationPass(defunctionalize=True)
        for gm in traced():
            declone.fx.defunctionalize(gm)
            both(gm.graph)
        both.uuid()
        used.append("defunctionalize")
    declone.fx.schemas_of([torch.ops.aten.add_.Tensor, "aten::clone"])
    declone.vllm.mode_from_environment()
    used += ["dumps", "Remark", "CloneEliminationPass", "schemas_of", "declone.vllm"]
    threads_after = threads()  # no torch kernels ran since threads_before: any new one is ours

    # verify=True runs both graphs with torch's kernels, whose pools may start threads.
    for gm in traced():
        declone.fx.eliminate_clones(gm, mode="vllm", verify=True, seed=1)
    used.append("eliminate_clones verify=True")

    after = state()
    changed = {key: {"before": before[key], "after": after[key]}
               for key in before if before[key] != after[key]}
    if threads_after != threads_before:
        changed["threads"] = {"before": threads_before, "after": threads_after}
    print(json.dumps({"changed": changed, "used": used}))
''')


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads glibc's struct sigaction")
def test_the_extension_leaves_signals_threads_and_environment_as_they_were():
    process = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                             env=dict(os.environ), timeout=600)
    assert process.returncode == 0, process.stderr
    result = json.loads(process.stdout.strip().splitlines()[-1])
    assert result["changed"] == {}, json.dumps(result["changed"], indent=1)[:4000]
    assert "eliminate_clones verify=True" in result["used"]
