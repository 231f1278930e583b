#!/usr/bin/python3
"""Runs declone's benchmarks and writes docs/PERFORMANCE.md with its plot (what `make bench` does).

    /usr/bin/python3 bench/performance_report.py --build build [--out docs/PERFORMANCE.md]
        [--quick] [--peer-blocks 48,476]

Three measurements, all in this one run, on this machine:
1. declone_bench (Google Benchmark): each stage (scan floor, name floor, read, write, alias
   analysis, the pass in both modes, read + pass + write) at 1k..1M nodes of declone-generate's
   graphs, as ns/node and MB/s, and the held memory per node the benchmarks count.
2. The CLI end to end: `declone opt FILE -o /dev/null` on the same graphs written to files, wall
   time (best of 3) and peak RSS from /usr/bin/time.
3. The peers on live torch.fx graphs: a Python restatement of vLLM's pass and declone's binding
   (bench/python/clone_pass_bench.py), CPU time.
"""

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (benchmark family, label in the tables) in pipeline order.
STAGES = [
    ("BM_Scan", "scan floor (memchr)"),
    ("BM_NameFloor", "name floor (names hashed and resolved, nothing built)"),
    ("BM_Read", "read"),
    ("BM_AliasAnalysis", "alias analysis"),
    ("BM_EliminateClones/safe", "pass, safe"),
    ("BM_EliminateClones/vllm", "pass, vllm"),
    ("BM_Write", "write"),
    ("BM_OptEndToEnd", "read + safe pass + write"),
]
CLI_SIZES = [1_000, 10_000, 100_000, 1_000_000]


def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True, capture_output=True, **kwargs)


def google_benchmarks(build, quick):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        families = ("^BM_(Scan|NameFloor|Read|Write|AliasAnalysis|EliminateClones/safe|"
                    "EliminateClones/vllm|OptEndToEnd)/")
        command = [os.path.join(build, "bin", "declone_bench"), f"--benchmark_out={out.name}",
                   "--benchmark_out_format=json",
                   f"--benchmark_filter={families}" + ("(1000|10000)$" if quick else "")]
        if quick:
            command.append("--benchmark_min_time=0.05")
        else:  # the median of three: single runs on a shared 2-core VM wander by 10-20%
            command += ["--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"]
        print("$", " ".join(command), file=sys.stderr)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        data = json.load(open(out.name))
    rows = {}
    for bench in data["benchmarks"]:
        if bench.get("error_occurred"):
            continue
        name = bench["name"]
        if bench.get("run_type") == "aggregate":
            if bench.get("aggregate_name") != "median":
                continue
            name = name[:-len("_median")]
        elif not quick:
            continue
        family, size = name.rsplit("/", 1)
        seconds = bench["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[
            bench["time_unit"]]
        rows[family, int(size)] = {
            "nodes": bench.get("nodes", int(size)),
            "seconds": seconds,
            "ns_per_node": bench["time/node"] * 1e9 if "time/node" in bench else None,
            "mb_per_s": bench["bytes_per_second"] / 1e6 if "bytes_per_second" in bench else None,
            "bytes_per_node": bench.get("bytes/node"),
        }
    return rows, data["context"]


def cli_end_to_end(build, sizes):
    declone = os.path.join(build, "bin", "declone")
    generate = os.path.join(build, "bin", "declone-generate")
    # The process's own footprint, whatever the graph: measured once.
    baseline = run(["/usr/bin/time", "-f", "%e %M", declone, "print", "--help"])
    base_kb = int(baseline.stderr.strip().splitlines()[-1].split()[1])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            path = os.path.join(tmp, f"g{size}.fx")
            run([generate, "--nodes", str(size), "-o", path])
            file_bytes = os.path.getsize(path)
            best_wall, peak_kb = float("inf"), 0
            for _ in range(3):
                # Wall time from here (/usr/bin/time counts in hundredths, and a small graph
                # takes a few milliseconds), peak RSS from /usr/bin/time.
                start = time.perf_counter()
                result = run(["/usr/bin/time", "-f", "%e %M", declone, "opt", path, "-o",
                              "/dev/null"])
                wall = time.perf_counter() - start
                kb = result.stderr.strip().splitlines()[-1].split()[1]
                best_wall, peak_kb = min(best_wall, wall), max(peak_kb, int(kb))
            rows.append({"size": size, "bytes": file_bytes, "wall": best_wall,
                         "rss_bytes": peak_kb * 1024, "base_rss_bytes": base_kb * 1024})
    return rows


# The torchvision graphs take a millisecond or two: the best of many runs is what is stable.
PEER_REPEATS = 15


def peers(build, blocks, models):
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    rows = []
    for i, count in enumerate(blocks):
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            command = ["/usr/bin/python3", os.path.join(HERE, "python", "clone_pass_bench.py"),
                       "--blocks", str(count), "--repeats", str(PEER_REPEATS), "--json",
                       out.name]
            if models and i == len(blocks) - 1:
                command.append("--models")
            print("$", " ".join(command[1:]), file=sys.stderr)
            subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
            rows += json.load(open(out.name))
    return rows


