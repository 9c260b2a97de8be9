// diff.c: two reports compared (metrale/diff.h); diff_report.c renders the comparison.
#include "metrale/diff.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "metrale/limits.h"
#include "metrale/parse.h"
#include "metrale/report.h"

const char *met_report_kind_name(met_report_kind_t k) {
  switch (k) {
    case MET_REPORT_BUDGET: return "budget";
    case MET_REPORT_DISPATCH: return "dispatch";
    case MET_REPORT_MEMORY: return "memory";
    default: return "unknown";
  }
}

met_report_kind_t met_report_kind_of(const met_json_t *root) {
  if (!root || root->kind != MET_JSON_OBJECT) return MET_REPORT_UNKNOWN;
  if (met_json_get(root, "totals")) return MET_REPORT_MEMORY;
  const met_json_t *fns = met_json_get(root, "functions");
  if (!fns || fns->kind != MET_JSON_ARRAY) return MET_REPORT_UNKNOWN;
  // The first function that was analysed says which (one that failed has neither).
  for (size_t i = 0; i < fns->count; ++i) {
    if (met_json_get(&fns->items[i], "budget")) return MET_REPORT_BUDGET;
    if (met_json_get(&fns->items[i], "dispatch_stats")) return MET_REPORT_DISPATCH;
  }
  return fns->count ? MET_REPORT_UNKNOWN : MET_REPORT_BUDGET;
}

// ---- rules -----------------------------------------------------------------------------

met_status_t met_diff_rule_parse(const char *s, size_t len, met_diff_rule_t *out,
                                 met_error_t *err) {
  static const char kPercent[] = "a percent is digits with up to 4 decimals (5%, 0.5%)";
  memset(out, 0, sizeof(*out));
  size_t op = 0;
  while (op < len && s[op] != '>' && s[op] != '<') ++op;
  if (op == len)
    return met_error_set(err, MET_EINVAL, "%s", "expected FIELD>N, FIELD>N%, FIELD<N or FIELD<N%");
  if (op == 0 || op >= MET_DIFF_RULE_FIELD)
    return met_error_set(err, MET_EINVAL, "expected a field name before '>' or '<'");
  for (size_t i = 0; i < op; ++i) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      return met_error_set(err, MET_EINVAL,
                           "a field name is lower-case letters, digits and '_' (arena_bytes)");
    }
  }
  memcpy(out->field, s, op);
  out->grow = s[op] == '>';
  const char *n = s + op + 1;
  size_t nl = len - op - 1;
  if (nl && n[nl - 1] == '%') {
    // Digits with up to 4 decimals, in 1/10000 of a percent.
    out->percent = true;
    --nl;
    size_t i = 0;
    uint64_t v = 0;
    int decimals = -1;
    for (; i < nl; ++i) {
      if (n[i] == '.' && decimals < 0 && i > 0) { decimals = 0; continue; }
      if (n[i] < '0' || n[i] > '9' || decimals == 4 || v > UINT64_MAX / 100) {
        return met_error_set(err, MET_EINVAL, "%s", kPercent);
      }
      v = v * 10 + (uint64_t)(n[i] - '0');
      if (decimals >= 0) ++decimals;
    }
    if (!nl || decimals == 0) return met_error_set(err, MET_EINVAL, "%s", kPercent);
    for (int k = decimals < 0 ? 0 : decimals; k < 4; ++k) v *= 10;
    // A value shrinks by at most 100% (to 0): a larger percent could never break.
    if (!out->grow && v > 1000000)
      return met_error_set(err, MET_EINVAL, "%s", "a shrinking is at most 100% (to 0): "
                           "FIELD<N% takes N up to 100");
    out->amount = v;
  } else {
    // The amount's form depends on the field (a size on bytes): kept as text until the
    // field is known; a size parses every whole number too.
    for (size_t i = 0; i < nl; ++i) out->sized |= n[i] < '0' || n[i] > '9';
    if (met_parse_size(n, nl, 0, UINT64_MAX, &out->amount) != MET_OK) {
      return met_error_set(err, MET_EINVAL, "%s",
                           "the amount is a whole number, a size (1MiB, 1.5GB) or a percent (5%)");
    }
  }
  snprintf(out->text, sizeof(out->text), "%.*s", (int)(len < 127 ? len : 127), s);
  return MET_OK;
}

// ---- values ----------------------------------------------------------------------------

