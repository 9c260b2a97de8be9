// tools/run/exec_internal.h: what the files of `metrale run` share (exec_run.c: signature,
// inputs, engine, invocations; exec_values.c: the arguments' and results' values;
// exec_hooks.c: the host hooks the compiled code calls; exec_lower.c: diagnostics, module
// preparation and the pass pipeline; exec_kernels.c: the kernels' markers and resident
// bindings; exec_names.c: the module's symbols). Internal.
#ifndef METRALE_TOOLS_RUN_EXEC_INTERNAL_H
#define METRALE_TOOLS_RUN_EXEC_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ir/clock.h"
#include "ir/ir.h"
#include "metrale/arena.h"
#include "metrale/strmap.h"
#include "run/exec_run.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#define S(lit) mlirStringRefCreateFromCString(lit)

// The one failure statement of the runner: |code| and its message into out->error
// (metrale/status.h's met_error_t), returned: return met_exec_fail(out, MET_EINVAL, ...).
#define met_exec_fail(out, code, ...) met_error_set(&(out)->error, (code), __VA_ARGS__)

static inline void sref_copy(char *dst, size_t cap, MlirStringRef s) {
  size_t n = s.length < cap - 1 ? s.length : cap - 1;
  if (n) memcpy(dst, s.data, n);
  dst[n] = 0;
}

// A bounded text sink for the C API's print callbacks; always NUL-terminated.
typedef struct { char *buf; size_t cap, len; } met_exec_sbuf_t;

static inline void met_exec_sbuf_cb(MlirStringRef s, void *ud) {
  met_exec_sbuf_t *b = ud;
  if (b->len + 1 >= b->cap) return;
  size_t n = s.length;
  if (n > b->cap - 1 - b->len) n = b->cap - 1 - b->len;
  memcpy(b->buf + b->len, s.data, n);
  b->len += n;
  b->buf[b->len] = 0;
}

// exec_values.c: an argument or result of the function that runs, and what they need.
typedef struct {
  MlirType type, elem;
  bool is_memref;       // tensor or memref argument (descriptor)
  int64_t rank;
  int64_t *desc;        // (3 + 2*rank) words
  void *data;           // aligned buffer
  uint64_t data_bytes;  // buffer bytes
  uint64_t n_elems;     // elements written by the generator
  uint64_t ebytes;
  union { int64_t i; double d; float f; uint16_t h; unsigned char raw[16]; } scalar;
  void *argp;           // what args[k] points to (desc pointer or scalar)
  bool resident;        // a parameter or state: filled once, not host input of a run
  bool filled;
} met_exec_arg_t;

typedef struct {
  MlirType type, elem;
  bool is_memref;
  int64_t rank;
  uint64_t offset, size; // in the result struct
  uint64_t bytes;        // buffer bytes (static)
} met_exec_res_t;

// Storage bytes of a scalar as the LLVM lowering lays it out in memory (0: unsupported).
uint64_t met_exec_elem_bytes(MlirType t);
// The type as MLIR prints it, truncated to |cap|.
void met_exec_type_str(MlirType t, char *dst, size_t cap);
// Fills an argument: zeros, or values in [0, 1) for floats from |seed| and |k|.
void met_exec_fill_arg(met_exec_arg_t *a, met_exec_inputs_t kind, uint64_t seed, size_t k);
// Gives every constant of |module| (a bufferized memref.global) whose data is an elided
// blob (dense_resource<__elided__>) data of its type by the --inputs rule: zeros, or
// met_exec_fill_arg's values; counts them in out->synthetic_constants. 0, or a failure.
met_status_t met_exec_fill_elided(MlirContext ctx, MlirOperation module, const met_exec_options_t *opt,
                     met_exec_result_t *out);
// Available memory: MemAvailable of /proc/meminfo, else free pages; UINT64_MAX unknown.
uint64_t met_exec_avail_memory(void);
// Static buffer size (elements) of a shaped type; MET_EUNSUPPORTED if dynamic or not
// strided, MET_EOVERFLOW past 64 bits (why in |err|).
met_status_t met_exec_shaped_extent(MlirType t, int64_t *rank, int64_t *sizes,
                                    int64_t *strides, int64_t *offset, uint64_t *n_elems,
                                    uint64_t *span, met_error_t *err);
