"""on_tty.py CMD...: runs CMD with its stderr on a pseudo-terminal (stdout as given) and
prints what it wrote there, with carriage returns and escapes shown as \\r and \\e, so a
test can see what a person at a terminal sees (the sweep's progress line)."""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
proc = subprocess.Popen(sys.argv[1:], stderr=slave, stdout=subprocess.DEVNULL)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    out += chunk
proc.wait()
text = out.decode("utf-8", "replace").replace("\r", "\\r").replace("\x1b", "\\e")
print(text)
print("exit", proc.returncode)
