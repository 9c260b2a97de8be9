// metrale/memory.h: the whole-model memory model: does a model, served a given way, fit a
// device, what takes the room, and how many sequences would fit.
//
// The MLIR layer gathers the terms (weights, runs planned by the Budget planner,
// workspaces, states, caches) into a met_memory_terms_t; this module adds the paged KV
// pool sized from runtime parameters and the target's driver terms, compares the sum with
// the device budget, and answers the inverse questions. All arithmetic is exact integer
// arithmetic, checked for overflow. Thread-safe: pure functions.
//
// Definitions (the report's names):
// - kv_blocks_for(sequences, tokens, block_size) = sequences x (tokens / block_size + 1) + 1,
//   integer division: the block the next token writes is reserved with the prompt, plus
//   one dummy block. vLLM instead reserves ceil(tokens / block_size) blocks a sequence and
//   no dummy block: for tokens a multiple of the block size metrale counts one block more
//   per sequence, plus one.
// - kv bytes = blocks x block_size x 2 (K and V) x layers x kv_heads x head_dim x KV
//   element bytes; a draft head shares the block table with its own layers, heads, head
//   dim and KV element type.
// - budget_bytes = floor(memory_bytes x util), util in parts per million (exact).
// - driver = the target's context bytes + its reserved fraction of device memory + chunk
//   slack: every device term rounded up to the allocation chunk, minus the term.
// - device = weights_stored - weights_replaced + weights_derived + activations + workspace +
//   states + kv + device caches + driver. headroom = budget - device (negative when it
//   does not fit).
#ifndef METRALE_MEMORY_H
#define METRALE_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/status.h"

// A paged KV pool declared on the module. A zero field is "not declared": no count or
// format is defaulted, and the pool then sizes nothing (met_memory_kv_missing says what).
typedef struct met_kv_pool_t {
  bool present;
  uint64_t layers, kv_heads, head_dim, block_size;
  uint32_t kv_bits;                  // KV element storage bits (16 for f16)
  bool has_draft;                    // a draft head with its own shape and KV type
  uint64_t draft_layers, draft_kv_heads, draft_head_dim;
  uint32_t draft_kv_bits;
} met_kv_pool_t;

// The terms that do not depend on the runtime parameters, in bytes.
typedef struct met_memory_terms_t {
  uint64_t weights_stored;      // every parameter once, at its declared format (a
                                // splat constant is a fill, no weight: MET_ROLE_SPLAT)
  uint64_t weights_outside;     // stored parameters no op reads (included in stored)
  uint64_t weights_derived;     // load-time copies: served-format copies, hoisted subgraphs
  uint64_t weights_leaked;      // stored bytes of sources only hoisted subgraphs read, kept
                                // resident (MET_RESIDENCY_KEEP targets; 0 otherwise)
  uint64_t weights_replaced;    // stored bytes only hoisted subgraphs read, which their
                                // load-time results (in weights_derived) replace
                                // (MET_RESIDENCY_REPLACE targets; 0 otherwise)
  uint64_t activations;         // the largest run charge (metrale/memory_model.h)
  uint64_t activations_planned; // the planner's peak over runs (informational)
  uint64_t workspace;           // sum over kernel families
  uint64_t states;              // mutable globals and state arguments
  uint64_t caches_device;
  uint64_t caches_host;         // reported, not charged to the device
} met_memory_terms_t;

// The target's driver terms.
typedef struct met_driver_terms_t {
  uint64_t context_bytes;       // runtime context (CUDA context, ...)
  uint32_t reserved_ppm;        // fraction of device memory the driver keeps, ppm
  uint64_t chunk_bytes;         // allocation granularity (0 or 1: none)
} met_driver_terms_t;

typedef struct met_memory_totals_t {
  uint64_t kv_blocks;           // 0 when the pool sizes nothing
  uint64_t kv_bytes;
  uint64_t driver_bytes;
  uint64_t device_bytes;
  uint64_t budget_bytes;
  int64_t headroom_bytes;       // budget - device, saturated to the int64 range
  bool fits;                    // device <= budget
  // Set with MET_EOVERFLOW: the term whose addition passed 2^64 ("kv", "weights_stored",
  // "driver", ...); NULL otherwise. Static text.
  const char *overflow_term;
} met_memory_totals_t;

