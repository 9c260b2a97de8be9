// gen_graph: writes a synthetic MLIR module for the speed benchmarks.
//   gen_graph N OUT.mlir            one function of about N top-level ops: a residual
//                                   chain of blocks (addf, mulf, empty, matmul, addf, each
//                                   on 8x8xf32) sharing one weight argument
//   gen_graph --functions N OUT.mlir  N functions of one op each (addf on 8x8xf32): the
//                                   per-function cost of a pass
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *T = "tensor<8x8xf32>";

static void chain(FILE *f, long n) {
  fprintf(f, "func.func @big(%%x: %s, %%w: %s {metrale.param}) -> %s {\n", T, T, T);
  long blocks = (n - 1) / 5;
  const char *prev = "%x";
  char pbuf[32];
  for (long b = 0; b < blocks; ++b) {
    fprintf(f, "  %%a%ld = arith.addf %s, %%w : %s\n", b, prev, T);
    fprintf(f, "  %%b%ld = arith.mulf %%a%ld, %%a%ld : %s\n", b, b, b, T);
    fprintf(f, "  %%e%ld = tensor.empty() : %s\n", b, T);
    fprintf(f, "  %%m%ld = linalg.matmul ins(%%b%ld, %%w : %s, %s) outs(%%e%ld : %s) -> %s\n", b, b,
            T, T, b, T, T);
    fprintf(f, "  %%r%ld = arith.addf %%m%ld, %s : %s\n", b, b, prev, T);
    snprintf(pbuf, sizeof(pbuf), "%%r%ld", b);
    prev = pbuf;
  }
  fprintf(f, "  return %s : %s\n}\n", prev, T);
}

static void functions(FILE *f, long n) {
  for (long i = 0; i < n; ++i)
    fprintf(f, "func.func @f%ld(%%x: %s) -> %s {\n  %%a = arith.addf %%x, %%x : %s\n"
               "  return %%a : %s\n}\n", i, T, T, T, T);
}

int main(int argc, char **argv) {
  int fn = argc == 4 && !strcmp(argv[1], "--functions");
  if (argc != 3 + fn) {
    fprintf(stderr, "usage: gen_graph [--functions] N OUT.mlir\n");
    return 2;
  }
  char *end;
  errno = 0;
  long n = strtol(argv[1 + fn], &end, 10);
  if (errno || *end || end == argv[1 + fn] || n < (fn ? 1 : 6) || n > 100000000) {
    fprintf(stderr, "gen_graph: N must be an integer in [%d, 100000000], got '%s'\n", fn ? 1 : 6,
            argv[1 + fn]);
    return 2;
  }
  FILE *f = fopen(argv[2 + fn], "w");
  if (!f) { perror(argv[2 + fn]); return 2; }
  if (fn) functions(f, n); else chain(f, n);
  return fclose(f) ? 1 : 0;
}
