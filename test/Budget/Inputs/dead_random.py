"""Random straight-line and one-region functions for the dead-op propagation
(met_scan_body), and their dead ops worked out by brute force: an op is live when a
return or a live op uses one of its results, with the uses inside an scf.if's branches
counted as uses by the scf.if (which is live while its result is); everything else is
dead (tensor arith and tensor.empty are all trivially dead once unused).

  dead_random.py gen OUT.mlir SEED N   writes N functions
  dead_random.py check OUT.mlir        reads metrale-opt's diagnostics on stdin and
                                       compares the 'is dead' remarks with the oracle
Only the outermost dead op is remarked (what is inside a dead op goes with it)."""
import random
import re
import sys

T = "tensor<4xf32>"


def gen_function(rng, name):
    """Returns (lines, expected dead line numbers relative to the first line)."""
    lines = ["func.func @%s(%%c: i1, %%a: %s, %%b: %s) -> (%s, %s) {" % (name, T, T, T, T)]
    # Each op: (line index, result name, operands, parent op index or None)
    ops = []
    values = ["%a", "%b"]          # visible at top level
    defined_by = {}                # value -> op index
    n = rng.randint(3, 14)
    for k in range(n):
        kind = rng.random()
        if kind < 0.15:
            r = "%%e%d" % k
            lines.append("  %s = tensor.empty() : %s" % (r, T))
            ops.append({"line": len(lines) - 1, "res": r, "uses": [], "inner": []})
        elif kind < 0.3:
            # scf.if whose branches read outer values (several times) and yield one
            r = "%%i%d" % k
            x, y = rng.choice(values), rng.choice(values)
            lines.append("  %s = scf.if %%c -> (%s) {" % (r, T))
            inner_line = len(lines)
            lines.append("    %%t%d = arith.mulf %s, %s : %s" % (k, x, x, T))
            lines.append("    scf.yield %%t%d : %s" % (k, T))
            lines.append("  } else {")
            lines.append("    scf.yield %s : %s" % (y, T))
            lines.append("  }")
            ops.append({"line": len(lines) - 6, "res": r, "uses": [x, x, y], "inner": [inner_line]})
        else:
            r = "%%v%d" % k
            op = rng.choice(["arith.addf", "arith.mulf", "arith.subf"])
            x = rng.choice(values)
            y = x if rng.random() < 0.4 else rng.choice(values)
            lines.append("  %s = %s %s, %s : %s" % (r, op, x, y, T))
            ops.append({"line": len(lines) - 1, "res": r, "uses": [x, y], "inner": []})
        defined_by[r] = len(ops) - 1
        values.append(r)
    rets = [rng.choice(values), rng.choice(values)]
    lines.append("  return %s, %s : %s, %s" % (rets[0], rets[1], T, T))
    lines.append("}")
    # Brute force: live from the return backwards (uses come after definitions).
    live = [False] * len(ops)
    for v in rets:
        if v in defined_by:
            live[defined_by[v]] = True
    for i in reversed(range(len(ops))):
        if live[i]:
            for v in ops[i]["uses"]:
                if v in defined_by:
                    live[defined_by[v]] = True
    dead = [ops[i]["line"] for i in range(len(ops)) if not live[i]]
    return lines, dead


def main():
    if sys.argv[1] == "gen":
        out, seed, n = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        rng = random.Random(seed)
        text, expected = [], []
        for f in range(n):
            lines, dead = gen_function(rng, "f%d" % f)
            base = len(text) + 1  # 1-based line of the function's first line
            expected += [base + d for d in dead]
            text += lines
        with open(out, "w") as fh:
            fh.write("\n".join(text) + "\n")
        with open(out + ".dead", "w") as fh:
            fh.write(" ".join(map(str, expected)) + "\n")
        return 0
    path = sys.argv[2]
    expected = set(map(int, open(path + ".dead").read().split()))
    got = set()
    for line in sys.stdin:
        m = re.match(r".*?:(\d+):\d+: remark: '[^']+' is dead", line)
        if m:
            got.add(int(m.group(1)))
    missing, extra = sorted(expected - got), sorted(got - expected)
    print("dead ops: %d expected, %d remarked, %d missing %s, %d extra %s"
          % (len(expected), len(got), len(missing), missing[:10], len(extra), extra[:10]))
    return 0 if not missing and not extra else 1


sys.exit(main())