// What the pool needs that is missing, as a bit set (0: nothing missing).
enum {
  MET_KV_MISSING_SEQUENCES = 1u << 0,
  MET_KV_MISSING_TOKENS = 1u << 1,
  MET_KV_MISSING_SHAPE = 1u << 2,    // layers, kv_heads, head_dim or block_size
  MET_KV_MISSING_DTYPE = 1u << 3,    // no KV element type (module or option)
  MET_KV_MISSING_DRAFT = 1u << 4,    // a draft head without its shape or KV type
};
// |sequences| and |tokens| of 0 mean "not given".
// The kv-pool= option's text: "layers=N,kv_heads=N,head_dim=N,block_size=N", entries in
// any order, each N a whole number of at least 1 (metrale/parse.h). Sets |pool|'s shape
// and |pool->present| (a key left out is found later: met_memory_kv_missing). On refusal
// its status, why in |err| (|pool| is then partly set).
#define MET_KV_POOL_SYNTAX "layers=N,kv_heads=N,head_dim=N,block_size=N"
met_status_t met_memory_kv_pool_parse(const char *s, size_t len, met_kv_pool_t *pool,
                                      met_error_t *err);

uint32_t met_memory_kv_missing(const met_kv_pool_t *pool, uint64_t sequences,
                               uint64_t tokens);

// kv_blocks_for above. MET_EINVAL for block_size 0; MET_EOVERFLOW.
met_status_t met_memory_kv_blocks_for(uint64_t sequences, uint64_t tokens,
                                      uint64_t block_size, uint64_t *out);
// Bytes of the pool for |sequences| x |tokens| (0 when anything is missing).
met_status_t met_memory_kv_bytes(const met_kv_pool_t *pool, uint64_t sequences,
                                 uint64_t tokens, uint64_t *out_blocks, uint64_t *out_bytes);

// Evaluates the model. |util_ppm| in (0, 1000000]. MET_EINVAL for a util out of range,
// MET_EOVERFLOW when a sum passes 2^64 (|out->overflow_term| names the term).
met_status_t met_memory_evaluate(const met_memory_terms_t *terms, const met_kv_pool_t *pool,
                                 const met_driver_terms_t *driver, uint64_t memory_bytes,
                                 uint32_t util_ppm, uint64_t sequences, uint64_t tokens,
                                 met_memory_totals_t *out);

// The most sequences of |tokens| tokens that still fit (*out_found false: not even one).
// O(log answer) evaluations.
met_status_t met_memory_max_sequences(const met_memory_terms_t *terms,
                                      const met_kv_pool_t *pool,
                                      const met_driver_terms_t *driver, uint64_t memory_bytes,
                                      uint32_t util_ppm, uint64_t tokens, uint64_t *out,
                                      bool *out_found);
// The longest sequence (tokens) at |sequences| sequences that still fits.
met_status_t met_memory_max_tokens(const met_memory_terms_t *terms, const met_kv_pool_t *pool,
                                   const met_driver_terms_t *driver, uint64_t memory_bytes,
                                   uint32_t util_ppm, uint64_t sequences, uint64_t *out,
                                   bool *out_found);

// What fits, as a table (sweep-sequences=, sweep-tokens=): the model evaluated at every
// pair of |sequences[i]| x |tokens[j]| (each axis 1 to MET_MEMORY_GRID_MAX values,
// increasing), each cell exactly as met_memory_evaluate gives it. |best_i|, |best_j|: the
// fitting cell whose sequences x tokens is largest (ties: more tokens), when |found|.
enum { MET_MEMORY_GRID_MAX = 32 };
typedef struct met_memory_cell_t {
  met_memory_totals_t totals;  // met_memory_evaluate's at the cell's pair
} met_memory_cell_t;
typedef struct met_memory_grid_t {
  size_t nseq, ntok;
  uint64_t sequences[MET_MEMORY_GRID_MAX], tokens[MET_MEMORY_GRID_MAX];
  met_memory_cell_t cells[MET_MEMORY_GRID_MAX][MET_MEMORY_GRID_MAX];  // [sequences][tokens]
  bool found;
  size_t best_i, best_j;
} met_memory_grid_t;
// Fills |grid|'s cells from its axes (set by the caller). MET_EINVAL for an empty or too
// long axis; met_memory_evaluate's status otherwise (|*overflow_term| names the term).
met_status_t met_memory_grid(const met_memory_terms_t *terms, const met_kv_pool_t *pool,
                             const met_driver_terms_t *driver, uint64_t memory_bytes,
                             uint32_t util_ppm, met_memory_grid_t *grid,
                             const char **overflow_term);

// The lines of metrale/memory_fields.def (the report's fields, memory_report.h), by name.
enum {
#define MET_MEMORY_FIELD(name, kind, member, json, attr, table, note) MET_MEMORY_FIELD_INDEX_##name,
#include "metrale/memory_fields.def"
#undef MET_MEMORY_FIELD
  MET_MEMORY_FIELD_COUNT
};
// The name of field |f| as every report spells it, for code that names one field (an
// overflow term, a table's row): a name that is not in memory_fields.def does not build.
// A constant expression (static tables may hold it).
#define MET_MEMORY_FIELD_NAME(f) (MET_MEMORY_FIELD_INDEX_##f >= 0 ? #f : "")

#endif