def machine():
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(re.search(r"MemTotal:\s+(\d+)", open("/proc/meminfo").read()).group(1))
        memory = f"{kb / 2**20:.0f} GiB"
    except (OSError, AttributeError):
        pass
    compiler = run(["c++", "--version"]).stdout.splitlines()[0]
    return (f"{cpu}, {os.cpu_count()} cores, {memory}; Linux {platform.release()}; "
            f"{compiler}; Python {platform.python_version()}")


def plot(rows, sizes, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 5.2))
    for family, label in STAGES:
        points = [(rows[family, s]["nodes"], rows[family, s]) for s in sizes
                  if (family, s) in rows]
        if not points:
            continue
        style = dict(marker="o", label=label)
        if family == "BM_Scan":
            style.update(linestyle="--", color="black")
        elif family == "BM_NameFloor":
            style.update(linestyle=":", color="grey")
        xs = [n for n, _ in points]
        left.plot(xs, [r["ns_per_node"] for _, r in points], **style)
        if all(r["mb_per_s"] for _, r in points):
            right.plot(xs, [r["mb_per_s"] for _, r in points], **style)
    for axis, title, unit in ((left, "cost per node", "ns / node"),
                              (right, "throughput over the text", "MB/s")):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("graph nodes")
        axis.set_ylabel(unit)
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
    # Below both plots: inside one it hid the floors' lines.
    handles, labels = left.get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    figure.tight_layout(rect=(0, 0.1, 1, 1))
    figure.savefig(path, dpi=110)


def fmt(value, spec=".0f"):
    return "n/a" if value is None else format(value, spec)


