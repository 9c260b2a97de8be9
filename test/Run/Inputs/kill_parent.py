"""Kills `metrale run` while its invocation spins (probe_spin.mlir) and says whether the
child that ran the invocation is gone too (PR_SET_PDEATHSIG): run by probes.test."""
import os
import signal
import subprocess
import sys
import time

p = subprocess.Popen(["metrale", "run", sys.argv[1], "--runs", "1"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def children(pid):
    # Of every thread: the command runs on a thread of its own (tools/metrale.c), and a
    # task's children file lists only what that thread started.
    kids = []
    try:
        for t in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, t)) as f:
                kids += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return kids


kids = []
for _ in range(600):  # the child starts once the model is lowered and compiled
    kids = children(p.pid)
    if kids:
        break
    time.sleep(0.05)
if not kids:
    print("no child started")
    sys.exit(1)
time.sleep(0.3)
p.send_signal(signal.SIGKILL)
p.wait()
gone = False
for _ in range(100):
    try:
        os.kill(kids[0], 0)
        with open("/proc/%d/stat" % kids[0]) as f:
            if f.read().split()[2] == "Z":
                gone = True
                break
    except OSError:
        gone = True
        break
    time.sleep(0.05)
print("child gone" if gone else "child still running")
if not gone:
    os.kill(kids[0], signal.SIGKILL)