static bool value_of(const met_json_t *j, met_diff_value_t *out) {
  if (!j || j->kind != MET_JSON_NUMBER || !j->is_int) return false;
  out->negative = j->negative && j->u != 0;
  out->mag = j->u;
  return true;
}

static int cmp_value(met_diff_value_t a, met_diff_value_t b) {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int c = a.mag < b.mag ? -1 : a.mag > b.mag;
  return a.negative ? -c : c;
}

// b - a; its magnitude saturates at 2^64 - 1 (two values of opposite signs so far apart
// that no report holds them).
static met_diff_value_t sub_value(met_diff_value_t b, met_diff_value_t a) {
  met_diff_value_t r = {false, 0};
  if (a.negative == b.negative) {
    if (b.mag >= a.mag) { r.mag = b.mag - a.mag; r.negative = b.negative && r.mag; }
    else { r.mag = a.mag - b.mag; r.negative = !b.negative; }
  } else {
    r.mag = a.mag > UINT64_MAX - b.mag ? UINT64_MAX : a.mag + b.mag;
    r.negative = b.negative;
  }
  return r;
}

// Whether |change| is beyond |pct| (1/10000 of a percent) of |old|: change x 10^6 > pct x
// old, exact where the products fit 64 bits, in long double (64-bit mantissa) otherwise.
static bool beyond_percent(uint64_t change, uint64_t pct, uint64_t old) {
  if (!old) return change > 0;
  uint64_t l, r;
  if (!__builtin_mul_overflow(change, 1000000u, &l) && !__builtin_mul_overflow(pct, old, &r))
    return l > r;
  return (long double)change * 1000000.0L > (long double)pct * (long double)old;
}

static bool breaks(const met_diff_rule_t *rule, met_diff_value_t old_v, met_diff_value_t ch) {
  if (!ch.mag || ch.negative == rule->grow) return false;
  if (!rule->percent) return ch.mag > rule->amount;
  return beyond_percent(ch.mag, rule->amount, old_v.mag);
}

// ---- comparison ------------------------------------------------------------------------

static const char *str_of(const met_json_t *j) {
  return j && j->kind == MET_JSON_STRING ? j->str : NULL;
}

// Whether field |key|'s value |j| is what a report writes there: a 64-bit whole number,
// never negative but for the headroom (a signed field). *|numeric|: it is a number at all.
static bool report_value(const char *key, const met_json_t *j, met_diff_value_t *out,
                         bool *numeric) {
  *numeric = j && j->kind == MET_JSON_NUMBER;
  if (!value_of(j, out)) return false;
  met_limit_family_t f;
  bool is_min = false;
  const char *c;
  (void)met_limit_field(key, strlen(key), &f, &is_min, &c);
  return !out->negative || !strcmp(key, "headroom");
}

// The rows of one function (or of the memory model): the numeric fields of |o| and |n|.
// A field that is a number on one side must be a 64-bit whole number on both (a float, a
// value past 2^64, a string or a missing field there is no report metrale wrote, and would
// leave a --fail-on rule unchecked): MET_EINVAL, with why in d->mismatch.
static met_status_t add_rows(met_arena_t *arena, met_diff_t *d, size_t *cap, const char *fn,
                             const met_json_t *o, const met_json_t *n,
                             const met_diff_rule_t *rules, size_t nrules) {
  if (!o || !n || o->kind != MET_JSON_OBJECT || n->kind != MET_JSON_OBJECT) return MET_OK;
  for (int side = 0; side < 2; ++side) {
    const met_json_t *from = side ? n : o, *other = side ? o : n;
    for (size_t i = 0; i < from->count; ++i) {
      met_diff_value_t a, b;
      bool na, nb;
      bool oka = report_value(from->keys[i], &from->items[i], &a, &na);
      const met_json_t *oj = met_json_get(other, from->keys[i]);
      bool okb = report_value(from->keys[i], oj, &b, &nb);
      if (!na && !nb) continue;  // a name, a bool: no number on either side
      if (!oka || !okb) {
        // The report at fault: |from| when its own value is bad, else the other one.
        bool from_bad = !oka;
        bool bad_is_new = from_bad ? side == 1 : side == 0;
        const char *what = from_bad || oj ? "no 64-bit whole number (a float, a value past "
                                            "2^64, a negative count or no number)"
                                          : "missing";
        snprintf(d->mismatch, sizeof(d->mismatch), "%s%.200s: %.64s in the %s report is %s",
                 *fn ? "@" : "", *fn ? fn : "the memory model", from->keys[i],
                 bad_is_new ? "new" : "old", what);
        return MET_EINVAL;
      }
      if (side) continue;  // the new side's fields were compared from the old side
      met_diff_value_t ov = a, nv = b;
      MET_RETURN_IF_ERROR(met_arena_reserve(arena, (void **)&d->rows, cap, d->nrows, sizeof(*d->rows)));
      met_diff_row_t *r = &d->rows[d->nrows++];
      memset(r, 0, sizeof(*r));
      r->function = fn;
      r->field = from->keys[i];
      r->old_v = ov;
      r->new_v = nv;
      r->change = sub_value(nv, ov);
      r->bytes = met_limit_field_is_bytes(r->field, strlen(r->field));
      if (r->change.mag) ++d->changed;
      for (size_t k = 0; k < nrules && !r->broken; ++k)
        if (!strcmp(rules[k].field, r->field) && breaks(&rules[k], ov, r->change)) r->broken = &rules[k];
      if (r->broken) ++d->breaches;
    }
  }
  return MET_OK;
}

