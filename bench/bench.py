#!/usr/bin/env python3
"""The benchmarks behind bench/run.sh (see there). Timings are medians of interleaved runs
of the two commands being compared, so both see the same machine state."""
import csv
import json
import math
import re
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
    """CPU seconds (user + sys) and peak RSS (KiB) of one run, from the kernel's own
    accounting of that process (os.wait4): steadier than wall time on a shared VM."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise RuntimeError("%s exited with %d" % (" ".join(cmd), p.returncode))
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss


BUDGET = "--metrale-budget=target=host-cpu op-remarks=false"
MEMORY = "--metrale-memory=target=h100 params=0 rows=0"
DISPATCH = "--metrale-dispatch=target=host-cpu"


def compare(label, model, flags=(BUDGET,)):
    """parse+print and parse+print with each pass in |flags| (stock mlir-opt flags),
    interleaved: medians of CPU seconds and of peak RSS, and their ratios."""
    base = [opt, model, "-o", os.devnull]
    cmds = [base] + [base + [f] for f in flags]
    runs = [[] for _ in cmds]
    timed(base)  # warm the page cache
    for _ in range(REPS):
        for cmd, acc in zip(cmds, runs):
            acc.append(timed(cmd))
    cpu = [statistics.median(t for t, _ in r) for r in runs]
    rss = [statistics.median(m for _, m in r) for r in runs]
    print("  %s" % label)
    print("    parse+print %.3f s, %d MiB" % (cpu[0], rss[0] // 1024))
    for k, f in enumerate(flags, 1):
        print("    + %-48s %.3f s, ratio %.3f | peak RSS %d MiB, ratio %.3f"
              % (f.split("=")[0], cpu[k], cpu[k] / cpu[0], rss[k] // 1024, rss[k] / rss[0]))
    return cpu, rss


def share(model, flags=(BUDGET, MEMORY, DISPATCH)):
    """What each pass adds within one process, by MLIR's own timer (--mlir-timing, stock
    flags otherwise): total / (total - the pass's row), per run, the runs of the passes
    interleaved. Parse, pass and print are timed in the same process a moment apart, so a
    VM that runs one process 15% slower than the next (seen here at 1M ops) moves both
    sides of the ratio alike; the medians of separate processes (compare) carry that
    spread. Median, min and max of REPS runs."""
    per = [[] for _ in flags]
    for _ in range(REPS):
        for f, acc in zip(flags, per):
            p = subprocess.run([opt, model, "-o", os.devnull, f, "--mlir-timing"],
                               capture_output=True, text=True, check=True)
            total = own = None
            for line in p.stderr.splitlines():
                if "Total Execution Time" in line:
                    total = float(line.split()[-2])
                elif "Pass" in line and "%" in line and line.split()[-1].endswith("Pass"):
                    own = float(line.split()[0])
            if total is None or own is None:
                raise RuntimeError("--mlir-timing printed no total or no pass row")
            acc.append(total / (total - own))
    print("    in one process (MLIR's timer), total / (total - pass):")
    for f, acc in zip(flags, per):
        print("    + %-48s ratio %.3f (min %.3f, max %.3f)"
              % (f.split("=")[0], statistics.median(acc), min(acc), max(acc)))


def pass_seconds(model):
    """The Budget pass's own wall time as MLIR's --mlir-timing reports it (one thread)."""
    return budget_seconds(model, BUDGET)


def scaling(work):
    """The Budget pass's own time (MLIR's pass timer, one thread, median of REPS) at 10k,
    100k and 1M ops, and the ratio between successive sizes: 10.0 is linear."""
    prev = None
    print("  cost growth, generated graphs (the pass's own time, --mlir-timing)")
    for n in (10000, 100000, 1000000):
        gen = os.path.join(work, "gen_%d.mlir" % n)
        subprocess.run([os.path.join(build, "bin", "gen_graph"), str(n), gen], check=True)
        own = statistics.median(pass_seconds(gen) for _ in range(REPS))
        print("    %7d ops: pass %.4f s%s" % (n, own, "" if prev is None else
                                                ", x%.1f the previous size" % (own / prev)))
        prev = own


def budget_seconds(model, flag):
    """The Budget pass's own wall time (--mlir-timing, one thread) with |flag|."""
    p = subprocess.run([opt, model, "-o", os.devnull, flag, "--mlir-timing",
                        "--mlir-disable-threading"], capture_output=True, text=True, check=True)
    for line in p.stderr.splitlines():
        if "BudgetPass" in line:
            return float(line.split()[0])
    raise RuntimeError("--mlir-timing printed no BudgetPass row")


