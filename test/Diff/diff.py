#!/usr/bin/env python3
"""diff.py: the differential test of the mlir-cpu prediction against real runs.

Each generated model (gen.py, one per seed) is predicted on mlir-cpu and run on this CPU
by `metrale run`; its fields must agree:
  kernel_launches, device_allocation_events   equal
  device_allocation_bytes                      within 1 %
  device_allocation_peak_bytes (measured: the live high water)   within 5 %
except where metrale/budget.h says which way a field may differ (a branch on a
run-time value: the prediction is the larger branch, an upper bound).
A model that disagrees is minimized (delta debugging over its ops: a dropped op's value
becomes an argument) with --minimize and written to --keep DIR as a regression input.

  python3 diff.py --metrale BIN --seeds 0-199 [--jobs 2] [--minimize] [--keep DIR]
                  [--table] [--files F.mlir ...]
Prints one line per model that disagrees or does not run, then the tally
"diff: N models, A agree, D disagree, R not run"; --table adds the agreement per motif
and per dialect (bench/RESULTS.md). Exit status 1 when any model disagrees or fails.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

FIELDS = ("kernel_launches", "device_allocation_events", "device_allocation_bytes", "device_allocation_peak_bytes")


def run(metrale, path, timeout):
    p = subprocess.run([metrale, "run", path, "--runs", "1", "--opt", "0", "--json", "-",
                        "--timeout", str(timeout)], capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return None, (p.stderr.strip().splitlines() or ["no output, exit %d" % p.returncode])[-1]
    fns = doc.get("functions", [])
    if not fns:
        return None, (p.stderr.strip().splitlines() or ["no function"])[-1]
    for f in fns:
        if "measured" not in f:
            return None, "@%s: %s" % (f.get("name", "?"), f.get("error", "not run"))
    return fns, None


def compare(fns, bounded):
    """The fields that disagree, as {field: (predicted, measured)}, over every function
    that ran (a field of a function other than the first is named @function.field).
    |bounded|: the model branches on a run-time value, so the prediction may exceed the
    run (never fall short)."""
    bad = {}
    for i, f in enumerate(fns):
        for k, v in compare_one(f, bounded).items():
            bad[k if i == 0 else "@%s.%s" % (f.get("name", "?"), k)] = v
    return bad


def compare_one(f, bounded):
    p, m = f["predicted"], f["measured"]
    bad = {}
    for k in ("kernel_launches", "device_allocation_events"):
        if p[k] != m[k] and not (bounded and p[k] > m[k]):
            bad[k] = (p[k], m[k])
    pb, mb = p["device_allocation_bytes"], m["device_allocation_bytes"]
    if abs(pb - mb) > 0.01 * max(pb, mb) and not (bounded and pb > mb):
        bad["device_allocation_bytes"] = (pb, mb)
    pp, mh = p["device_allocation_peak_bytes"], m["device_allocation_peak_bytes"]
    if abs(pp - mh) > 0.05 * max(pp, mh) and not (bounded and pp > mh):
        bad["device_allocation_peak_bytes"] = (pp, mh)
    return bad


def check_one(metrale, g, text, timeout, tmpdir, tag):
    path = os.path.join(tmpdir, "%s.mlir" % tag)
    with open(path, "w") as fh:
        fh.write(text)
    f, err = run(metrale, path, timeout)
    if err:
        return {"status": "error", "error": err}
    bounded = "scf_if" in (g.motifs if g else [])
    bad = compare(f, bounded)
    return {"status": "disagree" if bad else "agree", "bad": bad}


def minimize(metrale, g, signature, timeout, tmpdir):
    """ddmin over the model's units: the smallest set (1-minimal) that still disagrees in
    the fields of |signature|."""
    units = list(range(len(g.units)))
    cache = {}

    def fails(keep):
        key = tuple(keep)
        if key in cache:
            return cache[key]
        try:
            text = g.text(set(keep))
        except Exception:
            cache[key] = False
            return False
        r = check_one(metrale, g, text, timeout, tmpdir, "min")
        ok = r["status"] == "disagree" and set(signature) <= set(r["bad"])
        cache[key] = ok
        return ok

    n = 2
    while len(units) >= 2:
        chunk = max(1, len(units) // n)
        subsets = [units[i:i + chunk] for i in range(0, len(units), chunk)]
        reduced = False
        for s in subsets:
            rest = [u for u in units if u not in s]
            if rest and fails(rest):
                units, n, reduced = rest, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(units):
                break
            n = min(len(units), 2 * n)
    return g.text(set(units)), len(units)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--metrale", required=True)
    ap.add_argument("--seeds", default="0-199")
    ap.add_argument("--files", nargs="*", default=[])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--minimize", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    lo, _, hi = a.seeds.partition("-")
    seeds = [] if a.files else list(range(int(lo), int(hi or lo) + 1))
    tmp = tempfile.mkdtemp(prefix="metrale-diff-")

    def one(seed):
        g = gen.generate(seed)
        d = os.path.join(tmp, str(seed))
        os.makedirs(d, exist_ok=True)
        r = check_one(a.metrale, g, g.text(), a.timeout, d, "model")
        r["seed"], r["meta"] = seed, g.meta()
        if r["status"] == "disagree" and a.minimize:
            text, n = minimize(a.metrale, g, list(r["bad"]), a.timeout, d)
            r["minimized"] = (text, n)
        return r

    def one_file(path):
        f, err = run(a.metrale, path, a.timeout)
        if err:
            return {"status": "error", "error": err, "file": path, "meta": {}}
        text = open(path).read()
        bounded = "scf.if" in text
        bad = compare(f, bounded)
        return {"status": "disagree" if bad else "agree", "bad": bad, "file": path, "meta": {}}

    try:
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            results = list(ex.map(one_file, a.files)) if a.files else list(ex.map(one, seeds))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    counts = {"agree": 0, "disagree": 0, "error": 0}
    for r in results:
        counts[r["status"]] += 1
        what = r.get("file") or "seed %d" % r["seed"]
        if r["status"] == "disagree":
            fields = ", ".join("%s %d/%d" % (k, p, m) for k, (p, m) in sorted(r["bad"].items()))
            extra = ""
            if "minimized" in r:
                extra = " (minimized to %d ops)" % r["minimized"][1]
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    out = os.path.join(a.keep, "seed%d.mlir" % r["seed"])
                    with open(out, "w") as fh:
                        fh.write("// gen.py seed %d, minimized: predicted/measured %s\n" % (r["seed"], fields))
                        fh.write(r["minimized"][0])
                    extra += " -> " + out
            print("%s: disagrees: %s [%s]%s" % (what, fields, ", ".join(r["meta"].get("motifs", [])), extra))
        elif r["status"] == "error":
            print("%s: not run: %s" % (what, r["error"][:300]))
    print("diff: %d models, %d agree, %d disagree, %d not run" % (
        len(results), counts["agree"], counts["disagree"], counts["error"]))
    if a.table and not a.files:
        for key in ("motifs", "dialects", "dtypes", "family", "size"):
            rows = {}
            for r in results:
                v = r["meta"].get(key, [])
                for k in (v if isinstance(v, list) else [v]):
                    t = rows.setdefault(k, [0, 0])
                    t[0] += 1
                    t[1] += r["status"] == "agree"
            print("| %s | models | agree |" % (key[:-1] if key.endswith("s") else key))
            print("| --- | --- | --- |")
            for k in sorted(rows):
                print("| %s | %d | %d (%.0f %%) |" % (k, rows[k][0], rows[k][1], 100.0 * rows[k][1] / rows[k][0]))
    return 1 if counts["disagree"] or counts["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