def write_markdown(out, rows, sizes, cli, peer_rows, context, machine_text, image, commands):
    lines = ["# Performance", "",
             f"Measured {datetime.date.today().isoformat()} by `make bench` "
             "(bench/performance_report.py); regenerate with the same command. Times are not "
             "asserted in tests.", "",
             f"**Machine:** {machine_text}. Google Benchmark load average at start: "
             f"{', '.join(format(x, '.2f') for x in context.get('load_avg', []))}; build type "
             f"`{context.get('library_build_type', '?')}` of the benchmark library (declone "
             "itself is built as configured, RelWithDebInfo by default).", "",
             "**Inputs:** `declone-generate --nodes N` (seed 1): transformer-like post-grad "
             "graphs with views, layout-changing `.contiguous()` clones, vLLM-style clone + "
             "in-place pairs, `auto_functionalized` custom ops and the exact sizes/strides "
             "PyTorch would print; about 135 bytes per node.", "",
             "**Commands:**", "", "```"] + commands + ["```", "",
             f"![ns/node and MB/s against graph size]({image})", "",
             "## Stages (Google Benchmark, ns per node)", ""]
    header = "| stage | " + " | ".join(f"{s:,}" for s in sizes) + " | growth 100k→1M |"
    lines += [header, "|---|" + "---|" * (len(sizes) + 1)]
    scan = {s: rows.get(("BM_Scan", s)) for s in sizes}
    for family, label in STAGES:
        cells = [fmt(rows[family, s]["ns_per_node"], ".1f") if (family, s) in rows else "n/a"
                 for s in sizes]
        growth = "n/a"
        if (family, 100_000) in rows and (family, 1_000_000) in rows:
            a = rows[family, 100_000]["ns_per_node"]
            b = rows[family, 1_000_000]["ns_per_node"]
            growth = f"{(b / a - 1) * 100:+.0f}%"
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {growth} |")
    lines += ["", "## Throughput (MB/s of graph text) and multiple of the scan floor", "",
              "| stage | " + " | ".join(f"{s:,}" for s in sizes) + " |",
              "|---|" + "---|" * len(sizes)]
    for family, label in STAGES:
        cells = []
        for s in sizes:
            row = rows.get((family, s))
            if not row or not row["mb_per_s"]:
                cells.append("n/a")
                continue
            multiple = ""
            if scan[s] and family != "BM_Scan":
                multiple = f" ({row['seconds'] / scan[s]['seconds']:.0f}x)"
            cells.append(f"{row['mb_per_s']:.0f}{multiple}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    memory = [(f, l) for f, l in STAGES if any((rows.get((f, s)) or {}).get("bytes_per_node")
                                               for s in sizes)]
    if memory:
        lines += ["", "## Memory the benchmarks count (bytes per node, allocator's view)", "",
                  "| what | " + " | ".join(f"{s:,}" for s in sizes) + " |",
                  "|---|" + "---|" * len(sizes)]
        for family, label in memory:
            cells = [fmt((rows.get((family, s)) or {}).get("bytes_per_node")) for s in sizes]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "## `declone opt FILE -o /dev/null` (the CLI, end to end)", "",
              "Wall time is the best of 3 runs, timed around the process (with "
              "`/usr/bin/time`'s own start, about a millisecond); peak RSS from "
              "`/usr/bin/time -f %M`. The "
              "process's fixed RSS (`declone print --help`) is shown apart.", "",
              "| nodes | file MB | wall s | ns/node | MB/s | × scan floor | peak RSS MB | "
              "bytes/node | bytes/node above fixed |",
              "|---|---|---|---|---|---|---|---|---|"]
    for row in cli:
        floor = rows.get(("BM_Scan", row["size"]))
        multiple = f"{row['wall'] / floor['seconds']:.0f}x" if floor else "n/a"
        above = (row["rss_bytes"] - row["base_rss_bytes"]) / row["size"]
        lines.append(
            f"| {row['size']:,} | {row['bytes'] / 1e6:.1f} | {row['wall']:.3f} | "
            f"{row['wall'] * 1e9 / row['size']:.0f} | {row['bytes'] / 1e6 / row['wall']:.0f} | "
            f"{multiple} | {row['rss_bytes'] / 1e6:.0f} | {row['rss_bytes'] / row['size']:.0f} | "
            f"{above:.0f} |")
    by_size = {row["size"]: row for row in cli}
    if 100_000 in by_size and 1_000_000 in by_size:
        a, b = by_size[100_000], by_size[1_000_000]
        growth = (b["wall"] / b["size"]) / (a["wall"] / a["size"]) - 1
        lines += ["", f"Wall time per node from 100k to 1M nodes: {growth * 100:+.0f}% (it includes "
                  "the process's fixed start-up, which weighs more at 100k)."]
    if peer_rows:
        lines += ["", f"## Peers on live torch.fx graphs (CPU ms, best of {PEER_REPEATS})", "",
                  "make_fx (fake mode) traces of a stack of blocks with the clone patterns "
                  "vLLM's pass meets, and of torchvision training graphs (forward and backward) "
                  "(bench/python/clone_pass_bench.py). *Python vLLM* is a "
                  "restatement of vLLM's UnsafeCloneEliminationPass "
                  "(bench/python/vllm_reference.py, vLLM 0.33.0's); *declone* is "
                  "`declone.fx.eliminate_clones`: importing the whole live graph, "
                  "the C++ pass, and replaying the removals on the live graph "
                  "with FX's own `replace_all_uses_with` and `erase_node`, which both pay alike. "
                  "Each run starts on a fresh copy after a garbage collection, so all of them "
                  "read a graph that is out of the CPU caches. *Import* and *C++ pass* are "
                  "declone's vllm mode split in two.", "",
                  "| graph | nodes | clones | removed | Python vLLM | declone vllm | ratio | "
                  "declone safe | ratio | of which import | C++ pass |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in peer_rows:
            lines.append(
                f"| {r['graph']} | {r['nodes']:,} | {r['clones']:,} | {r['removed_vllm']:,} | "
                f"{r['python_ms']:.1f} | {r['declone_vllm_ms']:.1f} | {r['vllm_ratio']:.2f} | "
                f"{r['declone_safe_ms']:.1f} | {r['safe_ratio']:.2f} | {fmt(r['import_ms'], '.1f')}"
                f" | {fmt(r['core_ms'], '.1f')} |")
    notes = os.path.join(HERE, "performance_notes.md")
    if os.path.exists(notes):  # the analysis people write; the tables above are regenerated
        lines += ["", open(notes).read().rstrip()]
    lines.append("")
    with open(out, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "PERFORMANCE.md"))
    parser.add_argument("--quick", action="store_true",
                        help="small sizes only, short runs (to check the script)")
    parser.add_argument("--peer-blocks", default="48,476",
                        help="blocks of the live-graph peers' stacks (21 nodes each)")
    args = parser.parse_args()

    sizes = [1_000, 10_000] if args.quick else CLI_SIZES
    commands = [f"{os.path.relpath(sys.argv[0], ROOT)} --build {os.path.relpath(args.build, ROOT)}",
                "build/bin/declone_bench --benchmark_filter='^BM_(Scan|NameFloor|Read|Write|"
                "AliasAnalysis|EliminateClones|OptEndToEnd)/'",
                "build/bin/declone-generate --nodes N -o gN.fx && "
                "/usr/bin/time -f '%e %M' build/bin/declone opt gN.fx -o /dev/null",
                "PYTHONPATH=build/python /usr/bin/python3 bench/python/clone_pass_bench.py "
                "--blocks B --json OUT"]
    rows, context = google_benchmarks(args.build, args.quick)
    cli = cli_end_to_end(args.build, sizes)
    blocks = [int(b) for b in args.peer_blocks.split(",") if b]
    peer_rows = peers(args.build, blocks[:1] if args.quick else blocks, not args.quick)
    image_dir = os.path.join(os.path.dirname(args.out), "images")
    os.makedirs(image_dir, exist_ok=True)
    image = os.path.join(image_dir, "performance.png")
    plot(rows, sizes, image)
    write_markdown(args.out, rows, sizes, cli, peer_rows, context, machine(),
                   os.path.relpath(image, os.path.dirname(args.out)), commands)
    print(f"wrote {os.path.relpath(args.out)} and {os.path.relpath(image)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
