# Writes a model nested N levels deep: 'modules' (module { module { ... } }) or 'regions'
# (a function whose body is N nested scf.execute_region ops around one yield).
import sys

n, kind = int(sys.argv[1]), sys.argv[2]
out = []
if kind == "modules":
    out += ["module {"] * n + ["}"] * n
else:
    out.append("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {")
    out += ["%%r%d = scf.execute_region -> tensor<4xf32> {" % i for i in range(n)]
    out.append("scf.yield %a : tensor<4xf32>")
    for i in range(n - 1, -1, -1):
        out.append("}")
        if i:
            out.append("scf.yield %%r%d : tensor<4xf32>" % i)
    out += ["return %r0 : tensor<4xf32>", "}"]
sys.stdout.write("\n".join(out) + "\n")
