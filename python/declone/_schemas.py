"""Schemas of custom ops, as ``declone opt --schemas FILE`` reads them.

The CLI knows libtorch's ops and a bundled supplement. A custom op (``torch.library.custom_op``,
``Library.define``, a vLLM kernel) exists only in a process that imported its module, so a dump
that calls one leaves every clone near it undecided (``unknown-effects``: no schema). This
writes the missing schemas: ``declone.fx.schemas_of(ops)`` for ops at hand, and
``python -m declone schemas MODULE... [-o FILE]`` for the ops a module registers when imported.
"""

import argparse
import importlib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

PROG = "python -m declone schemas"

# PyTorch prints the anonymous alias set of `Tensor!` as `Tensor($0! -> )`, which is no schema
# text (declone's parser, like PyTorch's own, rejects it). Written back as the `!` it was.
_ANONYMOUS_WRITE = re.compile(r"\(\$\d+! -> \)")
_ANONYMOUS_READ = re.compile(r"\(\$(\d+) -> \)")


def schema_text(schema):
    """One schema line: PyTorch's printing of ``schema`` (a FunctionSchema) in the syntax it
    reads back."""
    text = _ANONYMOUS_WRITE.sub("!", str(schema))
    return _ANONYMOUS_READ.sub(r"(anonymous\1)", text)


def _overloads(item):
    """The OpOverloads ``item`` stands for."""
    import torch
    if isinstance(item, torch._ops.OpOverload):
        return [item]
    if isinstance(item, torch._ops.OpOverloadPacket):
        return [getattr(item, name) for name in item.overloads()]
    op = getattr(item, "_opoverload", None)  # a torch.library.custom_op (CustomOpDef)
    if isinstance(op, torch._ops.OpOverload):
        return [op]
    if isinstance(item, str):
        return _overloads(_op_named(item))
    raise TypeError(f"not an op: {item!r} (expected an OpOverload, OpOverloadPacket, "
                    "torch.library.custom_op or a name such as 'ns::op' or 'ns::op.overload')")


def _op_named(name):
    """The op ``ns::op`` (all its overloads), ``ns::op.overload`` or ``ns.op.overload``."""
    import torch
    namespace, separator, rest = name.partition("::")
    if not separator:
        namespace, _, rest = name.partition(".")
    op_name, _, overload = rest.partition(".")
    try:
        packet = getattr(getattr(torch.ops, namespace), op_name)
        return getattr(packet, overload) if overload else packet
    except (AttributeError, RuntimeError) as error:
        raise ValueError(f"no op named {name!r} is registered") from error


def schemas_of(ops):
    """The schemas of ``ops`` (OpOverloads, OpOverloadPackets (every overload),
    ``torch.library.custom_op`` objects, or qualified names ``ns::op[.overload]``), one per
    line, for ``declone opt --schemas``. A single op may be given alone."""
    import torch
    # One op, not a list: an OpOverloadPacket iterates over its overloads' names.
    if isinstance(ops, (str, torch._ops.OpOverload, torch._ops.OpOverloadPacket)) or \
            hasattr(ops, "_opoverload") or not hasattr(ops, "__iter__"):
        ops = [ops]
    lines = {}
    for item in ops:
        for op in _overloads(item):
            lines.setdefault(str(op), schema_text(op._schema))
    return "".join(line + "\n" for line in lines.values())


# --- the ops a module registers --------------------------------------------------------------

def _registered():
    """Every schema the dispatcher knows, by (qualified name, overload). torch 1.13 and 2.x alike
    list them here, those of ops defined from Python included."""
    import torch
    return {(schema.name, schema.overload_name): schema
            for schema in torch._C._jit_get_all_schemas()}


def _registered_by_torch(name, overload):
    """Whether torch itself registered the op (importing the user's module may import parts of
    torch that register ops of their own: torch._inductor registers some seventy): the
    dispatcher's record of where it was defined, or the module of a custom_op's function."""
    import torch
    full_name = f"{name}.{overload}" if overload else name
    try:
        from torch._library.custom_ops import OPDEFS  # keyed as custom_op was given the name
        opdef = OPDEFS.get(full_name)
    except ImportError:
        opdef = None
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    if opdef is not None:
        module = getattr(getattr(opdef, "_init_fn", None), "__module__", "") or ""
        return module == "torch" or module.startswith("torch.")
    try:
        dump = torch._C._dispatch_dump(full_name)
    except RuntimeError:
        return False
    where = re.search(r"^debug: registered at (.*):\d+$", dump, re.MULTILINE)
    return bool(where) and os.path.abspath(where.group(1)).startswith(torch_dir) and \
        not where.group(1).endswith(os.path.join("torch", "_library", "custom_ops.py"))


