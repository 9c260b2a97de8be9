#!/usr/bin/env python3
"""The README's table of pass options, written from include/metrale/options.def (the one
list of options: the passes, the CLI and this table come from it).

  options-table.py ROOT          print the table
  options-table.py ROOT --check  exit 1 when README.md's table (between the
                                 '<!-- options:begin -->' and '<!-- options:end -->'
                                 lines) differs from the list, naming the difference
  options-table.py ROOT --write  rewrite that table in README.md
"""
import os
import re
import sys

import readme_section

root = sys.argv[1]
mode = sys.argv[2] if len(sys.argv) > 2 else ""
text = open(os.path.join(root, "include", "metrale", "options.def")).read()
text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))
PASS = {"ALL": "all", "BUDGET": "budget", "MEMORY": "memory", "DISPATCH": "dispatch",
        "BUDGET_DISPATCH": "budget, dispatch", "MEMORY_DISPATCH": "memory, dispatch"}
rows = []
for m in re.finditer(r'MET_OPTION\(\s*(\w+)\s*,\s*"([^"]+)"\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*"([^"]*)"\s*,'
                     r'\s*(\w+)\s*,\s*(\w+)\s*,((?:\s*"(?:[^"\\]|\\.)*")+)\s*\)', text):
    pas, name, _member, kind, cli, lo, hi, help_ = m.groups()
    help_ = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', help_)).replace("|", "\\|")
    num = kind in ("NUM", "LIMIT_MAX", "LIMIT_MIN")
    value = "BOOL" if kind.startswith("FLAG") else "N" if num else "VALUE"
    if num:
        big = {"INT64_MAX": "2^63-1", "UINT64_MAX": "2^64-1"}
        help_ += " (%s to %s)" % (big.get(lo, lo), big.get(hi, hi))
    rows.append("| `%s=%s` | %s | %s | %s |" % (name, value, PASS[pas],
                                                "`%s`" % cli if cli else "-", help_))
if len(rows) != text.count("MET_OPTION("):
    sys.exit("options-table.py: could not read every MET_OPTION line of options.def")
table = "\n".join(["| option | pass | `metrale` flag | meaning |", "| --- | --- | --- | --- |"] + rows) + "\n"


def differs(section):
    have, want = section.splitlines(), table.splitlines()
    for line in want:
        if line not in have:
            print("README.md lacks: " + line)
    for line in have:
        if line not in want:
            print("README.md has, options.def does not: " + line)
    print("run: python3 scripts/options-table.py . --write")


readme_section.sync(root, "options", table, mode, differs)
