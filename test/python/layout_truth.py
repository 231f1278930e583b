"""Ground truth for layout inference: dumps that print strides, stripped of them, inferred again.

For each dump, `strip` removes every stride list and storage offset from the annotations, as
PyTorch printed them before 2.2 (`"f32[4, 5][5, 1]cpu@2"` becomes `"f32[4, 5]cpu"`); `declone
print --annotate` infers them back; `compare` counts, per tensor annotation, whether the
inferred strides and offset equal the printed ones, are missing (unknown), or differ (wrong).
`decisions` runs `declone opt --remarks=json` on the full and the stripped dump and compares
the decision of every clone.
"""

import json
import os
import re
import subprocess
import sys

# --fake-tensor runs the ops under this interpreter's torch, the one that made the dumps.
_ENVIRONMENT = dict(os.environ, DECLONE_PYTHON=sys.executable)

# "DT[SIZES][STRIDES]DEVICE@OFFSET" between quotes; the strides and offset are optional.
_ANNOTATION = re.compile(r'"([a-z0-9]+)\[([^\]]*)\]\[([^\]]*)\]([A-Za-z0-9:]*)(@[^"]*)?"')
_ANNOTATED = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*"([a-z0-9]+\[[^"]*)"')


def strip(text):
    """The dump without strides and offsets (devices kept)."""
    return _ANNOTATION.sub(lambda m: f'"{m.group(1)}[{m.group(2)}]{m.group(4)}"', text)


_PARAMETER = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)\s*:\s*"([a-z0-9]+\[[^"]*)"')


def _annotated(text):
    """[(name, annotation)] of every tensor annotation: the parameters of `def forward` lines
    (the canonical printer puts them on one line) and the annotated statements, in order."""
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith("def forward"):
            out.extend(m.groups() for m in _PARAMETER.finditer(line))
        elif (annotated := _ANNOTATED.match(line)):
            out.append(annotated.groups())
    return out


def _layouts(text):
    """[(name, strides or None, offset)] per tensor annotation, in order. An offset that is not
    printed reads as "0": print --annotate writes only offsets other than 0, so an offset it
    could not infer reads as 0 too; only the strides tell inferred from unknown."""
    out = []
    for name, annotation in _annotated(text):
        full = _ANNOTATION.match('"' + annotation + '"')
        if full:
            offset = full.group(5)[1:] if full.group(5) else "0"
            out.append((name, full.group(3), offset))
        else:
            out.append((name, None, None))
    return out


def run(cli, *args, stdin=None):
    result = subprocess.run([cli, *map(str, args)], input=stdin, capture_output=True,
                            text=True, timeout=600, env=_ENVIRONMENT)
    if result.returncode != 0:
        raise RuntimeError(f"declone {' '.join(map(str, args))}: {result.stderr}")
    return result.stdout


def compare(cli, text, flags=(), offsets_printed=True):
    """{'nodes', 'equal', 'unknown', 'wrong', 'examples'} over the tensor annotations of a dump
    that prints strides (placeholders included), inferred with `print --annotate` and `flags`
    (--assume-dense-inputs, --fake-tensor). `offsets_printed`: the dump prints every
    storage offset but 0 (declone.fx.dumps does); otherwise (print_readable's dialect, where an
    absent offset means unknown) offsets are compared only where printed."""
    truth = _layouts(run(cli, "print", "-", stdin=text))
    inferred = _layouts(run(cli, "print", "-", "--annotate", *flags, stdin=strip(text)))
    if [name for name, _, _ in truth] != [name for name, _, _ in inferred]:
        raise RuntimeError("the annotated dump does not line up with the original")
    counts = {"nodes": 0, "equal": 0, "unknown": 0, "wrong": 0, "examples": []}
    printed_offsets = {name: "@" in annotation for name, annotation in _annotated(text)}
    for (name, strides, offset), (_, got, got_offset) in zip(truth, inferred):
        if strides is None:
            continue  # the original prints none either
        counts["nodes"] += 1
        if got is None:
            counts["unknown"] += 1
        elif got == strides and (got_offset == offset or (not offsets_printed and
                                                          not printed_offsets[name])):
            counts["equal"] += 1
        else:
            counts["wrong"] += 1
            if len(counts["examples"]) < 10:
                counts["examples"].append(f"{name}: [{got}]@{got_offset} != [{strides}]@{offset}")
    return counts


def decisions(cli, text, flags=()):
    """{'clones', 'same', 'removed_where_changed', 'removed_where_kept', 'decided', 'examples'}:
    the stripped dump's decisions (with `flags`) against the full dump's, clone by clone."""
    def remarks(source, extra):
        result = subprocess.run([cli, "opt", "-", "--remarks=json", *extra], input=source,
                                capture_output=True, text=True, timeout=600, env=_ENVIRONMENT)
        if result.returncode != 0:
            raise RuntimeError(result.stderr)
        return [json.loads(line) for line in result.stderr.splitlines()
                if line.startswith("{")]
    full = remarks(text, [])
    stripped = remarks(strip(text), list(flags))
    if [a["node"] for a in full] != [b["node"] for b in stripped]:
        raise RuntimeError("the stripped dump's clones are not the full dump's")
    counts = {"clones": len(full), "same": 0, "removed_where_changed": 0,
              "removed_where_kept": 0, "decided": 0, "examples": []}  # kept for its layout
    for a, b in zip(full, stripped):
        if (a["decision"], a["reason"]) == (b["decision"], b["reason"]):
            counts["same"] += 1
        elif len(counts["examples"]) < 10:
            counts["examples"].append(f"{a['node']}: {b['decision']} {b['reason']} "
                                      f"!= {a['decision']} {a['reason']}")
        if b["reason"] != "layout-unknown":
            counts["decided"] += 1
        if a["reason"] == "layout-changed" and b["decision"] == "removed":
            counts["removed_where_changed"] += 1
        # Inference only ever knows less than the printed strides: a clone the full dump keeps
        # for its layout (changed or unknown), the stripped one must keep too. (Other reasons
        # can differ: keeping an earlier clone can make a later one removable.)
        if a["reason"] in ("layout-changed", "layout-unknown") and b["decision"] == "removed":
            counts["removed_where_kept"] += 1
    return counts
