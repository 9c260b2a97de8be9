#!/usr/bin/env python3
"""The benchmarks behind bench/run.sh (see there). Timings are medians of interleaved runs
of the two commands being compared, so both see the same machine state."""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

build, corpus = sys.argv[1], sys.argv[2]
opt = os.path.join(build, "bin", "metrale-opt")
REPS = int(os.environ.get("BENCH_REPS", "5"))


def timed(cmd):
    """CPU seconds (user + sys) of one run: steadier than wall time on a shared VM."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(label, model, pass_flag="--metrale-budget=target=host-cpu op-remarks=false"):
    """Three commands, interleaved: parse+print; with the pass (mlir-opt verifies the IR
    again after every pass by default); with the pass and --verify-each=0 (the pass's own
    cost)."""
    base = [opt, model, "-o", os.devnull]
    with_pass = base + [pass_flag]
    no_verify = with_pass + ["--verify-each=0"]
    runs = ([], [], [])
    timed(base)  # warm the page cache
    for _ in range(REPS):
        for cmd, acc in zip((base, with_pass, no_verify), runs):
            acc.append(timed(cmd))
    m = [statistics.median(r) for r in runs]
    print("  %s" % label)
    print("    parse+print %.3f s | + pass %.3f s, ratio %.3f | + pass, --verify-each=0 %.3f s, ratio %.3f"
          % (m[0], m[1], m[1] / m[0], m[2], m[2] / m[0]))
    return m[2] / m[0]


def instructions(cmd, work):
    """Instructions executed (valgrind's callgrind): repeatable whatever the machine does."""
    out = os.path.join(work, "cg.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in p.stderr.splitlines():
        if "refs:" in line:
            return int(line.split("refs:")[1].replace(",", "").strip())
    raise RuntimeError("callgrind printed no instruction count")


def plan(model, planner, work):
    out = os.path.join(work, "p.json")
    subprocess.run([opt, model, "--metrale-budget=target=host-cpu op-remarks=false planner=%s json=%s"
                    % (planner, out), "-o", os.devnull], check=True, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)["functions"]


print("metrale benchmarks (%d interleaved runs each, medians of CPU seconds)" % REPS)
print("(1) cost of the pass: metrale-opt with --metrale-budget / without")
models = sorted((os.path.join(corpus, m) for m in os.listdir(corpus) if m.endswith(".mlir")),
                key=os.path.getsize) if os.path.isdir(corpus) else []
with tempfile.TemporaryDirectory() as work:
    if models:
        compare("largest corpus model: " + os.path.basename(models[-1]), models[-1])
        compare("the memory pass, same model", models[-1],
                "--metrale-memory=target=h100 params=0 rows=0 over-budget-warning=true")
    else:
        print("  corpus not found at %s: skipped" % corpus)
    gen = os.path.join(work, "gen_1m.mlir")
    subprocess.run([os.path.join(build, "bin", "gen_graph"), "1000000", gen], check=True)
    compare("generated graph, 1M ops", gen)
    if shutil.which("valgrind") and models:
        base = [opt, models[-1], "-o", os.devnull, "--verify-each=0"]
        i0 = instructions(base, work)
        i1 = instructions(base + ["--metrale-budget=target=host-cpu op-remarks=false"], work)
        i2 = instructions(base + ["--metrale-memory=target=h100 params=0 rows=0 over-budget-warning=true"], work)
        print("  largest corpus model, instructions (callgrind, --verify-each=0 in all three)")
        print("    parse+print %d | + budget pass %d, ratio %.3f | + memory pass %d, ratio %.3f"
              % (i0, i1, i1 / i0, i2, i2 / i0))
    if shutil.which("valgrind"):
        small = os.path.join(work, "gen_50k.mlir")
        subprocess.run([os.path.join(build, "bin", "gen_graph"), "50000", small], check=True)
        base = [opt, small, "-o", os.devnull]
        i0 = instructions(base, work)
        i1 = instructions(base + ["--metrale-budget=target=host-cpu op-remarks=false", "--verify-each=0"], work)
        i2 = instructions(base + ["--metrale-budget=target=host-cpu op-remarks=false"], work)
        print("  generated graph, 50k ops, instructions (callgrind, exact and repeatable)")
        print("    parse+print %d | + pass, --verify-each=0 %d, ratio %.3f | + pass %d, ratio %.3f"
              % (i0, i1, i1 / i0, i2, i2 / i0))

    print("(2) planner quality: arena_bytes / peak_live_bytes per function (1.000 = optimal)")
    ours, basel, worse = [], [], 0
    for m in models:
        for fb, ff in zip(plan(m, "best", work), plan(m, "first-fit", work)):
            pb, pf = fb["budget"], ff["budget"]
            if not pb["peak_live_bytes"]:
                continue
            r1 = pb["arena_bytes"] / pb["peak_live_bytes"]
            r2 = pf["arena_bytes"] / pf["peak_live_bytes"]
            ours.append(r1)
            basel.append(r2)
            worse += pb["arena_bytes"] > pf["arena_bytes"]
            print("  %-48s metrale %.4f   greedy-by-size %.4f" % (
                (os.path.basename(m)[:36] + " @" + fb["name"])[:48], r1, r2))
    if ours:
        print("  median: metrale %.4f, greedy-by-size %.4f; functions where metrale is worse: %d of %d"
              % (statistics.median(ours), statistics.median(basel), worse, len(ours)))
