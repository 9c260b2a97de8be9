// metrale/memory_report.h: the memory model's report, as the pass assembles it, and its
// renderers (JSON, text tables). The renderers do no I/O. Thread-compatible.
#ifndef METRALE_MEMORY_REPORT_H
#define METRALE_MEMORY_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/memory.h"
#include "metrale/report.h"
#include "metrale/target.h"

// One node of the per-node table: the memory it holds. The five columns sum to the
// totals: stored = weights_stored - weights_replaced (what stays resident: a weight that
// only load-time subgraphs read is replaced by their results on a MET_RESIDENCY_REPLACE
// target), derived = weights_derived, activations = activations, workspace =
// workspace, state = states + kv.
typedef struct met_memory_row_t {
  const char *name;   // "weight %arg0 of @forward", "tosa.matmul", "kv pool", ...
  const char *kind;   // "weight", "hoisted", "activation", "workspace", "state", "kv"
  const char *loc;    // "file:line:col" or NULL
  uint64_t stored, derived, activations, workspace, state;
} met_memory_row_t;

typedef struct met_memory_run_t {
  const char *name;           // the function's symbol: the run's label
  uint64_t arena;             // planned arena after load-time hoisting (memory_graph.h)
  uint64_t budget_arena;      // the Budget's arena_bytes (before hoisting)
  uint64_t materialized;      // the Budget's materialized_bytes
  bool bufferized;            // allocates buffers itself (memref.alloc)
  uint64_t allocated_peak;    // what that code allocates at its peak
  uint64_t charged;           // allocated_peak when bufferized, else arena
} met_memory_run_t;

typedef struct met_memory_weight_t {
  const char *name;
  const char *format;         // the declared checkpoint format, or NULL
  uint64_t stored, served;    // at the declared format; the IR type's copy if it differs
  uint32_t uses;              // uses by ops that run every time
  bool outside, leaked;
  uint64_t replaced;          // of |stored|, the bytes only load-time subgraphs read (in
                              // proportion to the IR bytes they read): what their results
                              // replace on a MET_RESIDENCY_REPLACE target
} met_memory_weight_t;

typedef struct met_memory_state_t {
  const char *name;
  uint64_t bytes;
} met_memory_state_t;

typedef struct met_memory_cache_t {
  const char *name;
  uint64_t units, unit_bytes, bytes;
  bool host;
} met_memory_cache_t;

typedef struct met_memory_report_t {
  met_memory_terms_t terms;
  met_memory_totals_t totals;
  met_kv_pool_t pool;
  uint32_t kv_missing;        // MET_KV_MISSING_* when the pool is declared but incomplete
  uint64_t sequences, tokens;
  uint32_t util_ppm;
  const char *peak_run;       // the run that sets activations
  // False when a term is a lower bound: a run's Budget is incomplete (dynamic dims,
  // unsized values, loops or calls it could not count), a declared KV pool lacks what
  // sizes it, a global has dynamic dims. |totals.fits| is then "the lower bound fits".
  bool complete;
  bool asked_max_sequences, max_sequences_found;
  uint64_t max_sequences;     // at |tokens|
  bool asked_max_tokens, max_tokens_found;
  uint64_t max_tokens;        // at |sequences|
  uint64_t workspace_family[4];  // matmul, conv, softmax, reduction
  met_memory_row_t *rows; size_t row_count;
  met_memory_run_t *runs; size_t run_count;
  met_memory_weight_t *weights; size_t weight_count;
  met_memory_state_t *states; size_t state_count;
  met_memory_cache_t *caches; size_t cache_count;
  const met_memory_grid_t *grid;  // what fits by sequences x tokens (NULL: not asked)
} met_memory_report_t;

typedef enum met_memory_field_kind_e {
  MET_MFIELD_BYTES = 0,
  MET_MFIELD_COUNT = 1,
  MET_MFIELD_SIGNED = 2,
  MET_MFIELD_BOOL = 3,
} met_memory_field_kind_t;

// One line of metrale/memory_fields.def.
typedef struct met_memory_field_t {
  const char *name;
  met_memory_field_kind_t kind;
  size_t offset;                // in met_memory_report_t
  bool json, attr, table;
  const char *note;
} met_memory_field_t;

// The fields in the list's order; |*count| receives their number. Static data.
const met_memory_field_t *met_memory_fields(size_t *count);
// A field's value: BYTES and COUNT as uint64_t, SIGNED as int64_t (cast), BOOL as 0 or 1.
int64_t met_memory_field_i64(const met_memory_report_t *r, const met_memory_field_t *f);
uint64_t met_memory_field_u64(const met_memory_report_t *r, const met_memory_field_t *f);

void met_memory_report_json(met_strbuf_t *sb, const met_target_t *target,
                            const met_memory_report_t *r);
// |max_rows|: how many of the largest nodes to list (0: all).
void met_memory_report_text(met_strbuf_t *sb, const met_target_t *target,
                            const met_memory_report_t *r, size_t max_rows);
// The terms by size, largest first, as "name bytes" pairs: for "largest terms" messages.
void met_memory_report_largest(met_strbuf_t *sb, const met_memory_report_t *r, int count);

#endif
