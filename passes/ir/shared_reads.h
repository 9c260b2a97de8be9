// passes/ir/shared_reads.h: a function argument every op only reads, given one argument
// per reader while upstream's one-shot analysis runs (issue 42).
//
// One-shot bufferization (and eliminate-empty-tensors, which runs the same analysis)
// checks each tensor operand for read-after-write conflicts by visiting every use of
// every value aliasing it; a weight read by every block of a model (an argument with a
// use per block) makes that quadratic: on issue 42's transformer-MLP graph, where 4
// arguments are read by all 2,000 blocks, the two passes take 7.3 s of which 0.5 s remain
// once each reader has its own argument (`mlir-opt --mlir-timing`, 18k ops).
//
// The split changes no decision: an argument qualifies only when every use is an input
// (`ins`) operand of a linalg op, which the op only reads and which no result aliases, so
// no use writes the buffer and no conflict can involve it, however its reads are
// grouped. met_shared_reads_split gives each such use after the first an argument of its
// own (appended to the function's entry block, its type and argument attributes);
// met_shared_reads_merge, run right after one-shot-bufferize, points the appended
// arguments' uses back at the original (now a memref) and erases them, restoring the
// signature. test/Run/dealloc-linear.test checks the programs against upstream's.
// Functions a call or symbol use names are left alone (their signature is a contract).
// Thread-compatible: one module at a time.
#ifndef METRALE_PASSES_IR_SHARED_READS_H
#define METRALE_PASSES_IR_SHARED_READS_H

#include <stddef.h>

#include "metrale/status.h"
#include "mlir-c/IR.h"

typedef struct met_split_fn_t met_split_fn_t;
// What split did, for merge: per function, its first appended argument and, for each
// appended one, the original argument it stands for.
typedef struct met_shared_reads_t {
  met_split_fn_t *fns;
  size_t count;
} met_shared_reads_t;

met_status_t met_shared_reads_split(MlirOperation module, met_shared_reads_t *out);
met_status_t met_shared_reads_merge(MlirOperation module, met_shared_reads_t *split);
void met_shared_reads_release(met_shared_reads_t *split);

#endif