static const met_json_t *find_fn(const met_json_t *fns, const char *name) {
  for (size_t i = 0; fns && i < fns->count; ++i)
    if (str_of(met_json_get(&fns->items[i], "name")) &&
        !strcmp(str_of(met_json_get(&fns->items[i], "name")), name))
      return &fns->items[i];
  return NULL;
}

// "arguments" bytes as text ("64,256"), for reports without a signature.
static void arg_bytes(const met_json_t *fn, char *buf, size_t cap) {
  const met_json_t *a = met_json_get(fn, "arguments");
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; a && a->kind == MET_JSON_ARRAY && i < a->count && n + 24 < cap; ++i) {
    const met_json_t *b = met_json_get(&a->items[i], "bytes");
    n += (size_t)snprintf(buf + n, cap - n, "%s%" PRIu64, i ? "," : "",
                          b && b->kind == MET_JSON_NUMBER ? b->u : 0);
  }
}

static void mismatch(met_diff_t *d, const char *fmt, const char *a, const char *b, const char *c) {
  size_t n = strlen(d->mismatch);
  if (n + 2 >= sizeof(d->mismatch)) return;
  snprintf(d->mismatch + n, sizeof(d->mismatch) - n, fmt, a, b, c);
}

static bool known_field(met_report_kind_t kind, const char *field) {
  met_limit_family_t fam;
  bool is_min;
  const char *canon;
  if (kind == MET_REPORT_DISPATCH && !strcmp(field, "flops")) return true;
  if (!met_limit_field(field, strlen(field), &fam, &is_min, &canon)) return false;
  return (kind == MET_REPORT_BUDGET && fam == MET_LIMIT_BUDGET) ||
         (kind == MET_REPORT_DISPATCH && fam == MET_LIMIT_DISPATCH) ||
         (kind == MET_REPORT_MEMORY && fam == MET_LIMIT_MEMORY);
}

// The two reports are of one known kind, and every rule names a numeric field of it (a
// size only on a byte field). Sets out->kind; MET_EINVAL with out->mismatch otherwise.
static met_status_t check_reports(const met_json_t *old_r, const met_json_t *new_r,
                                  const met_diff_rule_t *rules, size_t nrules, met_diff_t *out) {
  met_report_kind_t ko = met_report_kind_of(old_r), kn = met_report_kind_of(new_r);
  if (ko == MET_REPORT_UNKNOWN || kn == MET_REPORT_UNKNOWN) {
    snprintf(out->mismatch, sizeof(out->mismatch), "%s is no report of `metrale budget`, "
             "`dispatch` or `memory --json`", ko == MET_REPORT_UNKNOWN ? "the old file" : "the new file");
    return MET_EINVAL;
  }
  if (ko != kn) {
    snprintf(out->mismatch, sizeof(out->mismatch), "the old file is a %s report and the new "
             "one a %s report: only reports of one kind compare",
             met_report_kind_name(ko), met_report_kind_name(kn));
    return MET_EINVAL;
  }
  out->kind = ko;
  for (size_t k = 0; k < nrules; ++k) {
    if (!known_field(ko, rules[k].field)) {
      snprintf(out->mismatch, sizeof(out->mismatch), "--fail-on '%s': a %s report has no "
               "numeric field '%s'", rules[k].text, met_report_kind_name(ko), rules[k].field);
      return MET_EINVAL;
    }
    if (rules[k].sized && !met_limit_field_is_bytes(rules[k].field, strlen(rules[k].field))) {
      snprintf(out->mismatch, sizeof(out->mismatch), "--fail-on '%s': %s counts no bytes: its "
               "amount is a whole number or a percent", rules[k].text, rules[k].field);
      return MET_EINVAL;
    }
  }
  return MET_OK;
}