def mlir_cpu_scaling(work):
    """Issue 42: the Budget pass on mlir-cpu (upstream's CPU pipeline run in process) and
    on host-cpu, on gen_graph --mlp graphs of 500 to 25,000 blocks (225k ops) (9 ops each, one
    function), median of REPS; the growth per doubling (2.0 is linear) and mlir-cpu over
    host-cpu. Default options (the exact planner's search included), and plan-effort=0."""
    print("(1c) mlir-cpu at scale: the Budget pass's own seconds (--mlir-timing), median of %d" % REPS)
    flags = [("mlir-cpu", "--metrale-budget=target=mlir-cpu op-remarks=false"),
             ("mlir-cpu plan-effort=0", "--metrale-budget=target=mlir-cpu op-remarks=false plan-effort=0"),
             ("host-cpu", "--metrale-budget=target=host-cpu op-remarks=false")]
    prev = {}
    for blocks in (500, 1000, 2000, 5000, 25000):  # 25,000 blocks: 225k ops
        gen = os.path.join(work, "mlp_%d.mlir" % blocks)
        subprocess.run([os.path.join(build, "bin", "gen_graph"), "--mlp", str(blocks), gen], check=True)
        row = {}
        for label, flag in flags:
            row[label] = statistics.median(budget_seconds(gen, flag) for _ in range(REPS))
        cells = []
        for label, _ in flags:
            growth = ""
            if label in prev:
                growth = " (x%.2f per doubling)" % ((row[label] / prev[label][0]) ** (1 / math.log2(blocks / prev[label][1])))
            cells.append("%s %.3f s%s" % (label, row[label], growth))
        print("  %5d blocks (%d ops): %s; mlir-cpu / host-cpu %.1f (plan-effort=0: %.1f)"
              % (blocks, 9 * blocks + 2, ", ".join(cells), row["mlir-cpu"] / row["host-cpu"],
                 row["mlir-cpu plan-effort=0"] / row["host-cpu"]))
        prev = {k: (v, blocks) for k, v in row.items()}


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


ONLY = os.environ.get("BENCH_ONLY", "")  # "cost", "scale", "plan" or "run": one part alone
if ONLY in ("", "cost"):
    print("metrale benchmarks (%d interleaved runs each, medians of CPU seconds)" % REPS)
    print("(1) cost of the pass: metrale-opt with --metrale-budget / without")
    models = sorted((os.path.join(corpus, m) for m in os.listdir(corpus) if m.endswith(".mlir")),
                    key=os.path.getsize) if os.path.isdir(corpus) else []
    with tempfile.TemporaryDirectory() as work:
        if models:
            compare("largest corpus model: " + os.path.basename(models[-1]), models[-1],
                    (BUDGET, MEMORY, DISPATCH))
            share(models[-1])
        else:
            print("  corpus not found at %s: skipped" % corpus)
        # The sizes the cost goals name (issue 7): a generated 225k-op graph, then 1M ops.
        mid = os.path.join(work, "gen_225k.mlir")
        subprocess.run([os.path.join(build, "bin", "gen_graph"), "225000", mid], check=True)
        compare("generated graph, 225k ops", mid, (BUDGET, MEMORY, DISPATCH))
        share(mid)
        gen = os.path.join(work, "gen_1m.mlir")
        subprocess.run([os.path.join(build, "bin", "gen_graph"), "1000000", gen], check=True)
        compare("generated graph, 1M ops", gen, (BUDGET, MEMORY))
        share(gen)
        fns = os.path.join(work, "fns_20k.mlir")
        subprocess.run([os.path.join(build, "bin", "gen_graph"), "--functions", "20000", fns],
                       check=True)
        compare("20,000 one-op functions", fns, (BUDGET, MEMORY, DISPATCH))
        scaling(work)
        # Instructions executed: exact and repeatable whatever else the machine does. Stock
        # flags throughout; one thread, so that the counts do not depend on scheduling.
        if shutil.which("valgrind"):
            small = os.path.join(work, "gen_50k.mlir")
            subprocess.run([os.path.join(build, "bin", "gen_graph"), "50000", small], check=True)
            rows = ([("largest corpus model", models[-1])] if models else []) + [
                ("generated graph, 50k ops", small), ("20,000 one-op functions", fns)]
            print("  instructions (callgrind, --mlir-disable-threading)")
            for label, model in rows:
                base = [opt, model, "-o", os.devnull, "--mlir-disable-threading"]
                i0 = instructions(base, work)
                i1 = instructions(base + [BUDGET], work)
                i2 = instructions(base + [MEMORY], work)
                i3 = instructions(base + [DISPATCH], work)
                print("    %-26s parse+print %d | + budget %d, ratio %.3f | + memory %d, ratio %.3f"
                      " | + dispatch %d, ratio %.3f"
                      % (label, i0, i1, i1 / i0, i2, i2 / i0, i3, i3 / i0))

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


