// tools/metrale_sweep.c: the sweeps of `metrale budget|memory|dispatch` (cli.h): one run of
// a pass per (model, target) with the command's options, and its rows of CSV (RFC 4180),
// one per function with every field of the report.
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrale/options.h"
#include "metrale/plan_svg.h"
#include "metrale/passes.h"
#include "metrale/report.h"
#include "cli.h"

// One CSV cell (RFC 4180: quoted when it holds a comma, a quote or a line break).
static void csv_cell(met_strbuf_t *sb, const char *s, bool first) {
  if (!first) MET_STRBUF_LIT(sb, ",");
  if (!s) s = "";
  if (!strpbrk(s, ",\"\r\n")) { met_strbuf_cstr(sb, s); return; }
  MET_STRBUF_LIT(sb, "\"");
  for (const char *p = s; *p; ++p) {
    if (*p == '"') MET_STRBUF_LIT(sb, "\"");
    met_strbuf_append(sb, p, 1);
  }
  MET_STRBUF_LIT(sb, "\"");
}

static void csv_u64(met_strbuf_t *sb, uint64_t v) {
  MET_STRBUF_LIT(sb, ",");
  met_strbuf_u64(sb, v);
}

void cli_csv_header(met_strbuf_t *sb, unsigned pass) {
  csv_cell(sb, "model", true);
  csv_cell(sb, "target", false);
  csv_cell(sb, "function", false);
  csv_cell(sb, "error", false);
  size_t n;
  if (pass == MET_PASS_BUDGET) {
    const met_budget_field_t *f = met_budget_fields(&n);
    for (size_t k = 0; k < n; ++k) csv_cell(sb, f[k].name, false);
  } else if (pass == MET_PASS_MEMORY) {
    const met_memory_field_t *f = met_memory_fields(&n);  // "complete" is one of them
    for (size_t k = 0; k < n; ++k) csv_cell(sb, f[k].name, false);
    MET_STRBUF_LIT(sb, "\n");
    return;
  } else {
    const met_dispatch_field_t *f = met_dispatch_fields(&n);
    for (size_t k = 0; k < n; ++k) csv_cell(sb, f[k].name, false);
  }
  csv_cell(sb, "complete", false);
  MET_STRBUF_LIT(sb, "\n");
}

// |t|: the target the row was computed for (NULL: the one asked for, if any).
static void csv_start(sweep_t *w, const met_target_t *t, const char *function,
                      const char *error) {
  csv_cell(w->csv, w->model, true);
  csv_cell(w->csv, t ? t->name : w->target ? w->target : "", false);
  csv_cell(w->csv, function, false);
  csv_cell(w->csv, error, false);
  ++w->rows;
}

// A row with only an error: the model or the run failed before any function's row.
void cli_csv_error_row(sweep_t *w, unsigned pass, const char *error) {
  size_t n;
  if (pass == MET_PASS_BUDGET) met_budget_fields(&n);
  else if (pass == MET_PASS_MEMORY) met_memory_fields(&n);
  else met_dispatch_fields(&n);
  csv_start(w, NULL, "", error);
  // Every field empty, and the complete column (the memory model's is one of its fields).
  for (size_t k = 0; k < n + (pass != MET_PASS_MEMORY); ++k) MET_STRBUF_LIT(w->csv, ",");
  MET_STRBUF_LIT(w->csv, "\n");
}

static void on_budget_row(void *user, const met_target_t *t, const char *name,
                          const met_budget_t *b, bool complete, const char *error) {
  sweep_t *w = user;
  if (!w->csv) return;
  size_t n;
  const met_budget_field_t *f = met_budget_fields(&n);
  csv_start(w, t, name, error);
  for (size_t k = 0; k < n; ++k) {
    if (!b) MET_STRBUF_LIT(w->csv, ",");
    else if (f[k].kind == MET_FIELD_POLICY) csv_cell(w->csv, met_width_policy_name(b->width_policy), false);
    else csv_u64(w->csv, met_budget_field_u64(b, &f[k]));
  }
  csv_cell(w->csv, b ? (complete ? "true" : "false") : "", false);
  MET_STRBUF_LIT(w->csv, "\n");
}