def _import(module):
    """Imports MODULE: a file (``ops.py``, ``path/to/ops.py``) as ``python FILE`` would, its
    folder first on the path, or a module name."""
    path = Path(module)
    if module.endswith(".py") or (os.sep in module and path.exists()):
        if not path.is_file():
            raise ImportError(f"no file {module}")
        sys.path.insert(0, str(path.resolve().parent))
        name = path.stem
        spec = importlib.util.spec_from_file_location(name, path)
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[name] = loaded
        spec.loader.exec_module(loaded)
        return
    importlib.import_module(module)


def ops_registered_by(module):
    """The schemas of the ops importing ``module`` registers, sorted by name, those torch itself
    registers meanwhile left out."""
    before = set(_registered())
    _import(module)
    after = _registered()
    new = sorted(key for key in after if key not in before)
    return [after[key] for key in new if not _registered_by_torch(*key)]


# --- checking with declone's parser ----------------------------------------------------------

def unreadable(lines, cli):
    """The lines of ``lines`` that declone's schema parser rejects, with its message, found by
    running ``CLI schemas --schemas FILE`` (the parser the other commands use) until it reads
    the rest. ``cli`` is the declone executable."""
    remaining = list(lines)
    problems = []
    while remaining:
        with tempfile.NamedTemporaryFile("w", suffix=".schemas", delete=False) as file:
            file.write("".join(line + "\n" for line in remaining))
        try:
            result = subprocess.run([str(cli), "schemas", "--names", "--schemas", file.name],
                                    capture_output=True, text=True, timeout=120)
        finally:
            os.unlink(file.name)
        if result.returncode == 0:
            break
        where = re.search(re.escape(file.name) + r":(\d+):(\d+): error: (.*)", result.stderr)
        if where is None:
            raise RuntimeError(f"declone schemas failed: {result.stderr.strip()}")
        index = int(where.group(1)) - 1
        problems.append((remaining.pop(index), f"column {where.group(2)}: {where.group(3)}"))
    return problems


def _write(text, output):
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    # As the CLI's -o: the file is replaced only once it is complete.
    directory = os.path.dirname(os.path.abspath(output))
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False) as file:
        file.write(text)
    os.replace(file.name, output)


def main(args):
    """``python -m declone schemas MODULE... [-o FILE]``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Write the schemas of the custom ops that importing each MODULE "
        "registers (torch.library.custom_op, Library.define), one per line, in the format "
        "`declone opt --schemas FILE` reads. Ops torch itself registers meanwhile are left out. "
        "(`declone schemas [PATTERN]` lists the schemas declone already knows.)")
    parser.add_argument("modules", nargs="+", metavar="MODULE",
                        help="a module name (vllm._custom_ops) or a Python file (ops.py)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write to FILE instead of standard output")
    options = parser.parse_args(args)
    try:
        import torch
    except ImportError:
        parser.exit(2, f"{PROG}: error: torch is not importable in {sys.executable}\n")
    # A module given as a name is looked up where `python -m` looks: the current folder first.
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    lines = {}
    for module in options.modules:
        try:
            schemas = ops_registered_by(module)
        except Exception as error:  # noqa: BLE001: the module's own failure, reported
            parser.exit(2, f"{PROG}: error: cannot import {module}: "
                           f"{type(error).__name__}: {error}\n")
        if not schemas:
            sys.stderr.write(f"{PROG}: warning: importing {module} registered no custom ops "
                             "(not already registered by a module before it)\n")
        for schema in schemas:
            lines.setdefault(schema.name + "." + schema.overload_name, schema_text(schema))
    body = list(lines.values())
    from .__main__ import executable
    cli = executable()
    problems = unreadable(body, cli) if cli is not None and body else []
    header = [f"# Custom op schemas registered by importing {' '.join(options.modules)} "
              f"(torch {torch.__version__}), for declone --schemas"]
    for line, message in problems:
        sys.stderr.write(f"{PROG}: warning: declone cannot read the schema PyTorch prints, "
                         f"left out as a comment ({message}): {line}\n")
        body[body.index(line)] = f"# unreadable ({message}): {line}"
    _write("".join(line + "\n" for line in header + body), options.output)
    return 0
