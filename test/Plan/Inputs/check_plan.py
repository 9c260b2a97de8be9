#!/usr/bin/env python3
"""check_plan.py PROBLEM.csv PLAN.csv [CAPACITY]: checks a plan of `metrale plan --buffers`
on its own, as a user comparing allocators would: the plan has every row of the problem
(id, lower, upper, size as given) plus an offset; no two buffers whose lifetimes
[lower, upper) overlap share a byte; with CAPACITY, every buffer ends within it. Prints
"ok: N buffers, arena A" or the first fault, and exits 1 on a fault."""
import csv
import sys


def main():
    prob = list(csv.DictReader(open(sys.argv[1])))
    plan = list(csv.DictReader(open(sys.argv[2])))
    cap = int(sys.argv[3]) if len(sys.argv) > 3 else None
    if len(prob) != len(plan):
        sys.exit("fault: %d rows planned of %d" % (len(plan), len(prob)))
    rows = []
    for a, b in zip(prob, plan):
        for k in ("id", "lower", "upper", "size"):
            if a[k] != b[k]:
                sys.exit("fault: row %s: %s %s became %s" % (a["id"], k, a[k], b[k]))
        rows.append((int(b["lower"]), int(b["upper"]), int(b["size"]), int(b["offset"]), b["id"]))
    arena = max((o + s for _, _, s, o, _ in rows), default=0)
    if cap is not None and arena > cap:
        sys.exit("fault: arena %d passes the capacity %d" % (arena, cap))
    # Sweep by start time: each buffer against those still live when it starts.
    rows.sort()
    live = []
    for lo, hi, s, o, i in rows:
        live = [r for r in live if r[1] > lo]
        for lo2, hi2, s2, o2, i2 in live:
            if s and s2 and o < o2 + s2 and o2 < o + s:
                sys.exit("fault: %s and %s live together and share memory" % (i, i2))
        live.append((lo, hi, s, o, i))
    print("ok: %d buffers, arena %d" % (len(rows), arena))


if __name__ == "__main__":
    main()