static void on_memory_row(void *user, const met_target_t *t, const met_memory_report_t *r) {
  sweep_t *w = user;
  if (w->svg && !w->svg->len && w->svg_target) (void)met_memory_svg(w->svg, w->svg_target, r);
  if (!w->csv) return;
  size_t n;
  const met_memory_field_t *f = met_memory_fields(&n);
  csv_start(w, t, "", NULL);
  for (size_t k = 0; k < n; ++k) {
    if (f[k].kind == MET_MFIELD_BOOL) {
      csv_cell(w->csv, met_memory_field_u64(r, &f[k]) ? "true" : "false", false);
    } else if (f[k].kind == MET_MFIELD_SIGNED) {
      met_strbuf_printf(w->csv, ",%" PRId64, met_memory_field_i64(r, &f[k]));
    } else {
      csv_u64(w->csv, met_memory_field_u64(r, &f[k]));
    }
  }
  MET_STRBUF_LIT(w->csv, "\n");
}

static void on_dispatch_row(void *user, const met_target_t *t, MlirOperation func,
                            const char *name,
                            const met_dispatch_stats_t *s, const met_budget_t *budget,
                            bool complete, const uint8_t *resident, size_t nargs,
                            const char *error) {
  (void)func, (void)budget, (void)resident, (void)nargs;
  sweep_t *w = user;
  if (!w->csv) return;
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  csv_start(w, t, name, error);
  for (size_t k = 0; k < n; ++k) {
    if (!s) MET_STRBUF_LIT(w->csv, ",");
    else if (f[k].kind == MET_DFIELD_BOOL) csv_cell(w->csv, met_dispatch_field_u64(s, &f[k]) ? "true" : "false", false);
    else csv_u64(w->csv, met_dispatch_field_u64(s, &f[k]));
  }
  csv_cell(w->csv, s ? (complete ? "true" : "false") : "", false);
  MET_STRBUF_LIT(w->csv, "\n");
}

struct cli_once_key_t {
  const void *loc;          // a location is uniqued: its pointer is it
  met_diag_severity_t sev;
  uint64_t hash;
  const char *msg;          // in the filter's arena
  size_t last_run, runs;    // the last run that gave it, and how many did
};

struct cli_once_item_t {
  MlirLocation loc;
  met_diag_severity_t sev;
  uint32_t key;
  size_t run;
};

static uint64_t once_hash(const void *loc, met_diag_severity_t sev, const char *msg) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)loc ^ ((uint64_t)sev << 56);
  for (const unsigned char *p = (const unsigned char *)msg; *p; ++p) h = (h ^ *p) * 1099511628211ull;
  return h ^ (h >> 31);
}

void cli_once_initialize(cli_once_t *f, met_diag_fn_t fn, void *user, bool remarks) {
  memset(f, 0, sizeof(*f));
  f->fn = fn;
  f->user = user;
  f->remarks = remarks;
  met_arena_initialize(met_allocator_system(), &f->arena);
}

static void once_forget(cli_once_t *f) {
  if (f->spill) fclose(f->spill);
  f->spill = NULL;
  f->spilled = 0;
  f->spill_failed = false;
  met_arena_deinitialize(&f->arena);
  met_arena_initialize(met_allocator_system(), &f->arena);
  f->count = f->nkeys = f->runs = 0;
  if (f->table) memset(f->table, 0xff, f->tcap * sizeof(*f->table));
}

void cli_once_deinitialize(cli_once_t *f) {
  if (f->spill) fclose(f->spill);
  met_arena_deinitialize(&f->arena);
  free(f->items);
  free(f->keys);
  free(f->table);
  free(f->text_end);
  memset(f, 0, sizeof(*f));
}

// Grows |*p| (|*cap| elements of |size| bytes) to hold |need|. False when it cannot.
static bool once_grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return true;
  size_t ncap = *cap ? *cap : 16;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2) return false;
    ncap *= 2;
  }
  if (ncap > SIZE_MAX / size) return false;
  void *n = realloc(*p, ncap * size);
  if (!n) return false;
  *p = n;
  *cap = ncap;
  return true;
}