def run_table(models):
    """(3) predicted (mlir-cpu) / measured (metrale run) per field for each corpus model
    that runs in seconds, and the measured live high-water against the predicted
    peak_live_bytes and arena_bytes."""
    fields = ["input_bytes", "output_bytes", "readback_bytes", "bytes_moved",
              "device_allocation_bytes", "device_allocation_events", "latency_ns",
              "output_buffers", "resident_resource_rows", "resident_resource_handles",
              "kernel_launches", "sync_points"]
    print("(3) measured / predicted on mlir-cpu (metrale run, --opt 2, 3 runs, random inputs)")
    print("  %-44s %s" % ("model @function", " ".join("%9s" % f[:9] for f in fields)))
    tool = os.path.join(build, "bin", "metrale")
    for m in models:
        p = subprocess.run([tool, "run", m, "--runs", "3", "--opt", "2", "--inputs", "random",
                            "--json", "-"], capture_output=True, text=True)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            print("  %-44s did not run: %s" % (os.path.basename(m)[:44], p.stderr.strip()[:100]))
            continue
        for f in doc["functions"]:
            label = (os.path.basename(m)[:30] + " @" + f["name"])[:44]
            if "error" in f:
                print("  %-44s not run: %s" % (label, f["error"][:90]))
                continue
            ratios = []
            for k in fields:
                pv, mv = f["predicted"][k], f["measured"][k]
                ratios.append("%9.3f" % (mv / pv) if pv else ("%9s" % ("1.000" if not mv else "inf")))
            print("  %-44s %s" % (label, " ".join(ratios)))
            print("  %-44s live high water %d B measured; predicted peak_live %d, arena %d (%.3f, %.3f)"
                  % ("", f["live_high_water_bytes"], f["predicted_peak_live_bytes"],
                     f["predicted_arena_bytes"],
                     f["live_high_water_bytes"] / max(f["predicted_peak_live_bytes"], 1),
                     f["live_high_water_bytes"] / max(f["predicted_arena_bytes"], 1)))


