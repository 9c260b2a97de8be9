#!/usr/bin/env python3
"""check_run_trace.py TRACE.json RUN.json: checks a `metrale run --trace` file against the
trace event format (a "traceEvents" list of "M" metadata and "X" complete events with
numeric "ts" and "dur" in microseconds) and against the run's JSON report: per function a
predicted track (process 1) of dispatch events that follow one another and end at the
prediction's latency_ns, with as many launches as its kernel_launches, and a measured
track (process 2) with one event per kernel that ran, in the report's order, named and
located as it is, each lasting its time over every invocation divided by the runs.
The report's "dispatches" are checked too: each predicted dispatch with its measured_ns,
the time of its kernel (matched by op and location, in the order they ran) per run.
Prints a line per function (no times: they vary from run to run)."""
import json
import sys

trace = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
events = trace["traceEvents"]
threads = {}
for e in events:
    for key in ("name", "ph", "pid", "tid"):
        assert key in e, (key, e)
    if e["ph"] == "M":
        if e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    else:
        assert e["ph"] == "X" and e["ts"] >= 0 and e["dur"] >= 0, e
for fn in run["functions"]:
    if "error" in fn:
        continue
    tid = [t for (p, t), n in threads.items() if p == 1 and n == "@" + fn["name"]][0]
    assert threads[(2, tid)] == "@" + fn["name"]
    pred = [e for e in events if e["ph"] == "X" and e["pid"] == 1 and e["tid"] == tid]
    meas = [e for e in events if e["ph"] == "X" and e["pid"] == 2 and e["tid"] == tid]
    at = 0
    for e in pred:
        assert round(e["ts"] * 1000) == at, e
        at += round(e["dur"] * 1000)
    assert at == fn["predicted"]["latency_ns"], (at, fn["predicted"]["latency_ns"])
    launches = sum(e["args"]["launches"] for e in pred if e["cat"] == "dispatch")
    assert launches == fn["predicted"]["kernel_launches"], launches
    assert len(meas) == len(fn["kernels"]), (len(meas), len(fn["kernels"]))
    at = 0
    for e, k in zip(meas, fn["kernels"]):
        assert e["name"] == k["name"] and e["args"]["loc"] == k["loc"], (e, k)
        assert round(e["dur"] * 1000) == k["ns"] // fn["runs"], (e, k)
        assert round(e["ts"] * 1000) == at, e
        at += k["ns"] // fn["runs"]
    # The report's dispatches: each predicted one with its kernel's measured time (the
    # kernels in the order they ran, matched by op and location; null where none did).
    rows = fn["dispatches"]
    disp = [e for e in pred if e["cat"] == "dispatch"]
    assert len(rows) == len(disp), (len(rows), len(disp))
    cursor, measured = 0, 0
    for row, e in zip(rows, disp):
        assert row["predicted_ns"] == e["args"]["latency_ns"] and row["loc"] == e["args"]["loc"], row
        if row["measured_ns"] is None:
            continue
        first = row["ops"].split("+")[0]
        while not (fn["kernels"][cursor]["name"] == first and fn["kernels"][cursor]["loc"] == row["loc"]):
            cursor += 1
        assert row["measured_ns"] == fn["kernels"][cursor]["ns"] // fn["runs"], (row, cursor)
        cursor += 1
        measured += 1
    print("@%s: predicted %d dispatches ending at latency_ns; measured %d kernels, each its "
          "time over %d runs; %d dispatches with their kernel's time" %
          (fn["name"], len(disp), len(meas), fn["runs"], measured))
