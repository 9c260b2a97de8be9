// gen_graph: writes a synthetic MLIR graph of about N top-level ops, for the speed
// benchmark: a residual chain of blocks (addf, mulf, empty, matmul, addf, each on
// 8x8xf32) sharing one weight argument.
//   gen_graph N OUT.mlir
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: gen_graph N OUT.mlir\n"); return 2; }
  long n = atol(argv[1]);
  FILE *f = fopen(argv[2], "w");
  if (!f || n < 6) { fprintf(stderr, "gen_graph: bad arguments\n"); return 2; }
  const char *t = "tensor<8x8xf32>";
  fprintf(f, "func.func @big(%%x: %s, %%w: %s {metrale.param}) -> %s {\n", t, t, t);
  long blocks = (n - 1) / 5;
  const char *prev = "%x";
  char pbuf[32];
  for (long b = 0; b < blocks; ++b) {
    fprintf(f, "  %%a%ld = arith.addf %s, %%w : %s\n", b, prev, t);
    fprintf(f, "  %%b%ld = arith.mulf %%a%ld, %%a%ld : %s\n", b, b, b, t);
    fprintf(f, "  %%e%ld = tensor.empty() : %s\n", b, t);
    fprintf(f, "  %%m%ld = linalg.matmul ins(%%b%ld, %%w : %s, %s) outs(%%e%ld : %s) -> %s\n", b, b,
            t, t, b, t, t);
    fprintf(f, "  %%r%ld = arith.addf %%m%ld, %s : %s\n", b, b, prev, t);
    snprintf(pbuf, sizeof(pbuf), "%%r%ld", b);
    prev = pbuf;
  }
  fprintf(f, "  return %s : %s\n}\n", prev, t);
  return fclose(f) ? 1 : 0;
}