def planner_table(models):
    """(2b) every model (generated EfficientNets and the corpus) x every built-in target x
    every planner strategy: the arena
    over the sum-of-live lower bound (1.000 = optimal) per strategy, worst and median, and
    the rows where `best` is worse than a single strategy (it must be none)."""
    strategies = ["best", "first-fit", "best-fit", "area", "late-first-fit", "late-best-fit",
                  "breadth-first-fit", "breadth-best-fit"]
    tool = os.path.join(build, "bin", "metrale")
    arena = {}  # (model, target, function) -> {strategy: arena}
    peak = {}
    with tempfile.TemporaryDirectory() as work:
        for st in strategies:
            out = os.path.join(work, st + ".csv")
            subprocess.run([tool, "budget"] + models + ["--target", "all", "--planner", st,
                                                        "--csv", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open(out) as f:
                for row in csv.DictReader(f):
                    if row["error"] or not row["peak_live_bytes"] or row["peak_live_bytes"] == "0":
                        continue
                    key = (os.path.basename(row["model"]), row["target"], row["function"])
                    arena.setdefault(key, {})[st] = int(row["arena_bytes"])
                    peak[key] = int(row["peak_live_bytes"])
    print("(2b) planner strategies over %d (model, target, function) rows: arena / lower bound"
          % len(arena))
    print("  %-18s %8s %8s %8s %s" % ("strategy", "worst", "median", "mean", "rows above bound"))
    for st in strategies:
        r = [arena[k][st] / peak[k] for k in arena if st in arena[k]]
        if r:
            print("  %-18s %8.4f %8.4f %8.4f %d" % (st, max(r), statistics.median(r),
                                                 statistics.mean(r), sum(x > 1 for x in r)))
    worse = [k for k in arena if any(arena[k].get(s, 1 << 70) < arena[k].get("best", 0)
                                     for s in strategies[1:])]
    print("  rows where best is worse than a single strategy: %d" % len(worse))
    worst = sorted(arena, key=lambda k: -arena[k].get("best", 0) / peak[k])[:5]
    for k in worst:
        print("  %-60s best %.4f (%d / %d)" % (" ".join(k)[:60], arena[k]["best"] / peak[k],
                                              arena[k]["best"], peak[k]))


# Upstream MLIR's own tensor-level pipeline up to its elementwise fusion (the first stage
# of what `metrale run` executes: tools/run/exec_lower.c).
UPSTREAM_FUSION = ("builtin.module(func.func(tosa-to-linalg-named),func.func(tosa-to-linalg),"
                   "func.func(tosa-to-arith),func.func(tosa-to-tensor),"
                   "func.func(convert-elementwise-to-linalg),canonicalize,"
                   "func.func(linalg-fuse-elementwise-ops))")


def upstream_linalg_ops(model):
    """Per function, the linalg ops at the top level of its body after upstream's
    linalg-fuse-elementwise-ops: the kernels before bufferization adds its copies."""
    mlir_opt = shutil.which("mlir-opt") or "/usr/lib/llvm-22/bin/mlir-opt"
    p = subprocess.run([mlir_opt, model, "--pass-pipeline=" + UPSTREAM_FUSION],
                       capture_output=True, text=True)
    counts, fn = {}, None
    for line in p.stdout.splitlines():
        m = re.match(r"^  func\.func (?:private )?@([\w.$-]+)", line)
        if m:
            fn = m.group(1)
            counts[fn] = 0
        elif fn and re.match(r"^    (?:%[\w:#]+(?:, %[\w:#]+)* = )?linalg\.", line):
            counts[fn] += 1
    return counts


def dispatch_table(models):
    """(3b) per runnable corpus model: metrale's predicted kernel launches on mlir-cpu, the
    linalg ops upstream's own pipeline leaves after linalg-fuse-elementwise-ops (run here),
    and the kernels `metrale run` measures (those plus bufferization's copies)."""
    tool = os.path.join(build, "bin", "metrale")
    print("(3b) kernels: metrale (mlir-cpu) / upstream linalg ops after elementwise fusion / measured")
    for m in models:
        up = upstream_linalg_ops(m)
        p = subprocess.run([tool, "run", m, "--runs", "1", "--opt", "0", "--json", "-"],
                           capture_output=True, text=True)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            continue
        for f in doc["functions"]:
            if "measured" not in f:
                continue
            print("  %-44s %5d %5s %5d" % ((os.path.basename(m)[:30] + " @" + f["name"])[:44],
                                          f["predicted"]["kernel_launches"],
                                          up.get(f["name"], "?"),
                                          f["measured"]["kernel_launches"]))


if ONLY in ("", "scale"):
    with tempfile.TemporaryDirectory() as work:
        mlir_cpu_scaling(work)

if ONLY in ("", "plan"):
    # The corpus, and generated EfficientNets (B0, B3, B5, B7: the hard case,
    # which the corpus lacks; bench/gen_efficientnet.py).
    with tempfile.TemporaryDirectory() as gen_dir:
        generated = []
        for v in ("b0", "b3", "b5", "b7"):
            out = os.path.join(gen_dir, "efficientnet_%s.mlir" % v)
            subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__),
                                                         "gen_efficientnet.py"), v, out],
                           check=True)
            generated.append(out)
        planner_table(generated + (sorted(os.path.join(corpus, m) for m in os.listdir(corpus)
                                          if m.endswith(".mlir"))
                                   if os.path.isdir(corpus) else []))

if ONLY in ("", "run") and os.path.isdir(corpus):
    runnable = ["buddy_buddylenet_lenet.tosa1.mlir", "heir_micro_speech_pipeline.mlir",
                "heir_transforms_tosa_to_arith_mnist_2fc.mlir", "heir_examples_common_lola.mlir",
                "buddy_resnet18_subgraph0.tosa1.mlir", "buddy_buddyvgg_manual_forward.tosa1.mlir"]
    run_table([os.path.join(corpus, m) for m in runnable if os.path.exists(os.path.join(corpus, m))])
    dispatch_table([os.path.join(corpus, m) for m in runnable
                    if os.path.exists(os.path.join(corpus, m))])
