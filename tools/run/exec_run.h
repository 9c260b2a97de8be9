// tools/run/exec_run.h: measure real runs of one MLIR function on this CPU through the MLIR 22
// ExecutionEngine C API.
//
// met_exec_run_function clones the caller's module (the caller's module is never mutated),
// keeps the named function and what it calls, lowers the clone in-process (TOSA/linalg on
// tensors or memref/affine/scf -> LLVM dialect, one pass manager per pass so that a
// failure names its pass), brackets every top-level kernel of the function with calls to
// host hooks, JIT-compiles it, and invokes it `runs` times with generated inputs.
// Allocations go through host hooks (finalize-memref-to-llvm{use-generic-functions=1}),
// which count events, bytes and the live high-water mark.
//
// Thread-safety: one call works on one context on the calling thread; the hooks keep
// their counters in _Thread_local storage, so calls on different threads (with different
// contexts) do not interfere. The caller's context gets dialects, LLVM translations and
// all passes registered (met_exec_run_register; idempotent).
#ifndef METRALE_TOOLS_RUN_EXEC_RUN_H
#define METRALE_TOOLS_RUN_EXEC_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/status.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { MET_EXEC_INPUTS_ZEROS = 0, MET_EXEC_INPUTS_RANDOM = 1 } met_exec_inputs_t;

typedef struct {
  unsigned runs;            // total invocations, >= 1 (first = cold, the rest = warm)
  int opt_level;            // LLVM optimisation level of the JIT: 0..3 (0 or 2 usual)
  met_exec_inputs_t inputs;     // zeros, or uniform random with a fixed seed
  uint64_t seed;            // seed of MET_EXEC_INPUTS_RANDOM (default 0x5eed)
  bool inject_device_loss;  // the first invocation "fails"; engine rebuilt, retried
  bool keep_other_funcs;    // false: functions the entry does not call are dropped
  const char *dump_lowered; // if non-NULL: write the LLVM-dialect module to this path
  const char *dump_bufferized; // if non-NULL: write the bufferized program (stage A, the
                               // one mlir-cpu's prediction analyses), with the kernel
                               // markers, to this path
  const char *const *shared_libs; // libraries the JIT loads (e.g. libmlir_c_runner_utils.so)
  size_t n_shared_libs;           // at most 16
  unsigned timeout_s;             // the invocations' time limit (0: 300 s); they run in a
                                  // child process, killed when it is reached
  uint64_t predicted_peak_bytes;  // the prediction's device_allocation_peak_bytes: with the
                                  // arguments' buffers, what must fit in free memory before
                                  // the run starts (0: the arguments alone)
  const uint8_t *resident;        // per argument: 1 for a parameter or state (filled once,
  size_t n_resident;              // before the first run; its data is no input of a run)
} met_exec_options_t;

typedef struct {
  char name[64];   // op name, e.g. "linalg.conv_2d_nhwc_fhwc"
  char loc[128];   // file:line:col of the op in the caller's module ("?" if unknown)
  uint64_t launches, ns; // summed over all invocations (cold + warm)
} met_exec_kernel_t;

typedef struct {
  // Allocations made by the compiled code (through the hooks) during the first completed
  // run (static shapes: every run allocates the same). Bytes are what the code asked
  // for (the default lowering adds alignment padding to each request).
  uint64_t alloc_events, alloc_bytes, live_high_water_bytes;
  uint64_t free_events;          // frees by the compiled code in the first run
  uint64_t leaked_bytes;         // still live after a run, not returned as a result
  uint64_t copies;               // memref.copy ops in the bufferized function (static)
  uint64_t static_allocs;        // memref.alloc ops in the bufferized function (static)
  uint64_t resident_rows;        // resident buffers the kernels bind (globals, resident
                                 // arguments; views resolved), counted in the lowered program
  uint64_t resident_handles;     // (kernel, resident buffer) pairs over the kernels
  uint64_t input_bytes;          // descriptors ((3+2*rank)*8 each) and scalars, plus the
                                 // data of arguments that are not resident
  uint64_t output_bytes, output_buffers; // result buffers (static type sizes), count
  double output_checksum;        // sum of all result elements of the first run
  uint64_t lower_ns;             // in-process pass pipeline
  uint64_t jit_ns;               // engine create + symbol registration + codegen
  uint64_t recovery_ns;          // engine rebuild after the injected device loss
  uint64_t first_ns, min_ns, median_ns; // first run; min/median of warm runs (runs>1)
  unsigned runs;                 // invocations that completed
  bool recovered_after_device_loss;
  uint64_t synthetic_constants;  // constants whose elided data the run made up (--inputs)
  char synthetic_loc[160];       // the first of them, file:line:col
  size_t n_kernels;
  met_exec_kernel_t *kernels;        // malloc'ed; met_exec_result_free releases it
  met_error_t error;             // code MET_OK and message "" on success
} met_exec_result_t;

// Defaults: runs 5, opt 2, zeros, seed 0x5eed, no device loss, prune other functions.
void met_exec_options_default(met_exec_options_t *opt);

// Registers all dialects, LLVM translations and passes on ctx (idempotent).
void met_exec_run_register(MlirContext ctx);

// Returns MET_OK on success; on failure the status, also in out->error with its message:
//  MET_EINVAL       bad arguments, function not found, a run too large for this machine
//  MET_EUNSUPPORTED what the runner does not take (dynamic shapes, sparse encodings,
//                   unregistered ops, element types)
//  MET_EEXTERNAL    lowering failed (the message names the pass and the op location), the
//                   JIT failed (engine creation, unresolved symbol), or the invocation
//                   failed (crash, timeout, exit)
//  MET_ENOMEM       out of memory, here or in the compiled code
// out is always initialised (met_exec_result_free is safe to call afterwards).
met_status_t met_exec_run_function(MlirContext ctx, MlirModule module, const char *func_name,
                      const met_exec_options_t *opt, met_exec_result_t *out);

void met_exec_result_free(met_exec_result_t *out);

#ifdef __cplusplus
}
#endif
#endif
