#!/usr/bin/env python3
"""csv2mlir.py PROBLEM.csv > OUT.mlir: an MLIR function whose Budget slots are the problem's buffers
(on a target with a program per op): each buffer an arith.addf of an argument of its size,
made when its lifetime starts and read last by a tensor.extract where it ends; the
extracted scalars are summed into the returned splat."""
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
shapes = sorted({int(r["size"]) // 4 for r in rows})
arg = {n: i for i, n in enumerate(shapes)}
ev = {}
for i, r in enumerate(rows):
    lo, hi = int(r["lower"]), int(r["upper"])
    ev.setdefault(lo, [[], []])[0].append(i)
    ev.setdefault(hi - 1, [[], []])[1].append(i)
out = []
args = ", ".join("%%a%d: tensor<%dxf32>" % (arg[n], n) for n in shapes)
out.append("func.func @plan(%s) -> tensor<4xf32> {" % args)
out.append("  %c0 = arith.constant 0 : index")
out.append("  %s0 = arith.constant 0.0 : f32")
k = 0
for t in sorted(ev):
    for i in ev[t][0]:
        n = int(rows[i]["size"]) // 4
        out.append("  %%v%d = arith.addf %%a%d, %%a%d : tensor<%dxf32>" % (i, arg[n], arg[n], n))
    for i in ev[t][1]:
        n = int(rows[i]["size"]) // 4
        out.append("  %%e%d = tensor.extract %%v%d[%%c0] : tensor<%dxf32>" % (i, i, n))
        out.append("  %%s%d = arith.addf %%s%d, %%e%d : f32" % (k + 1, k, i))
        k += 1
out.append("  %t = tensor.empty() : tensor<4xf32>")
out.append("  %%r = linalg.fill ins(%%s%d : f32) outs(%%t : tensor<4xf32>) -> tensor<4xf32>" % k)
out.append("  return %r : tensor<4xf32>")
out.append("}")
print("\n".join(out))
