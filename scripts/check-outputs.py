#!/usr/bin/env python3
"""Parses every machine-readable file a test run wrote under DIR (the lit suite's Output
folders, but build trees inside them): JSON and SARIF with json, SVG as XML, CSV with csv (every row as wide as the
header). One line per file that does not parse, then the count; exit 1 when any does not
(issue 38: `metrale dispatch --json` wrote invalid JSON for an op name with a quote, and
no test read it back). scripts/check.sh runs it after lit.
  check-outputs.py DIR"""
import csv
import json
import os
import sys
import xml.etree.ElementTree as ET


def check(path, ext):
    if ext in ("json", "sarif"):
        with open(path, encoding="utf-8") as f:
            json.load(f)
    elif ext == "svg":
        ET.parse(path)
    elif ext == "csv":
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        widths = {len(r) for r in rows}
        if len(widths) > 1:
            raise ValueError("rows of %s fields" % sorted(widths))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    counts, broken = {}, []
    for d, dirs, files in os.walk(sys.argv[1]):
        # A build tree inside this one (test/Gate's stand-in builds, which hold broken
        # files on purpose) is that build's, not this suite's output.
        dirs[:] = sorted(x for x in dirs
                         if not os.path.exists(os.path.join(d, x, "llvm-tools-dir.txt")))
        for name in sorted(files):
            ext = name.rsplit(".", 1)[-1] if "." in name else ""
            if ext not in ("json", "sarif", "svg", "csv"):
                continue
            path = os.path.join(d, name)
            counts[ext] = counts.get(ext, 0) + 1
            try:
                check(path, ext)
            except Exception as e:  # any reason a reader gives
                broken.append("%s: %s" % (path, str(e).splitlines()[0][:200] if str(e) else type(e).__name__))
    for b in broken:
        print("BROKEN: " + b)
    total = sum(counts.values())
    kinds = ", ".join("%d %s" % (counts[k], k) for k in sorted(counts))
    print("outputs: %d parsed (%s), %d broken" % (total - len(broken), kinds or "none", len(broken)))
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
