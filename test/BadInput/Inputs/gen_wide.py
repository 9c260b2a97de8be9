# Writes a function with N arguments of tensor<4xf32> that adds the first two.
import sys
n = int(sys.argv[1])
args = ", ".join("%%a%d: tensor<4xf32>" % i for i in range(n))
print("func.func @wide(%s) -> tensor<4xf32> {" % args)
print("  %0 = arith.addf %a0, %a1 : tensor<4xf32>")
print("  return %0 : tensor<4xf32>")
print("}")
