// diff_report.c: a comparison of two reports (metrale/diff.h) as text, Markdown and
// JSON; met_diff_compare (diff.c) makes it.
#include "metrale/diff.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "metrale/limits.h"
#include "metrale/parse.h"
#include "metrale/report.h"

// ---- rendering -------------------------------------------------------------------------

static void put_value(met_strbuf_t *sb, met_diff_value_t v) {
  if (v.negative) MET_STRBUF_LIT(sb, "-");
  met_strbuf_u64(sb, v.mag);
}

static void put_change(met_strbuf_t *sb, met_diff_value_t c) {
  met_strbuf_cstr(sb, c.negative ? "-" : c.mag ? "+" : "");
  met_strbuf_u64(sb, c.mag);
}

// The change in percent of the old value, one decimal ("+11.1%"; "new" from 0).
static void put_percent(met_strbuf_t *sb, const met_diff_row_t *r) {
  if (!r->change.mag) { MET_STRBUF_LIT(sb, "0%"); return; }
  if (!r->old_v.mag) { MET_STRBUF_LIT(sb, "from 0"); return; }
  long double p = (long double)r->change.mag * 100.0L / (long double)r->old_v.mag;
  // One decimal, or two significant digits below 0.1% (never "-0.0%" for a change).
  if (p >= 0.1L) met_strbuf_printf(sb, "%s%.1Lf%%", r->change.negative ? "-" : "+", p);
  else met_strbuf_printf(sb, "%s%.2Lg%%", r->change.negative ? "-" : "+", p);
}

static void summary(met_strbuf_t *sb, const met_diff_t *d) {
  met_strbuf_printf(sb, "%s on %s", met_report_kind_name(d->kind), d->new_target);
  if (strcmp(d->old_target, d->new_target)) met_strbuf_printf(sb, " (old: %s)", d->old_target);
  if (d->kind != MET_REPORT_MEMORY)
    met_strbuf_printf(sb, ": %zu function%s compared", d->nfunctions, d->nfunctions == 1 ? "" : "s");
  met_strbuf_printf(sb, ", %zu field%s changed, %zu regression%s", d->changed,
                    d->changed == 1 ? "" : "s", d->breaches, d->breaches == 1 ? "" : "s");
}

static void md_code(met_strbuf_t *sb, const char *s);

static void name_list(met_strbuf_t *sb, const char *what, const char **names, size_t n,
                      bool markdown) {
  if (!n) return;
  met_strbuf_printf(sb, "%s: ", what);
  for (size_t i = 0; i < n; ++i) {
    if (i) MET_STRBUF_LIT(sb, ", ");
    if (markdown) {
      char at[512];
      snprintf(at, sizeof(at), "@%s", names[i]);
      md_code(sb, at);
    } else {
      MET_STRBUF_LIT(sb, "@");
      met_strbuf_cstr(sb, names[i]);
    }
  }
  MET_STRBUF_LIT(sb, "\n");
}

