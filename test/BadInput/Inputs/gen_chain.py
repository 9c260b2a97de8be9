# Writes a chain of N functions: @f0 calls @f1 ... calls @f{N-1}; with "reversed", the
# callees come first in the file. Each adds its argument to itself and calls the next.
import sys
n = int(sys.argv[1])
order = range(n - 1, -1, -1) if len(sys.argv) > 2 and sys.argv[2] == "reversed" else range(n)
for i in order:
    vis = "" if i == 0 else "private "
    print("func.func %s@f%d(%%x: tensor<256xf32>) -> tensor<256xf32> {" % (vis, i))
    print("  %0 = arith.addf %x, %x : tensor<256xf32>")
    if i + 1 < n:
        print("  %%1 = func.call @f%d(%%0) : (tensor<256xf32>) -> tensor<256xf32>" % (i + 1))
        print("  return %1 : tensor<256xf32>")
    else:
        print("  return %0 : tensor<256xf32>")
    print("}")