static uint32_t *once_slot(cli_once_t *f, const void *loc, met_diag_severity_t sev, uint64_t h,
                           const char *msg) {
  for (size_t i = h & (f->tcap - 1);; i = (i + 1) & (f->tcap - 1)) {
    uint32_t k = f->table[i];
    if (k == UINT32_MAX) return &f->table[i];
    const cli_once_key_t *e = &f->keys[k];
    if (e->loc == loc && e->sev == sev && e->hash == h && !strcmp(e->msg, msg)) return &f->table[i];
  }
}

static met_status_t once_hold(cli_once_t *f, MlirLocation loc, met_diag_severity_t sev,
                              const char *msg) {
  const void *lk = loc.ptr ? loc.ptr : (const void *)f;  // no location: one key of its own
  uint64_t h = once_hash(lk, sev, msg);
  if (2 * (f->nkeys + 1) > f->tcap) {
    size_t ncap = f->tcap ? 2 * f->tcap : 64;
    uint32_t *n = ncap < SIZE_MAX / sizeof(*n) ? malloc(ncap * sizeof(*n)) : NULL;
    if (!n) return MET_ENOMEM;
    memset(n, 0xff, ncap * sizeof(*n));
    free(f->table);
    f->table = n;
    f->tcap = ncap;
    for (size_t k = 0; k < f->nkeys; ++k)
      *once_slot(f, f->keys[k].loc, f->keys[k].sev, f->keys[k].hash, f->keys[k].msg) = (uint32_t)k;
  }
  if (!once_grow((void **)&f->items, &f->cap, f->count + 1, sizeof(*f->items)))
    return MET_ENOMEM;
  uint32_t *slot = once_slot(f, lk, sev, h, msg);
  if (*slot == UINT32_MAX) {
    if (f->nkeys >= UINT32_MAX - 1 ||
        !once_grow((void **)&f->keys, &f->kcap, f->nkeys + 1, sizeof(*f->keys)))
      return MET_ENOMEM;
    char *copy = met_arena_strndup(&f->arena, msg, strlen(msg));
    if (!copy) return MET_ENOMEM;
    f->keys[f->nkeys] = (cli_once_key_t){lk, sev, h, copy, f->runs, 1};
    *slot = (uint32_t)f->nkeys++;
  } else if (f->keys[*slot].last_run != f->runs) {
    f->keys[*slot].last_run = f->runs;
    f->keys[*slot].runs++;
  }
  f->items[f->count++] = (cli_once_item_t){loc, sev, *slot, f->runs};
  return MET_OK;
}

void cli_once_diag(void *user, MlirLocation loc, met_diag_severity_t sev, const char *msg) {
  cli_once_t *f = user;
  if (sev == MET_DIAG_REMARK && !f->remarks) return;  // neither printed nor logged
  if (once_hold(f, loc, sev, msg)) f->fn(f->user, loc, sev, msg);  // cannot hold it: now
}

void cli_once_end_run(cli_once_t *f, met_strbuf_t *text, size_t head_len, FILE *out) {
  bool recorded = once_grow((void **)&f->text_end, &f->rcap, f->runs + 1, sizeof(*f->text_end));
  bool held = false;
  if (text->len && !f->spill_failed) {
    if (!f->spill) f->spill = tmpfile();
    held = f->spill && fwrite(text->data, 1, text->len, f->spill) == text->len;
    f->spill_failed = !held;  // a short write leaves bytes no run owns: the file is done
  }
  if (text->len && !held) {
    // Cannot hold it: it goes out now, ahead of the diagnostics it would have followed.
    fwrite(text->data, 1, text->len, out);
    fflush(out);
  }
  // Not recorded (out of memory): the run's text and diagnostics go with the next run's.
  if (recorded) {
    f->text_end[f->runs][0] = f->spilled + (held ? head_len : 0);
    f->text_end[f->runs][1] = f->spilled + (held ? text->len : 0);
    f->runs++;
  }
  if (held) f->spilled += text->len;
  text->len = 0;
}

