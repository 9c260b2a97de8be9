#!/usr/bin/env python3
"""A stand-in for `metrale run` whose prediction is wrong on purpose (differential.test):
it runs the real command (metrale on PATH, or $METRALE_REAL) and, for a model that holds
a math.exp, adds one kernel launch to what the prediction says. diff.py must find it,
and --minimize must shrink the model to the one op that holds the exp."""
import json
import os
import subprocess
import sys

real = os.environ.get("METRALE_REAL", "metrale")
p = subprocess.run([real] + sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(p.stderr)
model = next((a for a in sys.argv[2:] if a.endswith(".mlir")), None)
try:
    doc = json.loads(p.stdout)
except ValueError:
    sys.stdout.write(p.stdout)
    sys.exit(p.returncode)
if model and "math.exp" in open(model).read():
    for f in doc.get("functions", []):
        if "predicted" in f:
            f["predicted"]["kernel_launches"] += 1
json.dump(doc, sys.stdout)
sys.exit(p.returncode)
