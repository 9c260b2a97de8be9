// memory_model.c: assembling the memory model's report (definitions in
// metrale/memory_model.h). Linear in runs + weights + states: weights are merged by name
// through a hash (a LLaMA graph has thousands of weight constants); states, a handful,
// by a scan.
#include "metrale/memory_model.h"

#include <string.h>

#include "metrale/checked.h"

// Appends a zeroed element to the report's array |arr| (count |count|, capacity in the
// model's |cap|), pointing |out| at it.
#define PUSH(m, arr, count, cap, out)                                                    \
  do {                                                                                   \
    MET_RETURN_IF_ERROR(met_arena_reserve((m)->arena, (void **)&(m)->r->arr, &(m)->cap, \
                                          (m)->r->count, sizeof(*(m)->r->arr)));         \
    (out) = &(m)->r->arr[(m)->r->count++];                                               \
    memset((out), 0, sizeof(*(out)));                                                    \
  } while (0)

static met_status_t add(met_memory_model_t *m, uint64_t *acc, uint64_t v, const char *term) {
  if (met_add_u64(*acc, v, acc)) return MET_OK;
  m->overflow_term = term;
  return MET_EOVERFLOW;
}

void met_memory_model_initialize(met_arena_t *arena, met_memory_report_t *r,
                                 met_memory_model_t *m) {
  memset(m, 0, sizeof(*m));
  m->arena = arena;
  m->r = r;
  met_strmap_initialize(arena, &m->weight_names);
  r->complete = true;
}

met_status_t met_memory_model_row(met_memory_model_t *m, const char *name, const char *kind,
                                  const char *loc, uint64_t stored, uint64_t derived,
                                  uint64_t activations, uint64_t workspace, uint64_t state) {
  if (!name) return MET_ENOMEM;  // a name that could not be formatted
  met_memory_row_t *row;
  PUSH(m, rows, row_count, cap_rows, row);
  *row = (met_memory_row_t){name, kind, loc, stored, derived, activations, workspace, state};
  return MET_OK;
}

met_status_t met_memory_model_run(met_memory_model_t *m, const char *name,
                                  const met_budget_report_t *budget,
                                  const met_function_memory_t *fm, met_memory_run_t **out) {
  met_memory_report_t *r = m->r;
  met_memory_run_t *run;
  PUSH(m, runs, run_count, cap_runs, run);
  *run = (met_memory_run_t){name, fm->run_arena, budget->budget.arena_bytes,
                            budget->budget.materialized_bytes, fm->bufferized,
                            fm->allocated_peak,
                            fm->bufferized ? fm->allocated_peak : fm->run_arena};
  if (!budget->complete) r->complete = false;
  if (run->charged > r->terms.activations || !r->peak_run) {
    r->terms.activations = run->charged;
    r->peak_run = name;
  }
  if (run->arena > r->terms.activations_planned) r->terms.activations_planned = run->arena;
  met_memory_model_families(m, fm);
  if (fm->derived_bytes) {
    MET_RETURN_IF_ERROR(add(m, &r->terms.weights_derived, fm->derived_bytes,
                            MET_MEMORY_FIELD_NAME(weights_derived)));
    MET_RETURN_IF_ERROR(met_memory_model_row(
        m, met_arena_printf(m->arena, "load-time subgraphs of @%s", name), "hoisted", NULL, 0,
        fm->derived_bytes, 0, 0, 0));
  }
  if (out) *out = run;
  return MET_OK;
}

void met_memory_model_families(met_memory_model_t *m, const met_function_memory_t *fm) {
  for (int f = 0; f < MET_FAMILY_COUNT; ++f)
    if (fm->family_node[f] >= 0 && fm->family_bytes[f] > m->r->workspace_family[f])
      m->r->workspace_family[f] = fm->family_bytes[f];
}

// |stored| x |part| / |whole| (|part| <= |whole|), exact in 128 bits; |stored| when whole
// is 0.
static uint64_t share(uint64_t stored, uint64_t part, uint64_t whole) {
  if (!whole) return part ? stored : 0;
  return (uint64_t)((unsigned __int128)stored * (part < whole ? part : whole) / whole);
}

void met_memory_model_weight_use(const met_budget_report_t *budget,
                                 const met_function_memory_t *fm, uint32_t value,
                                 uint64_t ir_bytes, bool hoists, met_memory_weight_t *w) {
  w->uses = fm->param_uses[value];
  w->outside = budget->use_count[value] == 0;
  w->leaked = hoists && !w->outside && w->uses == 0;
  w->replaced = hoists && fm->replaced_bytes && !w->outside
                    ? (w->uses == 0 ? w->stored : share(w->stored, fm->replaced_bytes[value], ir_bytes))
                    : 0;
}