// Two memory reports: the run-time parameters must match (unless |force|), then their
// totals compare field by field.
static met_status_t compare_memory(met_arena_t *arena, const met_json_t *old_r,
                                   const met_json_t *new_r, const met_diff_rule_t *rules,
                                   size_t nrules, bool force, met_diff_t *out) {
  size_t cap = 0;
  const met_json_t *po = met_json_get(old_r, "parameters"), *pn = met_json_get(new_r, "parameters");
  for (size_t i = 0; po && po->kind == MET_JSON_OBJECT && i < po->count; ++i) {
    met_diff_value_t a, b;
    if (value_of(&po->items[i], &a) && value_of(met_json_get(pn, po->keys[i]), &b) &&
        cmp_value(a, b))
      mismatch(out, "%sthe run-time parameter %s differs%s", out->mismatch[0] ? "; " : "",
               po->keys[i], "");
  }
  out->nfunctions = 1;
  const met_json_t *to = met_json_get(old_r, "totals"), *tn = met_json_get(new_r, "totals");
  const met_json_t *co = met_json_get(to, "complete"), *cn = met_json_get(tn, "complete");
  out->incomplete = (co && co->kind == MET_JSON_BOOL && !co->boolean) ||
                    (cn && cn->kind == MET_JSON_BOOL && !cn->boolean);
  if (out->mismatch[0] && !force) return MET_EINVAL;
  out->forced = out->mismatch[0] != 0;
  if (!to || !tn || to->kind != MET_JSON_OBJECT || tn->kind != MET_JSON_OBJECT) {
    snprintf(out->mismatch, sizeof(out->mismatch), "the %s report's totals are no object",
             to && to->kind == MET_JSON_OBJECT ? "new" : "old");
    return MET_EINVAL;
  }
  return add_rows(arena, out, &cap, "", to, tn, rules, nrules);
}

// Names: one function once, no NUL in a name (compared as C strings otherwise).
static met_status_t check_names(const met_json_t *fo, const met_json_t *fn, met_diff_t *out) {
  for (size_t pass = 0; pass < 2; ++pass) {
    const met_json_t *f = pass ? fn : fo;
    for (size_t i = 0; f && i < f->count; ++i) {
      const met_json_t *nm = met_json_get(&f->items[i], "name");
      if (!nm || nm->kind != MET_JSON_STRING || strlen(nm->str) != nm->len) {
        snprintf(out->mismatch, sizeof(out->mismatch), "function #%zu of the %s report has no "
                 "name, or one with a NUL character", i, pass ? "new" : "old");
        return MET_EINVAL;
      }
      for (size_t j = 0; j < i; ++j)
        if (!strcmp(nm->str, str_of(met_json_get(&f->items[j], "name")))) {
          snprintf(out->mismatch, sizeof(out->mismatch), "the %s report holds @%.200s twice",
                   pass ? "new" : "old", nm->str);
          return MET_EINVAL;
        }
    }
  }
  return MET_OK;
}

