#!/usr/bin/env python3
"""check_trace.py TRACE.json REPORT.json: checks a `metrale dispatch --trace` file against
the trace event format (the JSON object form Perfetto and chrome://tracing read: a
"traceEvents" list; metadata events "ph": "M" naming the process and each thread; complete
events "ph": "X" with numeric "ts" and "dur" in microseconds) and against the dispatch
report of the same run (--json): per function a track whose dispatch events follow one
another without gap or overlap, one per row of the report with its bytes, FLOPs, launches,
latency and bound, and whose end is the function's latency_ns. Prints a line per track."""
import json
import sys

trace = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
events = trace["traceEvents"]
names = {}
for e in events:
    for key in ("name", "ph", "pid", "tid"):
        assert key in e, "event without %s: %r" % (key, e)
    assert e["ph"] in ("M", "X"), e
    if e["ph"] == "M":
        assert e["name"] in ("process_name", "thread_name") and "name" in e["args"], e
        if e["name"] == "thread_name":
            names[e["tid"]] = e["args"]["name"]
    else:
        assert isinstance(e["ts"], (int, float)) and isinstance(e["dur"], (int, float)), e
        assert e["ts"] >= 0 and e["dur"] >= 0, e
for tid, name in sorted(names.items()):
    fn = [f for f in report["functions"] if "@" + f["name"] == name][0]
    track = [e for e in events if e["ph"] == "X" and e["tid"] == tid]
    at = 0
    for e in track:
        assert round(e["ts"] * 1000) == at, ("gap or overlap", e)
        at += round(e["dur"] * 1000)
    dispatches = [e for e in track if e.get("cat") == "dispatch"]
    assert len(dispatches) == len(fn["dispatches"]), name
    for e, row in zip(dispatches, fn["dispatches"]):
        for key in ("bytes", "flops", "launches", "latency_ns", "bound"):
            assert e["args"][key] == row[key], (name, key, e["args"][key], row[key])
        assert e["name"] == row["ops"] and e["args"]["loc"] == row["loc"], (e, row)
        assert round(e["dur"] * 1000) == row["latency_ns"], e
    assert at == fn["dispatch_stats"]["latency_ns"], (name, at)
    rest = [e["name"] for e in track if e.get("cat") != "dispatch"]
    print("%s: %d dispatches, then %s; ends at %d ns = latency_ns" %
          (name, len(dispatches), ", ".join(rest) if rest else "nothing", at))