void met_diff_text(met_strbuf_t *sb, const met_diff_t *d, bool all) {
  MET_STRBUF_LIT(sb, "metrale diff: ");
  summary(sb, d);
  MET_STRBUF_LIT(sb, "\n");
  if (d->forced) met_strbuf_printf(sb, "  compared with --force although %s\n", d->mismatch);
  if (d->incomplete) MET_STRBUF_LIT(sb, "  (a report is incomplete: its numbers are bounds)\n");
  name_list(sb, "  added", d->added, d->nadded, false);
  name_list(sb, "  removed", d->removed, d->nremoved, false);
  const char *fn = NULL;
  for (size_t i = 0; i < d->nrows; ++i) {
    const met_diff_row_t *r = &d->rows[i];
    if (!all && !r->change.mag) continue;
    if (!fn || strcmp(fn, r->function)) {
      fn = r->function;
      if (*fn) met_strbuf_printf(sb, "@%s\n", fn);
      met_strbuf_printf(sb, "  %-36s %20s %20s %20s %9s\n", "field", "old", "new", "change", "percent");
    }
    met_strbuf_t a, b, c, p;
    met_strbuf_initialize(sb->allocator, &a);
    met_strbuf_initialize(sb->allocator, &b);
    met_strbuf_initialize(sb->allocator, &c);
    met_strbuf_initialize(sb->allocator, &p);
    put_value(&a, r->old_v);
    put_value(&b, r->new_v);
    put_change(&c, r->change);
    put_percent(&p, r);
    met_strbuf_printf(sb, "  %-36s %20s %20s %20s %9s", r->field, a.data ? a.data : "",
                      b.data ? b.data : "", c.data ? c.data : "", p.data ? p.data : "");
    if (r->bytes && r->change.mag) {
      MET_STRBUF_LIT(sb, "  ");
      met_strbuf_cstr(sb, r->change.negative ? "-" : "+");
      met_report_bytes(sb, r->change.mag);
    }
    if (r->broken) met_strbuf_printf(sb, "  REGRESSION (%s)", r->broken->text);
    MET_STRBUF_LIT(sb, "\n");
    met_strbuf_deinitialize(&a);
    met_strbuf_deinitialize(&b);
    met_strbuf_deinitialize(&c);
    met_strbuf_deinitialize(&p);
  }
  if (!d->changed) MET_STRBUF_LIT(sb, "  no field changed\n");
}