// One element at |p| (|eb| bytes) as a double (0 for types it does not know).
double met_exec_elem_value(MlirType t, const unsigned char *p, uint64_t eb);

// The first error diagnostic of a step, captured instead of printed (exec_lower.c).
typedef struct {
  int errors;
  char msg[320];
  char loc[160];
} met_exec_diag_t;
MlirLogicalResult met_exec_diag_handler(MlirDiagnostic d, void *ud);

// exec_hooks.c: the host hooks. Their state is thread-local: the compiled function runs on
// the thread that invokes it.
typedef struct { const char *name; void *fn; } met_exec_hook_t;
enum { EXEC_N_HOOKS = 8 };
// Fills |h| (EXEC_N_HOOKS entries): the symbols the engine resolves to the hooks.
size_t met_exec_hooks_table(met_exec_hook_t *h);
// Kernel markers count into |kernels| (|kstart|: their start times); NULL disarms.
void met_exec_hooks_arm(met_exec_kernel_t *kernels, uint64_t *kstart, size_t n);
void met_exec_hooks_reset(void);  // the allocation counters of one invocation
void met_exec_hooks_counts(uint64_t *events, uint64_t *bytes, uint64_t *high_water,
                       uint64_t *frees);
void met_exec_hooks_release(void *ptr);  // a result buffer the hooks allocated
uint64_t met_exec_hooks_reclaim(void);   // frees every live block; their bytes
// In the child process: a failed allocation writes a met_exec_wire_t there and exits.
void met_exec_hooks_fail_to(int fd);
// The bf16 bits nearest |f| (|d|), ties to even, as compiler-rt's __truncsfbf2
// (__truncdfbf2), which the hooks stand in for.
uint16_t met_exec_bf16_from_f32(float f);
uint16_t met_exec_bf16_from_f64(double d);

// What the child sends back: its status and result, then the kernels' counters. A failed
// allocation sends out_of_memory with the size in result.alloc_bytes.
typedef struct met_exec_wire_t {
  met_status_t rc;
  bool out_of_memory;
  met_exec_result_t result;
} met_exec_wire_t;

// exec_names.c: the top-level func.func named |name|, or null (a symbol's name:
// met_ir_sym_name, ir/ir.h); a set of symbol names (copies, in the order added;
// lib/strmap.c finds them), e.g. the functions of the user's module. Start a set
// zeroed; met_exec_names_add is MET_ENOMEM when it cannot copy a name (the set is then
// marked: met_exec_names_t.status).
MlirOperation met_exec_find_func(MlirOperation module, const char *name);
typedef struct met_exec_names_t {
  met_arena_t arena;     // the copies and the map's slots
  met_strmap_t map;      // name -> its index in |names|
  const char **names;    // in the order added
  size_t n, cap;
  bool ready;            // the arena and map initialized (on the first add)
  met_status_t status;   // the first failure to add
} met_exec_names_t;
bool met_exec_names_has(const met_exec_names_t *ns, MlirStringRef s);
met_status_t met_exec_names_add(met_exec_names_t *ns, MlirStringRef s);  // at most once
void met_exec_names_free(met_exec_names_t *ns);

// exec_lower.c
// An error when |func| holds an op of an unregistered dialect (nothing lowers it).
met_status_t met_exec_refuse_unregistered(MlirContext ctx, MlirOperation func, const char *name,
                             met_exec_result_t *out);
// Prepares the clone |mop| (drops what |name| does not call, marks its C interface),
// lowers it to the LLVM dialect with the kernel markers inserted, and records the
// bufferized function's copies, allocations and resident bindings in |out|.
met_status_t met_exec_lower(MlirContext ctx, MlirOperation mop, const char *name,
               const met_exec_options_t *opt, met_exec_diag_t *dg, met_exec_result_t *out);

// exec_kernels.c: the resident buffers the kernels of bufferized |func| bind (into |out|),
// and the markers around every kernel of |module|'s functions named in |users| (the
// user's; helpers the pipeline added are not marked). 0, or a failure code.
void met_exec_count_resident(MlirOperation func, const met_exec_options_t *opt,
                             met_exec_result_t *out);
met_status_t met_exec_insert_markers(MlirContext ctx, MlirOperation module,
                            const met_exec_names_t *users, met_exec_result_t *out);

#endif
