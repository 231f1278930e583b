#!/usr/bin/env python3
"""`declone analyze` renders the decisions `declone opt` makes: over every graph the lit suite
reads and every dump of the corpus, both must list the same clones with the same decision,
reason and detail, in the same order (issue 32: one decision record).

Usage: analyze_agrees.py DECLONE_BIN DIR...   (every file under the DIRs is tried; those opt
cannot read, such as RUN scripts and logs of several graphs, must fail alike in analyze)."""
import json
import pathlib
import subprocess
import sys

KEYS = ("node", "line", "decision", "reason", "detail", "source", "code")


def run(argv):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def decisions(lines):
    out = []
    for line in lines.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        record = json.loads(line)
        if "node" in record:  # the --stats object has none
            out.append(tuple(record.get(key) for key in KEYS))
    return out


def main(argv):
    binary = argv[1]
    files = sorted({p for d in argv[2:] for p in pathlib.Path(d).rglob("*") if p.is_file()})
    compared, clones, failures = 0, 0, []
    for path in files:
        opt_status, _, opt_err = run([binary, "opt", str(path), "--remarks=json", "-o", "/dev/null"])
        ana_status, ana_out, ana_err = run([binary, "analyze", str(path), "--json"])
        if opt_status == 2 or ana_status == 2:
            if opt_status != ana_status:
                failures.append(f"{path}: opt exits {opt_status}, analyze {ana_status}: "
                                f"{(opt_err or ana_err).strip()[:200]}")
            continue
        opt_decisions, ana_decisions = decisions(opt_err), decisions(ana_out)
        compared += 1
        clones += len(opt_decisions)
        if opt_decisions != ana_decisions:
            diff = next((f"opt {a} / analyze {b}" for a, b in zip(opt_decisions, ana_decisions)
                         if a != b), f"{len(opt_decisions)} vs {len(ana_decisions)} decisions")
            failures.append(f"{path}: {diff}")
    print(f"{compared} graphs files compared, {clones} clone decisions; {len(failures)} disagree")
    for failure in failures:
        print("DISAGREE:", failure)
    if compared < 50:
        print("too few graphs were compared: is the binary or the corpus missing?")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
