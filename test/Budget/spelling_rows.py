# Reads `metrale budget --csv` of Inputs/spellings.mlir; functions are named KIND_SPELLING.
# Prints one line per kind when every spelling has the same arena, off-fast-path ops,
# dispatches and DRAM bytes, and names the ones that differ otherwise (test/Budget/spelling.test).
import csv
import sys

rows = {}
for r in csv.DictReader(sys.stdin):
    kind = r["function"].split("_")[0]
    key = "arena=%s off=%s dispatches=%s dram=%s" % (
        r["arena_bytes"], r["off_fast_path_ops"], r["dispatches"], r["dram_bytes"])
    rows.setdefault(kind, []).append((r["function"], key))
for kind, fs in rows.items():
    keys = {k for _, k in fs}
    if len(keys) == 1:
        print("%s x%d: %s" % (kind, len(fs), fs[0][1]))
    else:
        print("%s DIFFERS: %s" % (kind, "; ".join("%s %s" % f for f in fs)))
