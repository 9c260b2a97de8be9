"""Runs a command; prints its standard output and error, then "exit status N" (what lit's
`not` cannot tell apart: `metrale plan --buffers` exits 1 when nothing fits, 3 when its
limits ran out). Exits 0, so FileCheck decides."""
import subprocess
import sys

p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(p.stdout)
sys.stdout.write(p.stderr)
print("exit status %d" % p.returncode)