// Text for a Markdown table, as a code span whose fence is one backtick longer than the
// longest run inside (CommonMark), with a space inside when the text begins or ends with
// one; a '|' would end the cell even there (GitHub's tables take "\\|"); a line break,
// which would end the row, becomes a space.
static void md_code(met_strbuf_t *sb, const char *s) {
  size_t run = 0, longest = 0;
  for (const char *p = s; *p; ++p) {
    run = *p == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  size_t len = strlen(s);
  bool pad = longest && (s[0] == '`' || (len && s[len - 1] == '`'));
  for (size_t k = 0; k <= longest; ++k) MET_STRBUF_LIT(sb, "`");
  if (pad) MET_STRBUF_LIT(sb, " ");
  for (const char *p = s; *p; ++p) {
    if (*p == '\n' || *p == '\r') { MET_STRBUF_LIT(sb, " "); continue; }
    if (*p == '|') MET_STRBUF_LIT(sb, "\\");
    met_strbuf_append(sb, p, 1);
  }
  if (pad) MET_STRBUF_LIT(sb, " ");
  for (size_t k = 0; k <= longest; ++k) MET_STRBUF_LIT(sb, "`");
}

void met_diff_markdown(met_strbuf_t *sb, const met_diff_t *d, bool all) {
  met_strbuf_printf(sb, "### metrale diff: %s\n\n", d->breaches ? "regressions" : "no regression");
  MET_STRBUF_LIT(sb, "");
  summary(sb, d);
  MET_STRBUF_LIT(sb, ".\n\n");
  if (d->forced) {
    MET_STRBUF_LIT(sb, "Compared with `--force` although ");
    md_code(sb, d->mismatch);
    MET_STRBUF_LIT(sb, ".\n\n");
  }
  if (d->incomplete) MET_STRBUF_LIT(sb, "A report is incomplete: its numbers are bounds.\n\n");
  name_list(sb, "Added", d->added, d->nadded, true);
  name_list(sb, "Removed", d->removed, d->nremoved, true);
  if (d->nadded || d->nremoved) MET_STRBUF_LIT(sb, "\n");
  bool any = false;
  for (size_t i = 0; i < d->nrows; ++i) {
    const met_diff_row_t *r = &d->rows[i];
    if (!all && !r->change.mag) continue;
    if (!any) {
      met_strbuf_cstr(sb, d->kind == MET_REPORT_MEMORY ? "| field | old | new | change | % | |\n"
                                                        "|---|---:|---:|---:|---:|---|\n"
                                                      : "| function | field | old | new | change | % | |\n"
                                                        "|---|---|---:|---:|---:|---:|---|\n");
      any = true;
    }
    MET_STRBUF_LIT(sb, "| ");
    if (d->kind != MET_REPORT_MEMORY) {
      char at[512];
      snprintf(at, sizeof(at), "@%s", r->function);
      md_code(sb, at);
      MET_STRBUF_LIT(sb, " | ");
    }
    md_code(sb, r->field);
    MET_STRBUF_LIT(sb, " | ");
    put_value(sb, r->old_v);
    MET_STRBUF_LIT(sb, " | ");
    put_value(sb, r->new_v);
    MET_STRBUF_LIT(sb, " | ");
    put_change(sb, r->change);
    if (r->bytes && r->change.mag) {
      met_strbuf_cstr(sb, r->change.negative ? " (-" : " (+");
      met_report_bytes(sb, r->change.mag);
      MET_STRBUF_LIT(sb, ")");
    }
    MET_STRBUF_LIT(sb, " | ");
    put_percent(sb, r);
    MET_STRBUF_LIT(sb, " | ");
    if (r->broken) {
      MET_STRBUF_LIT(sb, "**regression**: ");
      md_code(sb, r->broken->text);
    }
    MET_STRBUF_LIT(sb, " |\n");
  }
  if (!any) MET_STRBUF_LIT(sb, "No field changed.\n");
}

void met_diff_json(met_strbuf_t *sb, const met_diff_t *d) {
  met_strbuf_printf(sb, "{\"kind\": \"%s\", \"target\": {\"old\": ", met_report_kind_name(d->kind));
  met_strbuf_json_string(sb, d->old_target);
  MET_STRBUF_LIT(sb, ", \"new\": ");
  met_strbuf_json_string(sb, d->new_target);
  met_strbuf_printf(sb, "}, \"forced\": %s, \"mismatch\": ", d->forced ? "true" : "false");
  met_strbuf_json_string(sb, d->mismatch);
  met_strbuf_printf(sb, ", \"incomplete\": %s, \"functions\": %zu, \"added\": [",
                    d->incomplete ? "true" : "false", d->nfunctions);
  for (size_t i = 0; i < d->nadded; ++i) {
    if (i) MET_STRBUF_LIT(sb, ", ");
    met_strbuf_json_string(sb, d->added[i]);
  }
  MET_STRBUF_LIT(sb, "], \"removed\": [");
  for (size_t i = 0; i < d->nremoved; ++i) {
    if (i) MET_STRBUF_LIT(sb, ", ");
    met_strbuf_json_string(sb, d->removed[i]);
  }
  met_strbuf_printf(sb, "], \"changed\": %zu, \"regressions\": %zu, \"rows\": [", d->changed,
                    d->breaches);
  for (size_t i = 0; i < d->nrows; ++i) {
    const met_diff_row_t *r = &d->rows[i];
    met_strbuf_cstr(sb, i ? ",\n  {\"function\": " : "\n  {\"function\": ");
    met_strbuf_json_string(sb, r->function);
    MET_STRBUF_LIT(sb, ", \"field\": ");
    met_strbuf_json_string(sb, r->field);
    MET_STRBUF_LIT(sb, ", \"old\": ");
    put_value(sb, r->old_v);
    MET_STRBUF_LIT(sb, ", \"new\": ");
    put_value(sb, r->new_v);
    MET_STRBUF_LIT(sb, ", \"change\": ");
    put_value(sb, r->change);
    MET_STRBUF_LIT(sb, ", \"regression\": ");
    if (r->broken) met_strbuf_json_string(sb, r->broken->text);
    else MET_STRBUF_LIT(sb, "null");
    MET_STRBUF_LIT(sb, "}");
  }
  MET_STRBUF_LIT(sb, "]}\n");
}
