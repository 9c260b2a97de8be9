"""Runs a command; prints its standard error, then "exit status N" (what lit's `not`
cannot tell apart: metrale's 1, the model could not be read or evaluated, from 2, bad
usage). Exits 0, so FileCheck decides."""
import subprocess
import sys

p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
sys.stdout.write(p.stderr)
print("exit status %d" % p.returncode)
