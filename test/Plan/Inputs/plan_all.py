#!/usr/bin/env python3
"""plan_all.py BENCH OUT: `metrale plan --buffers BENCH/X.1048576.csv --capacity 1MiB
--out OUT/X.csv --plan-seconds 0` for the eleven instances A-K, each plan then checked by check_plan.py.
Prints each command's summary and the check's line; exits 1 on the first failure."""
import os
import subprocess
import sys

bench, out = sys.argv[1:3]
here = os.path.dirname(os.path.abspath(__file__))
for x in "ABCDEFGHIJK":
    prob = os.path.join(bench, x + ".1048576.csv")
    plan = os.path.join(out, x + ".csv")
    # No wall-clock cap: the node budget alone decides, the same on a slow (sanitized) build.
    p = subprocess.run(["metrale", "plan", "--buffers", prob, "--capacity", "1MiB", "--out", plan,
                        "--plan-seconds", "0"],
                       capture_output=True, text=True)
    sys.stdout.write(p.stdout.replace(bench + "/", ""))
    if p.returncode:
        sys.exit("%s: exit status %d: %s" % (x, p.returncode, p.stderr))
    c = subprocess.run([sys.executable, os.path.join(here, "check_plan.py"), prob, plan, "1048576"],
                       capture_output=True, text=True)
    sys.stdout.write(c.stdout)
    if c.returncode:
        sys.exit("%s: %s" % (x, c.stderr))
