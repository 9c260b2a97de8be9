// metrale/memory_model.h: assembling the memory model's report (memory_report.h) from
// what the pass read: the runs (public functions, each analysed by the Budget and
// memory_graph.h), the weights, states and caches. Pure: no MLIR, no I/O; the pass reads
// declarations and attributes and calls these in order. Thread-compatible.
//
// Definitions (each term is defined in memory.h; these say how it is gathered):
// - A run's charge: its allocation peak when it is fully bufferized, else its arena after
//   hoisting. activations = the largest charge (the first run with it is the peak run);
//   activations_planned = the largest arena after hoisting.
// - workspace = the sum over kernel families of the largest family term of any run.
// - weights_derived: each run's load-time subgraph results, plus, per weight, the served
//   copy when the IR type differs from the declared format.
// - One weight (or state) per name across runs: the same name again merges uses (a weight
//   is outside only when no run reads it, leaked only when every run hoists all its uses,
//   and replaced by the least any run replaces: what one run still reads stays);
//   the same name with another size is an error (MET_EINVAL, |conflict_bytes|).
// - weights_stored, weights_outside: sums over the merged weights. With replace_sources
//   (MET_RESIDENCY_REPLACE): weights_replaced sums their replaced bytes, a served copy
//   counts in weights_derived only for the share not replaced, and nothing is leaked;
//   otherwise weights_replaced is 0 and weights_leaked sums the leaked weights.
// - A row per weight, state, device cache, run's hoisted results and workspace family; the
//   rows' columns sum to the terms (the pass adds the peak run's activation rows).
// Every sum is checked: MET_EOVERFLOW names the term in |overflow_term|.
#ifndef METRALE_MEMORY_MODEL_H
#define METRALE_MEMORY_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/budget.h"
#include "metrale/memory_graph.h"
#include "metrale/memory_report.h"
#include "metrale/strmap.h"

typedef struct met_memory_model_t {
  met_arena_t *arena;           // the report's storage (borrowed)
  met_memory_report_t *r;       // the report being assembled (borrowed)
  size_t cap_rows, cap_runs, cap_weights, cap_states, cap_caches;
  const char *overflow_term;    // with MET_EOVERFLOW: the term that passed 2^64
  uint64_t conflict_bytes;      // with MET_EINVAL from _weight/_state: the size seen first
  met_strmap_t weight_names;    // a weight's name -> its index (the first of that name)
  bool replace_sources;         // the target's residency is MET_RESIDENCY_REPLACE (set
                                // before met_memory_model_finish)
} met_memory_model_t;

// Starts assembling into |r| (zeroed, complete = true), storage from |arena|.
void met_memory_model_initialize(met_arena_t *arena, met_memory_report_t *r,
                                 met_memory_model_t *m);

// Appends a row (names and locations borrowed: keep them in |arena|).
met_status_t met_memory_model_row(met_memory_model_t *m, const char *name, const char *kind,
                                  const char *loc, uint64_t stored, uint64_t derived,
                                  uint64_t activations, uint64_t workspace, uint64_t state);

// Adds the run |name| (a public function) analysed as |budget| (complete or not) and |fm|.
// |*out| (optional) points at its entry.
met_status_t met_memory_model_run(met_memory_model_t *m, const char *name,
                                  const met_budget_report_t *budget,
                                  const met_function_memory_t *fm, met_memory_run_t **out);

// How a run uses the weight that is value |value| of its graph (|ir_bytes| at its IR
// type, |w->stored| at its declared format): fills w->uses (by ops that run every time),
// w->outside (no op reads it), w->leaked (the target hoists, and only hoisted ops read it)
// and w->replaced (w->stored x the share of its IR bytes only hoisted ops read).
void met_memory_model_weight_use(const met_budget_report_t *budget,
                                 const met_function_memory_t *fm, uint32_t value,
                                 uint64_t ir_bytes, bool hoists, met_memory_weight_t *w);

// Adds a weight. |by_name|: merged with an earlier one of the same name (see above), for
// weights the user names (metrale.name, arguments); constants are each their own weight,
// whatever their printed names (two constants may print alike).
met_status_t met_memory_model_weight(met_memory_model_t *m, const met_memory_weight_t *w,
                                     bool by_name);
// Raises the workspace family maxima by a function's (a callee's kernels need their
// workspace when it is called); met_memory_model_run does this for runs.
void met_memory_model_families(met_memory_model_t *m, const met_function_memory_t *fm);
// Adds a state of |bytes| once per name (same rule); a row at |loc| (may be NULL).
met_status_t met_memory_model_state(met_memory_model_t *m, const char *name, uint64_t bytes,
                                    const char *loc);
// Adds a declared cache: its units x bytes to caches_device or caches_host (and a row
// when on the device). MET_EOVERFLOW when units x bytes passes 2^64 (|overflow_term| is
// then MET_MEMORY_CACHE_PRODUCT) or the term does.
#define MET_MEMORY_CACHE_PRODUCT "units x bytes of a cache"
met_status_t met_memory_model_cache(met_memory_model_t *m, const met_memory_cache_t *c);

// Sums the workspace families and the weights into their terms, with their rows. Call once,
// after every run and weight.
met_status_t met_memory_model_finish(met_memory_model_t *m);

#endif
