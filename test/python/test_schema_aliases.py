"""declone's schemas say what the live PyTorch's say about aliasing and writes.

The effect model starts from the schema registry (torch.schemas, made from PyTorch 2.13, and
supplement.schemas, written by hand for ops registered from Python). A hand-written schema that
drops an alias annotation makes a view look fresh: prims.real and prims.imag were declared
`Tensor self -> Tensor` while PyTorch 2.13 declares `Tensor(a) self -> Tensor(a)`, and the safe
mode removed a clone whose copy was then written through the view (issue 29's review).
"""

import re

import pytest
import torch

from declone_test_support import cli, run_cli  # noqa: F401 (a fixture)

# Different on purpose: prims.as_strided is declared a view (`Tensor(a)`) where PyTorch marks it
# written (`Tensor(a!)`) although its kernel writes nothing (supplement.schemas says why).
DELIBERATE = {"prims::as_strided"}

NAME = re.compile(r"(\w+)::(\w+)(?:\.(\w+))?\(")


def annotations(schema):
    """Argument name -> (written, alias set), and the returns' in order."""
    def of(value):
        info = value.alias_info
        return None if info is None else (info.is_write, tuple(sorted(info.before_set)))
    return ({a.name: of(a) for a in schema.arguments}, [of(r) for r in schema.returns])


@pytest.mark.skipif(not torch.__version__.startswith("2.13"),
                    reason="the registry is PyTorch 2.13's; other versions differ by design")
def test_alias_annotations_match_the_live_schemas(cli):  # noqa: F811
    listed = run_cli(cli, "schemas")
    assert listed.returncode == 0, listed.stderr
    compared, differ = 0, []
    for line in listed.stdout.splitlines():
        match = NAME.match(line)
        if not match or f"{match[1]}::{match[2]}" in DELIBERATE:
            continue
        try:
            live = getattr(getattr(getattr(torch.ops, match[1]), match[2]),
                           match[3] or "default")._schema
        except (AttributeError, RuntimeError):
            continue  # an op this torch does not register (vLLM's, a newer one)
        ours_args, ours_returns = annotations(torch._C.parse_schema(line))
        live_args, live_returns = annotations(live)
        compared += 1
        # Arguments by name: a newer torch may add defaulted ones.
        if ours_returns != live_returns or any(
                live_args.get(name, value) != value for name, value in ours_args.items()):
            differ.append(f"{line}\n  live: {live}")
    assert compared > 4000
    assert not differ, "\n".join(differ)
