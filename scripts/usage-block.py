#!/usr/bin/env python3
"""The README's usage block of the `metrale` command, written from the command's own
`metrale --help` (its usage lines: from 'usage:' to the first empty line).

  usage-block.py ROOT METRALE          print the block
  usage-block.py ROOT METRALE --check  exit 1, showing both, when README.md's block
                                       (between '<!-- usage:begin -->' and
                                       '<!-- usage:end -->') differs
  usage-block.py ROOT METRALE --write  rewrite that block in README.md
"""
import subprocess
import sys

import readme_section

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


def differs(section):
    print("README.md's usage block:\n" + section + "\n`metrale --help`:\n" + block)
    print("run: python3 scripts/usage-block.py . build/bin/metrale --write")


readme_section.sync(root, "usage", block, mode, differs)
