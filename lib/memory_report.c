// memory_report.c: JSON and text renderings of a met_memory_report_t.
#include "metrale/memory_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#define MET_MEMORY_CTYPE_BYTES uint64_t
#define MET_MEMORY_CTYPE_COUNT uint64_t
#define MET_MEMORY_CTYPE_SIGNED int64_t
#define MET_MEMORY_CTYPE_BOOL bool
static const met_memory_field_t kFields[] = {
#define MET_MEMORY_FIELD(name, kind, member, json, attr, table, note)                   \
  {#name, MET_MFIELD_##kind, offsetof(met_memory_report_t, member), json, attr, table, note},
#include "metrale/memory_fields.def"
#undef MET_MEMORY_FIELD
};

// The list's members have the C types its kinds say (checked at compile time).
#define MET_MEMORY_FIELD(name, kind, member, json, attr, table, note)                    \
  _Static_assert(sizeof(((met_memory_report_t *)0)->member) == sizeof(MET_MEMORY_CTYPE_##kind), \
                 #name " has the size of its kind");
#include "metrale/memory_fields.def"
#undef MET_MEMORY_FIELD

const met_memory_field_t *met_memory_fields(size_t *count) {
  *count = sizeof(kFields) / sizeof(kFields[0]);
  return kFields;
}

uint64_t met_memory_field_u64(const met_memory_report_t *r, const met_memory_field_t *f) {
  const char *p = (const char *)r + f->offset;
  if (f->kind == MET_MFIELD_BOOL) return *(const bool *)p;
  uint64_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

int64_t met_memory_field_i64(const met_memory_report_t *r, const met_memory_field_t *f) {
  return (int64_t)met_memory_field_u64(r, f);
}

typedef struct term_t { const char *name; uint64_t bytes; } term_t;

static size_t device_terms(const met_memory_report_t *r, term_t *out) {
  const met_memory_terms_t *t = &r->terms;
  term_t all[] = {{"weights", t->weights_stored - t->weights_replaced},  // what stays resident
                  {MET_MEMORY_FIELD_NAME(weights_derived), t->weights_derived},
                  {MET_MEMORY_FIELD_NAME(activations), t->activations},
                  {MET_MEMORY_FIELD_NAME(workspace), t->workspace},
                  {MET_MEMORY_FIELD_NAME(states), t->states},
                  {MET_MEMORY_FIELD_NAME(kv), r->totals.kv_bytes},
                  {MET_MEMORY_FIELD_NAME(caches_device), t->caches_device},
                  {MET_MEMORY_FIELD_NAME(driver), r->totals.driver_bytes}};
  memcpy(out, all, sizeof(all));
  return sizeof(all) / sizeof(all[0]);
}

static int by_bytes_desc(const void *a, const void *b) {
  const term_t *x = a, *y = b;
  return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : strcmp(x->name, y->name);
}

void met_memory_report_largest(met_strbuf_t *sb, const met_memory_report_t *r, int count) {
  term_t terms[8];
  size_t n = device_terms(r, terms);
  qsort(terms, n, sizeof(term_t), by_bytes_desc);
  for (int i = 0; i < count && (size_t)i < n && terms[i].bytes; ++i) {
    met_strbuf_printf(sb, "%s%s ", i ? ", " : "", terms[i].name);
    met_report_bytes(sb, terms[i].bytes);
  }
}

static void json_str_field(met_strbuf_t *sb, const char *key, const char *v, bool comma) {
  met_strbuf_printf(sb, "%s\"%s\": ", comma ? ", " : "", key);
  if (v) met_strbuf_json_string(sb, v);
  else MET_STRBUF_LIT(sb, "null");
}

// What fits by sequences x tokens (met_memory_grid_t), or null.
static void json_grid(met_strbuf_t *sb, const met_memory_grid_t *g) {
  if (!g) {
    MET_STRBUF_LIT(sb, "null");
    return;
  }
  MET_STRBUF_LIT(sb, "{\"sequences\": [");
  for (size_t i = 0; i < g->nseq; ++i) met_strbuf_printf(sb, "%s%" PRIu64, i ? ", " : "", g->sequences[i]);
  MET_STRBUF_LIT(sb, "], \"tokens\": [");
  for (size_t j = 0; j < g->ntok; ++j) met_strbuf_printf(sb, "%s%" PRIu64, j ? ", " : "", g->tokens[j]);
  MET_STRBUF_LIT(sb, "], \"cells\": [");
  for (size_t i = 0; i < g->nseq; ++i) {
    met_strbuf_printf(sb, "%s[", i ? ", " : "");
    for (size_t j = 0; j < g->ntok; ++j) {
      const met_memory_totals_t *c = &g->cells[i][j].totals;
      met_strbuf_printf(sb, "%s{\"kv_bytes\": %" PRIu64 ", \"device_bytes\": %" PRIu64
                        ", \"headroom_bytes\": %" PRId64 ", \"fits\": %s}", j ? ", " : "",
                        c->kv_bytes, c->device_bytes, c->headroom_bytes,
                        c->fits ? "true" : "false");
    }
    MET_STRBUF_LIT(sb, "]");
  }
  MET_STRBUF_LIT(sb, "], \"largest\": ");
  if (g->found)
    met_strbuf_printf(sb, "{\"sequences\": %" PRIu64 ", \"tokens\": %" PRIu64 "}}",
                      g->sequences[g->best_i], g->tokens[g->best_j]);
  else
    MET_STRBUF_LIT(sb, "null}");
}

// The grid as a table: each cell its headroom ("over" and the excess where it does not
// fit), then the largest pair that fits.
static void text_grid(met_strbuf_t *sb, const met_memory_grid_t *g, uint64_t budget) {
  MET_STRBUF_LIT(sb, "what fits: headroom by sequences x tokens (budget ");
  met_report_bytes(sb, budget);
  MET_STRBUF_LIT(sb, ")\n  sequences \\ tokens");
  for (size_t j = 0; j < g->ntok; ++j) met_strbuf_printf(sb, " %14" PRIu64, g->tokens[j]);
  MET_STRBUF_LIT(sb, "\n");
  for (size_t i = 0; i < g->nseq; ++i) {
    met_strbuf_printf(sb, "  %-20" PRIu64, g->sequences[i]);
    for (size_t j = 0; j < g->ntok; ++j) {
      const met_memory_totals_t *c = &g->cells[i][j].totals;
      met_strbuf_t cell;
      met_strbuf_initialize(met_allocator_system(), &cell);
      if (!c->fits) MET_STRBUF_LIT(&cell, "over ");
      met_report_bytes(&cell, c->headroom_bytes < 0 ? (uint64_t)0 - (uint64_t)c->headroom_bytes
                                                    : (uint64_t)c->headroom_bytes);
      if (cell.status) sb->status = cell.status;
      met_strbuf_printf(sb, " %14s", cell.data ? cell.data : "");
      met_strbuf_deinitialize(&cell);
    }
    MET_STRBUF_LIT(sb, "\n");
  }
  if (g->found)
    met_strbuf_printf(sb, "  largest that fits: %" PRIu64 " sequences x %" PRIu64 " tokens\n",
                      g->sequences[g->best_i], g->tokens[g->best_j]);
  else
    MET_STRBUF_LIT(sb, "  largest that fits: none\n");
}

void met_memory_report_json(met_strbuf_t *sb, const met_target_t *target,
                            const met_memory_report_t *r) {
  MET_STRBUF_LIT(sb, "{\"target\": ");
  met_report_json_target(sb, target);
  met_strbuf_printf(sb,
                    ",\n \"parameters\": {\"util_ppm\": %u, \"sequences\": %" PRIu64
                    ", \"tokens\": %" PRIu64 "},\n",
                    r->util_ppm, r->sequences, r->tokens);
  MET_STRBUF_LIT(sb, " \"totals\": {");
  size_t nf;
  const met_memory_field_t *fields = met_memory_fields(&nf);
  for (size_t i = 0, k = 0; i < nf; ++i) {
    const met_memory_field_t *f = &fields[i];
    if (!f->json) continue;
    met_strbuf_printf(sb, "%s\"%s\": ", k++ ? ", " : "", f->name);
    if (f->kind == MET_MFIELD_BOOL)
      met_strbuf_printf(sb, "%s", met_memory_field_u64(r, f) ? "true" : "false");
    else if (f->kind == MET_MFIELD_SIGNED)
      met_strbuf_printf(sb, "%" PRId64, met_memory_field_i64(r, f));
    else
      met_strbuf_printf(sb, "%" PRIu64, met_memory_field_u64(r, f));
  }
  MET_STRBUF_LIT(sb, "},\n");
  MET_STRBUF_LIT(sb, " \"inverse\": {");
  if (r->asked_max_sequences) {
    if (r->max_sequences_found)
      met_strbuf_printf(sb, "\"max_sequences\": %" PRIu64, r->max_sequences);
    else
      MET_STRBUF_LIT(sb, "\"max_sequences\": \"none\"");
  }
  if (r->asked_max_tokens) {
    if (r->asked_max_sequences) MET_STRBUF_LIT(sb, ", ");
    if (r->max_tokens_found)
      met_strbuf_printf(sb, "\"max_tokens\": %" PRIu64, r->max_tokens);
    else
      MET_STRBUF_LIT(sb, "\"max_tokens\": \"none\"");
  }
  MET_STRBUF_LIT(sb, "},\n \"grid\": ");
  json_grid(sb, r->grid);
  MET_STRBUF_LIT(sb, ",\n \"kv_pool\": ");
  if (!r->pool.present) {
    MET_STRBUF_LIT(sb, "null");
  } else {
    met_strbuf_printf(sb,
                      "{\"layers\": %" PRIu64 ", \"kv_heads\": %" PRIu64 ", \"head_dim\": %" PRIu64
                      ", \"block_size\": %" PRIu64 ", \"kv_bits\": %u, \"missing\": %u}",
                      r->pool.layers, r->pool.kv_heads, r->pool.head_dim, r->pool.block_size,
                      r->pool.kv_bits, r->kv_missing);
  }
  MET_STRBUF_LIT(sb, ",\n \"runs\": [");
  for (size_t i = 0; i < r->run_count; ++i) {
    const met_memory_run_t *u = &r->runs[i];
    if (i) MET_STRBUF_LIT(sb, ", ");
    MET_STRBUF_LIT(sb, "{");
    json_str_field(sb, "name", u->name, false);
    met_strbuf_printf(sb,
                      ", \"arena\": %" PRIu64 ", \"budget_arena\": %" PRIu64
                    ", \"materialized\": %" PRIu64
                      ", \"bufferized\": %s, \"allocated_peak\": %" PRIu64 ", \"charged\": %" PRIu64
                      "}",
                      u->arena, u->budget_arena, u->materialized, u->bufferized ? "true" : "false",
                      u->allocated_peak, u->charged);
  }
  met_strbuf_printf(sb, "],\n \"workspaces\": {\"matmul\": %" PRIu64 ", \"conv\": %" PRIu64
                    ", \"softmax\": %" PRIu64 ", \"reduction\": %" PRIu64 "},\n \"weights\": [",
                    r->workspace_family[0], r->workspace_family[1], r->workspace_family[2],
                    r->workspace_family[3]);
  for (size_t i = 0; i < r->weight_count; ++i) {
    const met_memory_weight_t *w = &r->weights[i];
    if (i) MET_STRBUF_LIT(sb, ", ");
    MET_STRBUF_LIT(sb, "{");
    json_str_field(sb, "name", w->name, false);
    json_str_field(sb, "format", w->format, true);
    met_strbuf_printf(sb, ", \"stored\": %" PRIu64 ", \"served\": %" PRIu64
                      ", \"uses\": %u, \"outside\": %s, \"leaked\": %s, \"replaced\": %" PRIu64
                      "}",
                      w->stored, w->served, w->uses, w->outside ? "true" : "false",
                      w->leaked ? "true" : "false", w->replaced);
  }
  MET_STRBUF_LIT(sb, "],\n \"states\": [");
  for (size_t i = 0; i < r->state_count; ++i) {
    if (i) MET_STRBUF_LIT(sb, ", ");
    MET_STRBUF_LIT(sb, "{");
    json_str_field(sb, "name", r->states[i].name, false);
    met_strbuf_printf(sb, ", \"bytes\": %" PRIu64 "}", r->states[i].bytes);
  }
  MET_STRBUF_LIT(sb, "],\n \"caches\": [");
  for (size_t i = 0; i < r->cache_count; ++i) {
    const met_memory_cache_t *c = &r->caches[i];
    if (i) MET_STRBUF_LIT(sb, ", ");
    MET_STRBUF_LIT(sb, "{");
    json_str_field(sb, "name", c->name, false);
    met_strbuf_printf(sb, ", \"units\": %" PRIu64 ", \"unit_bytes\": %" PRIu64
                      ", \"bytes\": %" PRIu64 ", \"where\": \"%s\"}",
                      c->units, c->unit_bytes, c->bytes, c->host ? "host" : "device");
  }
  MET_STRBUF_LIT(sb, "],\n \"nodes\": [");
  for (size_t i = 0; i < r->row_count; ++i) {
    const met_memory_row_t *w = &r->rows[i];
    if (i) MET_STRBUF_LIT(sb, ",");
    MET_STRBUF_LIT(sb, "\n  {");
    json_str_field(sb, "name", w->name, false);
    json_str_field(sb, "kind", w->kind, true);
    json_str_field(sb, "loc", w->loc, true);
    met_strbuf_printf(sb, ", \"stored\": %" PRIu64 ", \"derived\": %" PRIu64
                      ", \"activations\": %" PRIu64 ", \"workspace\": %" PRIu64
                      ", \"state\": %" PRIu64 "}",
                      w->stored, w->derived, w->activations, w->workspace, w->state);
  }
  MET_STRBUF_LIT(sb, "]}\n");
}

static void line(met_strbuf_t *sb, const char *label, uint64_t v, const char *note) {
  met_strbuf_printf(sb, "  %-22s %16" PRIu64 "  ", label, v);
  size_t before = sb->len;
  met_report_bytes(sb, v);
  for (size_t w = sb->len - before; w < 11; ++w) MET_STRBUF_LIT(sb, " ");
  if (note) met_strbuf_printf(sb, " %s", note);
  MET_STRBUF_LIT(sb, "\n");
}

static uint64_t row_total(const met_memory_row_t *w) {
  return w->stored + w->derived + w->activations + w->workspace + w->state;
}

static int row_desc(const void *a, const void *b) {
  uint64_t x = row_total(*(const met_memory_row_t *const *)a);
  uint64_t y = row_total(*(const met_memory_row_t *const *)b);
  return x < y ? 1 : x > y ? -1 : 0;
}

void met_memory_report_text(met_strbuf_t *sb, const met_target_t *target,
                            const met_memory_report_t *r, size_t max_rows) {
  const met_memory_totals_t *x = &r->totals;
  met_strbuf_printf(sb, "memory on %s (", target->name);
  met_report_bytes(sb, target->memory_bytes);
  met_strbuf_printf(sb, " x util %.3f; residency %s)", r->util_ppm / 1e6,
                    met_residency_name(target->residency));
  if (r->pool.present && !r->kv_missing)
    met_strbuf_printf(sb, ", %" PRIu64 " sequences x %" PRIu64 " tokens", r->sequences, r->tokens);
  MET_STRBUF_LIT(sb, "\n");
  size_t nf;
  const met_memory_field_t *fields = met_memory_fields(&nf);
  for (size_t i = 0; i < nf; ++i) {
    const met_memory_field_t *f = &fields[i];
    if (!f->table || f->kind == MET_MFIELD_SIGNED) continue;  // headroom: its own line below
    const char *note = f->note;
    if (!strcmp(f->name, MET_MEMORY_FIELD_NAME(activations))) note = r->peak_run ? r->peak_run : "";
    else if (!strcmp(f->name, MET_MEMORY_FIELD_NAME(kv)))
      note = r->pool.present ? "paged KV pool" : "no KV pool declared";
    line(sb, f->name, met_memory_field_u64(r, f), note);
  }
  met_strbuf_printf(sb, "  %-22s %16" PRId64 "  ", "headroom", x->headroom_bytes);
  met_report_bytes(sb, x->headroom_bytes < 0 ? (uint64_t)0 - (uint64_t)x->headroom_bytes
                                              : (uint64_t)x->headroom_bytes);
  // Over a lower bound, "fits" is not a verdict: say so on the same line.
  met_strbuf_printf(sb, "%s  %s%s\n", x->headroom_bytes < 0 ? " over" : "",
                    x->fits ? "fits" : "DOES NOT FIT",
                    r->complete ? "" : x->fits ? " (INCOMPLETE: terms are lower bounds, it may not fit)"
                                               : " (INCOMPLETE: terms are lower bounds)");
  if (r->asked_max_sequences) {
    if (r->max_sequences_found)
      met_strbuf_printf(sb, "  sequences of %" PRIu64 " tokens that fit: %" PRIu64 "\n", r->tokens,
                        r->max_sequences);
    else
      met_strbuf_printf(sb, "  sequences of %" PRIu64 " tokens that fit: none\n", r->tokens);
  }
  if (r->asked_max_tokens) {
    if (r->max_tokens_found)
      met_strbuf_printf(sb, "  longest sequence at %" PRIu64 " sequences: %" PRIu64 " tokens\n",
                        r->sequences, r->max_tokens);
    else
      met_strbuf_printf(sb, "  longest sequence at %" PRIu64 " sequences: none\n", r->sequences);
  }
  if (r->grid) text_grid(sb, r->grid, x->budget_bytes);
  if (r->run_count) MET_STRBUF_LIT(sb, "runs\n");
  for (size_t i = 0; i < r->run_count; ++i) {
    const met_memory_run_t *u = &r->runs[i];
    met_strbuf_printf(sb, "  @%-21s arena ", u->name);
    met_report_bytes(sb, u->arena);
    if (u->allocated_peak) {
      if (u->bufferized) MET_STRBUF_LIT(sb, ", charged its own allocations' peak ");
      else MET_STRBUF_LIT(sb, ", its explicit allocations peak at ");
      met_report_bytes(sb, u->allocated_peak);
    }
    MET_STRBUF_LIT(sb, "\n");
  }
  if (!r->row_count) return;
  const met_memory_row_t **order = malloc(r->row_count * sizeof(*order));
  if (!order) { sb->status = MET_ENOMEM; return; }
  for (size_t i = 0; i < r->row_count; ++i) order[i] = &r->rows[i];
  qsort(order, r->row_count, sizeof(*order), row_desc);
  size_t n = max_rows && max_rows < r->row_count ? max_rows : r->row_count;
  met_strbuf_printf(sb, "largest nodes (%zu of %zu)\n", n, r->row_count);
  for (size_t i = 0; i < n; ++i) {
    met_strbuf_printf(sb, "  %-10s ", order[i]->kind);
    met_report_bytes(sb, row_total(order[i]));
    met_strbuf_printf(sb, "  %s%s%s\n", order[i]->name, order[i]->loc ? " at " : "",
                      order[i]->loc ? order[i]->loc : "");
  }
  free(order);
}
