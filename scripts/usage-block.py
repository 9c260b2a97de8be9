#!/usr/bin/env python3
"""The README's usage block of the `metrale` command, written from the command's own
`metrale --help` (its usage lines: from 'usage:' to the first empty line).

  usage-block.py ROOT METRALE          print the block
  usage-block.py ROOT METRALE --check  exit 1, showing both, when README.md's block
                                       (between '<!-- usage:begin -->' and
                                       '<!-- usage:end -->') differs
  usage-block.py ROOT METRALE --write  rewrite that block in README.md
"""
import os
import re
import subprocess
import sys

root, metrale = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else ""
out = subprocess.run([metrale, "--help"], capture_output=True, text=True, check=True).stdout
lines = []
for line in out.splitlines():
    if not line.strip():
        break
    lines.append(line.rstrip())
if not lines or not lines[0].startswith("usage: metrale "):
    sys.exit("usage-block.py: `metrale --help` does not start with its usage lines")
block = "```text\n" + "\n".join(lines) + "\n```\n"
if not mode:
    print(block, end="")
    sys.exit(0)
path = os.path.join(root, "README.md")
readme = open(path).read()
m = re.search(r"(<!-- usage:begin -->\n)(.*?)(<!-- usage:end -->)", readme, re.S)
if not m:
    sys.exit("README.md has no '<!-- usage:begin -->' ... '<!-- usage:end -->' section")
if mode == "--write":
    open(path, "w").write(readme[:m.start(2)] + block + readme[m.end(2):])
elif m.group(2) != block:
    print("README.md's usage block:\n" + m.group(2) + "\n`metrale --help`:\n" + block)
    print("run: python3 scripts/usage-block.py . build/bin/metrale --write")
    sys.exit(1)