// Copies |spill| from |*at| to |end| to |out|.
static void once_write(cli_once_t *f, FILE *out, uint64_t *at, uint64_t end) {
  if (!f->spill || end <= *at) return;
  char buf[1 << 15];
  uint64_t left = end - *at;
  while (left) {
    size_t n = fread(buf, 1, left < sizeof(buf) ? (size_t)left : sizeof(buf), f->spill);
    if (!n) break;
    fwrite(buf, 1, n, out);
    left -= n;
  }
  *at = end;
  fflush(out);  // before the diagnostics that follow it on the terminal
}

void cli_once_flush(cli_once_t *f, FILE *out) {
  if (f->spill) rewind(f->spill);
  // Every run gave it: the first run's items are written first, the others' dropped.
  #define ONCE_EVERY(it) (f->runs > 1 && f->keys[(it)->key].runs == f->runs)
  for (size_t i = 0; i < f->count && f->items[i].run == 0; ++i)
    if (ONCE_EVERY(&f->items[i]))
      f->fn(f->user, f->items[i].loc, f->items[i].sev, f->keys[f->items[i].key].msg);
  size_t i = 0;
  uint64_t at = 0;
  for (size_t r = 0; r <= f->runs; ++r) {
    if (r < f->runs) once_write(f, out, &at, f->text_end[r][0]);
    for (; i < f->count && f->items[i].run == r; ++i) {
      const cli_once_item_t *it = &f->items[i];
      if (!ONCE_EVERY(it)) f->fn(f->user, it->loc, it->sev, f->keys[it->key].msg);
      else if (r) f->dropped++;
    }
    if (r < f->runs) once_write(f, out, &at, f->text_end[r][1]);
  }
  #undef ONCE_EVERY
  once_forget(f);
}

// One (model, target): the runner of |pass| with the command's options. False on an error.
bool cli_run_pass(cli_opts_t *o, unsigned pass, MlirModule m, const char *target,
                  sweep_t *w, met_strbuf_t *text, met_strbuf_t *jout, bool json_stdout,
                  met_diag_fn_t diag, void *duser) {
  const char *saved = o->text[MET_OPT_target];
  if (target) o->text[MET_OPT_target] = target;
  bool ok;
#define MET_SET_TEXT(opts, member) \
  opts.member = ref(o->text[MET_OPT_##member] ? o->text[MET_OPT_##member] : "");
#define MET_SET_NUM MET_SET_TEXT
#define MET_SET_FLAG_ON(opts, member) opts.member = o->flag[MET_OPT_##member];
#define MET_SET_FLAG_OFF(opts, member) opts.member = o->flag[MET_OPT_##member];
  if (pass == MET_PASS_MEMORY) {
    met_memory_run_options_t mo;
    memset(&mo, 0, sizeof(mo));
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(MEMORY, passes, MET_SET_##kind(mo, member))
#include "metrale/options.def"
#undef MET_OPTION
    mo.on_report = on_memory_row;
    mo.on_report_user = w;
    ok = met_memory_run(mlirModuleGetOperation(m), &mo, diag, duser,
                        json_stdout ? NULL : text, jout);
  } else if (pass == MET_PASS_DISPATCH) {
    met_dispatch_run_options_t dop;
    memset(&dop, 0, sizeof(dop));
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(DISPATCH, passes, MET_SET_##kind(dop, member))
#include "metrale/options.def"
#undef MET_OPTION
    dop.on_function = on_dispatch_row;
    dop.on_function_user = w;
    ok = met_dispatch_run(mlirModuleGetOperation(m), &dop, diag, duser,
                          json_stdout ? NULL : text, jout);
  } else {
    met_budget_run_options_t bo;
    memset(&bo, 0, sizeof(bo));
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(BUDGET, passes, MET_SET_##kind(bo, member))
#include "metrale/options.def"
#undef MET_OPTION
    bo.op_remarks = o->d.remarks;  // the command's --remarks (op-remarks has no flag here)
    bo.on_function = on_budget_row;
    bo.on_function_user = w;
    ok = met_budget_run(mlirModuleGetOperation(m), &bo, diag, duser,
                        json_stdout ? NULL : text, jout);
  }
  o->text[MET_OPT_target] = saved;
  return ok;
}