met_status_t met_diff_compare(met_arena_t *arena, const met_json_t *old_r,
                              const met_json_t *new_r, const met_diff_rule_t *rules,
                              size_t nrules, bool force, met_diff_t *out) {
  memset(out, 0, sizeof(*out));
  MET_RETURN_IF_ERROR(check_reports(old_r, new_r, rules, nrules, out));
  met_report_kind_t ko = out->kind;
  out->old_target = str_of(met_json_get(met_json_get(old_r, "target"), "name"));
  out->new_target = str_of(met_json_get(met_json_get(new_r, "target"), "name"));
  if (!out->old_target) out->old_target = "?";
  if (!out->new_target) out->new_target = "?";
  if (strcmp(out->old_target, out->new_target))
    mismatch(out, "the targets differ (old %s, new %s)%s", out->old_target, out->new_target, "");
  size_t cap = 0;
  if (ko == MET_REPORT_MEMORY) return compare_memory(arena, old_r, new_r, rules, nrules, force, out);
  const met_json_t *fo = met_json_get(old_r, "functions"), *fn = met_json_get(new_r, "functions");
  const char *stats = ko == MET_REPORT_BUDGET ? "budget" : "dispatch_stats";
  size_t cap_a = 0, cap_r = 0;
  for (size_t pass = 0; pass < 2; ++pass) {
    const met_json_t *from = pass ? fn : fo, *other = pass ? fo : fn;
    for (size_t i = 0; from && i < from->count; ++i) {
      const char *name = str_of(met_json_get(&from->items[i], "name"));
      if (!name || find_fn(other, name)) continue;
      const char ***list = pass ? &out->added : &out->removed;
      size_t *count = pass ? &out->nadded : &out->nremoved, *c = pass ? &cap_a : &cap_r;
      MET_RETURN_IF_ERROR(met_arena_reserve(arena, (void **)list, c, *count, sizeof(char *)));
      (*list)[(*count)++] = name;
    }
  }
  MET_RETURN_IF_ERROR(check_names(fo, fn, out));
  // Signatures first: a refusal names every function whose inputs differ.
  for (size_t i = 0; fo && i < fo->count; ++i) {
    const met_json_t *a = &fo->items[i];
    const char *name = str_of(met_json_get(a, "name"));
    const met_json_t *b = name ? find_fn(fn, name) : NULL;
    if (!b) continue;
    const char *sa = str_of(met_json_get(a, "signature")), *sb = str_of(met_json_get(b, "signature"));
    char ba[256], bb[256];
    if (!sa || !sb) {  // older reports: the arguments' bytes
      arg_bytes(a, ba, sizeof(ba));
      arg_bytes(b, bb, sizeof(bb));
      sa = ba;
      sb = bb;
    }
    if (strcmp(sa, sb)) {
      char what[400];
      snprintf(what, sizeof(what), "@%.60s's inputs differ (old %.150s, new %.150s)", name, sa, sb);
      mismatch(out, "%s%s%s", out->mismatch[0] ? "; " : "", what, "");
    }
  }
  if (out->mismatch[0] && !force) return MET_EINVAL;
  out->forced = out->mismatch[0] != 0;
  for (size_t i = 0; fo && i < fo->count; ++i) {
    const met_json_t *a = &fo->items[i];
    const char *name = str_of(met_json_get(a, "name"));
    const met_json_t *b = name ? find_fn(fn, name) : NULL;
    if (!b) continue;
    ++out->nfunctions;
    const met_json_t *ca = met_json_get(a, "complete"), *cb = met_json_get(b, "complete");
    if ((ca && ca->kind == MET_JSON_BOOL && !ca->boolean) ||
        (cb && cb->kind == MET_JSON_BOOL && !cb->boolean))
      out->incomplete = true;
    if (ko == MET_REPORT_DISPATCH) {  // the function's FLOPs beside its stats
      met_json_t fo1 = {0}, fn1 = {0};
      const met_json_t *xa = met_json_get(a, "flops"), *xb = met_json_get(b, "flops");
      if (xa && xb) {
        static const char *const key[] = {"flops"};
        static size_t key_len[] = {5};
        fo1.kind = fn1.kind = MET_JSON_OBJECT;
        fo1.count = fn1.count = 1;
        fo1.keys = fn1.keys = (const char **)key;
        fo1.key_lens = fn1.key_lens = key_len;
        fo1.items = (met_json_t *)xa;
        fn1.items = (met_json_t *)xb;
        MET_RETURN_IF_ERROR(add_rows(arena, out, &cap, name, &fo1, &fn1, rules, nrules));
      }
    }
    const met_json_t *sa = met_json_get(a, stats), *sb = met_json_get(b, stats);
    if (!sa || !sb || sa->kind != MET_JSON_OBJECT || sb->kind != MET_JSON_OBJECT) {
      // A function whose analysis failed (its "error") has nothing to compare: a gate
      // must not pass it by.
      const char *err = str_of(met_json_get(sa ? b : a, "error"));
      snprintf(out->mismatch, sizeof(out->mismatch), "@%.200s has no %s in the %s report%s%.200s%s",
               name, stats, sa ? "new" : "old", err ? " (" : "", err ? err : "", err ? ")" : "");
      return MET_EINVAL;
    }
    MET_RETURN_IF_ERROR(add_rows(arena, out, &cap, name, sa, sb, rules, nrules));
  }
  return MET_OK;
}
