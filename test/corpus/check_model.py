#!/usr/bin/env python3
"""Runs one corpus model through metrale-opt --metrale-budget on four built-in targets
(and on any other an --expect names),
threaded and with --mlir-disable-threading, and checks:
  - the IR, the diagnostics and the JSON are byte-identical in both modes;
  - the dispatch report's rows add up to the Budget's dispatches and dram_bytes, and
    param_bytes is at most dram_bytes;
  - every function's plan: no two buffers with overlapping lifetimes overlap in memory
    (an O(N x live) sweep), the arena is max(offset + bytes), materialized is the sum of
    slots, reuse = materialized - arena, arena >= peak_live, peak_live is what the
    buffers' lifetimes give, the arena is no worse than a greedy-by-size plan of the same
    buffers, width overhead only on the f32-uniform target;
  - the facts given with --expect FUNC.FIELD=VALUE (all targets) or
    TARGET:FUNC.FIELD=VALUE, and --arg FUNC.INDEX=ROLE:BYTES.
Prints one line per target and exits non-zero on the first failure."""
import argparse
import json
import os
import subprocess
import sys

TARGETS = ["host-cpu", "h100", "mobile-gpu-f32", "npu"]


def run(opt, model, options, threads, json_path, pass_name="budget"):
    cmd = [opt, model, "--metrale-%s=%s json=%s" % (pass_name, options, json_path), "-o", "-"]
    if not threads:
        cmd.append("--mlir-disable-threading")
    p = subprocess.run(cmd, capture_output=True, text=True)
    with open(json_path) as f:
        js = f.read()
    return p.returncode, p.stdout, p.stderr, js


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_plan(where, fn):
    b = fn["budget"]
    bufs = fn["buffers"]
    if sum(x["bytes"] for x in bufs) != b["materialized_bytes"]:
        fail(where + ": materialized_bytes is not the sum of the buffers")
    top = max((x["offset"] + x["bytes"] for x in bufs), default=0)
    if top != b["arena_bytes"]:
        fail(where + ": arena_bytes %d != max(offset + bytes) %d" % (b["arena_bytes"], top))
    if b["reuse_saved_bytes"] != b["materialized_bytes"] - b["arena_bytes"]:
        fail(where + ": reuse_saved_bytes != materialized - arena")
    if b["arena_bytes"] < b["peak_live_bytes"]:
        fail(where + ": arena below the lower bound")
    active = []
    for x in sorted(bufs, key=lambda x: x["first"]):
        active = [a for a in active if a["last"] >= x["first"]]
        for a in active:
            if a["offset"] < x["offset"] + x["bytes"] and x["offset"] < a["offset"] + a["bytes"]:
                fail(where + ": buffers %s and %s overlap in time and memory" % (a["value"], x["value"]))
        active.append(x)
    # The lower bound, recomputed from the buffers' lifetimes (not read from the report):
    # the largest sum of sizes live at one position.
    events = {}
    for x in bufs:
        events[x["first"]] = events.get(x["first"], 0) + x["bytes"]
        events[x["last"] + 1] = events.get(x["last"] + 1, 0) - x["bytes"]
    live = peak = 0
    for t in sorted(events):
        live += events[t]
        peak = max(peak, live)
    if peak != b["peak_live_bytes"]:
        fail(where + ": peak_live_bytes %d, the buffers' lifetimes give %d" % (b["peak_live_bytes"], peak))
    # A second, independent planner: greedy by size (TFLite Micro's GreedyMemoryPlanner:
    # largest first, each at the lowest offset clear of the placed buffers it overlaps in
    # time, offsets at the alignment the report's offsets use). The plan must not lose to it.
    align = 0
    for x in bufs:
        if x["offset"]:
            low = x["offset"] & -x["offset"]
            align = low if not align else min(align, low)
    align = align or 1
    placed, top = [], 0
    for x in sorted(bufs, key=lambda x: (-x["bytes"], x["first"])):
        clash = sorted((p["offset"], p["offset"] + p["bytes"]) for p in placed
                       if p["first"] <= x["last"] and x["first"] <= p["last"])
        off = 0
        for lo, hi in clash:
            if off + x["bytes"] <= lo:
                break
            off = max(off, -(-hi // align) * align)
        placed.append(dict(x, offset=off))
        top = max(top, off + x["bytes"])
    if b["arena_bytes"] > top:
        fail(where + ": arena_bytes %d is above a greedy-by-size plan of the same buffers (%d)" % (b["arena_bytes"], top))


def check_memory(where, rep):
    """The memory report's arithmetic: device is the sum of its terms (the weights less what
    load-time copies replace), headroom is budget - device, and every column of the
    per-node table sums to its total."""
    t = rep["totals"]
    device = (t["weights_stored"] - t["weights_replaced"] + t["weights_derived"] +
              t["activations"] + t["workspace"] +
              t["states"] + t["kv"] + t["caches_device"] + t["driver"])
    if device != t["device"]:
        fail("%s: device %d is not the sum of its terms %d" % (where, t["device"], device))
    if t["headroom"] != t["budget_bytes"] - t["device"] or t["fits"] != (t["headroom"] >= 0):
        fail("%s: headroom or fits disagree with budget - device" % where)
    cols = {"stored": t["weights_stored"] - t["weights_replaced"], "derived": t["weights_derived"],
            "activations": t["activations"], "workspace": t["workspace"],
            "state": t["states"] + t["kv"] + t["caches_device"]}
    for col, total in cols.items():
        got = sum(n[col] for n in rep["nodes"])
        if got != total:
            fail("%s: the nodes' %s column sums to %d, the total is %d" % (where, col, got, total))
    if t["activations_planned"] != max((r["arena"] for r in rep["runs"]), default=0):
        fail("%s: activations_planned is not the largest run arena" % where)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--options", default="")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--arg", action="append", default=[])
    ap.add_argument("--pass", dest="pass_name", default="budget", choices=["budget", "memory"])
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    # The usual targets, and every other one an --expect names: an expect is always run.
    named = set(e.rpartition(":")[0] for e in a.expect) - {""}
    targets = TARGETS + sorted(named - set(TARGETS))
    for target in targets:
        if a.pass_name == "memory":
            options = ("target=%s over-budget-warning=true %s" % (target, a.options)).strip()
        else:
            options = ("target=%s op-remarks=true %s" % (target, a.options)).strip()
        multi = run(a.opt, a.model, options, True, os.path.join(a.work, target + ".mt.json"), a.pass_name)
        single = run(a.opt, a.model, options, False, os.path.join(a.work, target + ".st.json"), a.pass_name)
        if multi[0] != 0:
            fail("%s: metrale-opt failed:\n%s" % (target, multi[2][-2000:]))
        for what, m, s in zip(("exit status", "IR", "diagnostics", "JSON"), multi, single):
            if m != s:
                fail("%s: %s differs between threaded and --mlir-disable-threading" % (target, what))
        report = json.loads(multi[3])
        if a.pass_name == "memory":
            check_memory(target, report)
            t = report["totals"]
            for e in a.expect:
                tgt, _, rest = e.rpartition(":")
                if tgt and tgt != target:
                    continue
                key, _, value = rest.partition("=")
                got = t[key]
                # ">N": more than N; ">name": more than this report's total of that name.
                bound = value[1:]
                if value.startswith(">") and bound in t:
                    bound = t[bound]
                if str(got).lower() != value and not (value.startswith(">") and int(got) > int(bound)):
                    fail("%s: %s = %s, expected %s" % (target, key, got, value))
            print("%s: identical threaded and single-threaded; sums verified; device %d of %d"
                  % (target, t["device"], t["budget_bytes"]))
            continue
        if report["target"]["name"] != target:
            fail("%s: the report names target %s" % (target, report["target"]["name"]))
        fns = {f["name"]: f for f in report["functions"]}
        for name, fn in fns.items():
            if "budget" not in fn:
                fail("%s: @%s was not evaluated: %s" % (target, name, fn.get("error")))
            check_plan("%s @%s" % (target, name), fn)
            if fn["budget"]["width_overhead_bytes"] and target != "mobile-gpu-f32":
                fail("%s @%s: width overhead on a target that keeps native widths" % (target, name))
        for e in a.expect:
            tgt, _, rest = e.rpartition(":")
            if tgt and tgt != target:
                continue
            key, _, value = rest.partition("=")
            func, _, field = key.partition(".")
            fn = fns[func]
            got = fn["complete"] if field == "complete" else fn["budget"][field]
            want = {"true": True, "false": False}.get(value, value)
            if str(got) != str(want) and not (value.startswith(">") and int(got) > int(value[1:])):
                fail("%s @%s: %s = %s, expected %s" % (target, func, field, got, value))
        for e in a.arg:
            key, _, value = e.partition("=")
            func, _, index = key.partition(".")
            role, _, nbytes = value.partition(":")
            arg = [x for x in fns[func]["arguments"] if x["index"] == int(index)][0]
            if arg["role"] != role or arg["bytes"] != int(nbytes):
                fail("%s @%s argument %s: %s %d B, expected %s %s B" % (
                    target, func, index, arg["role"], arg["bytes"], role, nbytes))
        # The dispatch report of the same graph, rows per dispatch: their launches and
        # bytes add up to the Budget's dispatches and dram_bytes (one fusion, two reports).
        djson = os.path.join(a.work, target + ".dispatch.json")
        p = subprocess.run([a.opt, a.model, "--metrale-dispatch=target=%s %s json=%s" % (target, a.options, djson),
                            "-o", "/dev/null"], capture_output=True, text=True)
        if p.returncode != 0:
            fail("%s: --metrale-dispatch failed:\n%s" % (target, p.stderr[-2000:]))
        for n, f in fns.items():
            # Every byte of weights a run reads is read by some dispatch (budget_fields.def).
            fb = f["budget"]
            if fb["param_bytes"] > fb["dram_bytes"]:
                fail("%s @%s: param_bytes %d > dram_bytes %d: weights counted that no dispatch reads"
                     % (target, n, fb["param_bytes"], fb["dram_bytes"]))
        for df in json.load(open(djson))["functions"]:
            fb = fns[df["name"]]["budget"]
            rows = df.get("dispatches", [])
            launches, moved = sum(r["launches"] for r in rows), sum(r["bytes"] for r in rows)
            if launches != fb["dispatches"] or moved != fb["dram_bytes"]:
                fail("%s @%s: the dispatch rows give %d launches and %d bytes, the Budget %d dispatches and %d dram_bytes"
                     % (target, df["name"], launches, moved, fb["dispatches"], fb["dram_bytes"]))
        summary = ", ".join("@%s arena %d dispatches %d" % (n, f["budget"]["arena_bytes"], f["budget"]["dispatches"])
                            for n, f in fns.items())
        print("%s: identical threaded and single-threaded; plans verified; %s" % (target, summary))
    print("OK")


if __name__ == "__main__":
    main()