// A weight met by name merges with the first weight of that name (named or not: a named
// weight may meet one indexed before it); every weight is indexed by its name, the first
// of a name kept (lib/strmap.c).
met_status_t met_memory_model_weight(met_memory_model_t *m, const met_memory_weight_t *w,
                                     bool by_name) {
  met_memory_report_t *r = m->r;
  if (r->weight_count >= UINT32_MAX - 1) return MET_EOVERFLOW;
  size_t len = strlen(w->name);
  size_t at = by_name ? met_strmap_get(&m->weight_names, NULL, w->name, len) : SIZE_MAX;
  if (at != SIZE_MAX) {
    met_memory_weight_t *e = &r->weights[at];
    if (e->stored != w->stored) {
      m->conflict_bytes = e->stored;
      return MET_EINVAL;
    }
    e->uses += w->uses;  // the same weight in another run: counted once
    e->outside = e->outside && w->outside;
    e->leaked = e->leaked && w->leaked;
    if (w->replaced < e->replaced) e->replaced = w->replaced;
    return MET_OK;
  }
  met_memory_weight_t *e;
  PUSH(m, weights, weight_count, cap_weights, e);
  *e = *w;
  // The name is the weight's own (kept in the arena), which the map borrows.
  return met_strmap_put(&m->weight_names, NULL, e->name, len, r->weight_count - 1, NULL);
}

met_status_t met_memory_model_state(met_memory_model_t *m, const char *name, uint64_t bytes,
                                    const char *loc) {
  met_memory_report_t *r = m->r;
  for (size_t i = 0; i < r->state_count; ++i) {
    if (strcmp(r->states[i].name, name)) continue;
    if (r->states[i].bytes != bytes) {
      m->conflict_bytes = r->states[i].bytes;
      return MET_EINVAL;
    }
    return MET_OK;
  }
  met_memory_state_t *s;
  PUSH(m, states, state_count, cap_states, s);
  *s = (met_memory_state_t){name, bytes};
  MET_RETURN_IF_ERROR(add(m, &r->terms.states, bytes, MET_MEMORY_FIELD_NAME(states)));
  return met_memory_model_row(m, met_arena_printf(m->arena, "state %s", name), "state", loc,
                              0, 0, 0, 0, bytes);
}

met_status_t met_memory_model_cache(met_memory_model_t *m, const met_memory_cache_t *c) {
  met_memory_report_t *r = m->r;
  met_memory_cache_t *e;
  PUSH(m, caches, cache_count, cap_caches, e);
  *e = *c;
  if (!met_mul_u64(c->units, c->unit_bytes, &e->bytes)) {
    e->bytes = 0;
    m->overflow_term = MET_MEMORY_CACHE_PRODUCT;
    return MET_EOVERFLOW;
  }
  if (c->host) return add(m, &r->terms.caches_host, e->bytes, MET_MEMORY_FIELD_NAME(caches_host));
  MET_RETURN_IF_ERROR(add(m, &r->terms.caches_device, e->bytes,
                          MET_MEMORY_FIELD_NAME(caches_device)));
  return met_memory_model_row(m, met_arena_printf(m->arena, "cache %s", c->name), "state",
                              NULL, 0, 0, 0, 0, e->bytes);
}

met_status_t met_memory_model_finish(met_memory_model_t *m) {
  met_memory_report_t *r = m->r;
  met_memory_terms_t *t = &r->terms;
  for (int f = 0; f < MET_FAMILY_COUNT; ++f) {
    if (!r->workspace_family[f]) continue;
    MET_RETURN_IF_ERROR(add(m, &t->workspace, r->workspace_family[f],
                            MET_MEMORY_FIELD_NAME(workspace)));
    MET_RETURN_IF_ERROR(met_memory_model_row(
        m, met_arena_printf(m->arena, "%s workspace", met_family_name((met_family_t)f)),
        "workspace", NULL, 0, 0, 0, r->workspace_family[f], 0));
  }
  for (size_t i = 0; i < r->weight_count; ++i) {
    const met_memory_weight_t *w = &r->weights[i];
    // What stays resident: on a replacing target, the part of the weight (and of its served
    // copy) that runs still read.
    uint64_t gone = m->replace_sources && w->replaced <= w->stored ? w->replaced : 0;
    uint64_t served = w->served - share(w->served, gone, w->stored);
    MET_RETURN_IF_ERROR(add(m, &t->weights_stored, w->stored,
                            MET_MEMORY_FIELD_NAME(weights_stored)));
    MET_RETURN_IF_ERROR(add(m, &t->weights_replaced, gone,
                            MET_MEMORY_FIELD_NAME(weights_replaced)));
    MET_RETURN_IF_ERROR(add(m, &t->weights_derived, served,
                            MET_MEMORY_FIELD_NAME(weights_derived)));
    if (w->outside) MET_RETURN_IF_ERROR(add(m, &t->weights_outside, w->stored,
                            MET_MEMORY_FIELD_NAME(weights_outside)));
    if (w->leaked && !m->replace_sources)
      MET_RETURN_IF_ERROR(add(m, &t->weights_leaked, w->stored,
                              MET_MEMORY_FIELD_NAME(weights_leaked)));
    if (w->stored - gone == 0 && served == 0) continue;  // all replaced: nothing resident
    MET_RETURN_IF_ERROR(met_memory_model_row(
        m, met_arena_printf(m->arena, "weight %s", w->name), "weight", NULL, w->stored - gone,
        served, 0, 0, 0));
  }
  return MET_OK;
}
