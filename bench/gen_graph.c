// gen_graph: writes a synthetic MLIR module for the speed benchmarks.
//   gen_graph N OUT.mlir            one function of about N top-level ops: a residual
//                                   chain of blocks (addf, mulf, empty, matmul, addf, each
//                                   on 8x8xf32) sharing one weight argument
//   gen_graph --functions N OUT.mlir  N functions of one op each (addf on 8x8xf32): the
//                                   per-function cost of a pass
//   gen_graph --mlp N OUT.mlir      one function of N transformer-MLP blocks, 9 ops each
//                                   (x + W2 relu(W1 x + b), matmuls on fills of empties,
//                                   8x32 and 8x64 f32), the weights shared by every block:
//                                   issue 42's graph for the mlir-cpu target's scaling
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

static void mlp(FILE *f, long n) {
  const char *t = "tensor<8x32xf32>", *h = "tensor<8x64xf32>";
  fprintf(f, "func.func @mlp(%%x: %s, %%w1: tensor<32x64xf32>, %%b1: %s, %%w2: tensor<64x32xf32>) -> %s {\n"
             "  %%z = arith.constant 0.0 : f32\n", t, h, t);
  char prev[32] = "%x";
  for (long b = 0; b < n; ++b) {
    fprintf(f, "  %%e%ld = tensor.empty() : %s\n", b, h);
    fprintf(f, "  %%f%ld = linalg.fill ins(%%z : f32) outs(%%e%ld : %s) -> %s\n", b, b, h, h);
    fprintf(f, "  %%m%ld = linalg.matmul ins(%s, %%w1 : %s, tensor<32x64xf32>) outs(%%f%ld : %s) -> %s\n",
            b, prev, t, b, h, h);
    fprintf(f, "  %%a%ld = arith.addf %%m%ld, %%b1 : %s\n", b, b, h);
    fprintf(f, "  %%r%ld = arith.maximumf %%a%ld, %%a%ld : %s\n", b, b, b, h);
    fprintf(f, "  %%g%ld = tensor.empty() : %s\n", b, t);
    fprintf(f, "  %%h%ld = linalg.fill ins(%%z : f32) outs(%%g%ld : %s) -> %s\n", b, b, t, t);
    fprintf(f, "  %%n%ld = linalg.matmul ins(%%r%ld, %%w2 : %s, tensor<64x32xf32>) outs(%%h%ld : %s) -> %s\n",
            b, b, h, b, t, t);
    fprintf(f, "  %%o%ld = arith.addf %%n%ld, %s : %s\n", b, b, prev, t);
    snprintf(prev, sizeof prev, "%%o%ld", b);
  }
  fprintf(f, "  return %s : %s\n}\n", prev, t);
}

static void functions(FILE *f, long n) {
  for (long i = 0; i < n; ++i)
    fprintf(f, "func.func @f%ld(%%x: %s) -> %s {\n  %%a = arith.addf %%x, %%x : %s\n"
               "  return %%a : %s\n}\n", i, T, T, T, T);
}

int main(int argc, char **argv) {
  int fn = argc == 4 && !strcmp(argv[1], "--functions");
  int ml = argc == 4 && !strcmp(argv[1], "--mlp");
  int flag = fn || ml;
  if (argc != 3 + flag) {
    fprintf(stderr, "usage: gen_graph [--functions | --mlp] N OUT.mlir\n");
    return 2;
  }
  char *end;
  errno = 0;
  long n = strtol(argv[1 + flag], &end, 10);
  long lo = flag ? 1 : 6;
  if (errno || *end || end == argv[1 + flag] || n < lo || n > 100000000) {
    fprintf(stderr, "gen_graph: N must be an integer in [%ld, 100000000], got '%s'\n", lo,
            argv[1 + flag]);
    return 2;
  }
  FILE *f = fopen(argv[2 + flag], "w");
  if (!f) { perror(argv[2 + flag]); return 2; }
  if (fn) functions(f, n); else if (ml) mlp(f, n); else chain(f, n);
  return fclose(f) ? 1 : 0;
}
