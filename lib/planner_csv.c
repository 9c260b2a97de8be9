// planner_csv.c: MiniMalloc's CSV format (metrale/planner_csv.h).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrale/parse.h"
#include "metrale/planner_csv.h"

// The next line of [*p, end) into [*ls, *le) without its line end; false at the end.
static bool next_line(const char **p, const char *end, const char **ls, const char **le) {
  if (*p >= end) return false;
  const char *s = *p, *e = memchr(s, '\n', (size_t)(end - s));
  *p = e ? e + 1 : end;
  if (!e) e = end;
  if (e > s && e[-1] == '\r') --e;
  *ls = s;
  *le = e;
  return true;
}

// Splits [s, e) at commas into at most |max| cells; returns the number of cells (max + 1
// when there are more).
static size_t split(const char *s, const char *e, const char **cs, const char **ce, size_t max) {
  size_t n = 0;
  for (;;) {
    const char *c = memchr(s, ',', (size_t)(e - s));
    if (n == max) return max + 1;
    cs[n] = s;
    ce[n] = c ? c : e;
    ++n;
    if (!c) return n;
    s = c + 1;
  }
}

static bool blank(const char *s, const char *e) {
  for (; s < e; ++s) if (*s != ' ' && *s != '\t') return false;
  return true;
}

typedef struct tkey_t { uint64_t t; uint32_t i; } tkey_t;

static int cmp_tkey(const void *pa, const void *pb) {
  const tkey_t *a = pa, *b = pb;
  return a->t < b->t ? -1 : a->t > b->t;
}

typedef struct idrow_t { const char *id; size_t row; } idrow_t;

static int cmp_id(const void *pa, const void *pb) {
  const idrow_t *a = pa, *b = pb;
  int c = strcmp(a->id, b->id);
  return c ? c : (a->row < b->row ? -1 : a->row > b->row);
}

static bool cell_is(const char *s, const char *e, const char *name) {
  return (size_t)(e - s) == strlen(name) && !memcmp(s, name, (size_t)(e - s));
}

// The column a header cell names (0 id, 1 lower, 2 upper, 3 size), -2 for MiniMalloc's
// columns the planner does not take, -1 for none.
static int column_of(const char *s, const char *e) {
  static const char *const kNames[4][4] = {{"id", "buffer", "buffer_id", NULL},
                                           {"lower", "start", "begin", NULL},
                                           {"upper", "end", NULL, NULL},
                                           {"size", NULL, NULL, NULL}};
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < 4 && kNames[c][k]; ++k)
      if (cell_is(s, e, kNames[c][k])) return c;
  return cell_is(s, e, "offset") || cell_is(s, e, "alignment") ? -2 : -1;
}

// The header: the first line that is not blank (|*p| past it, |*line| its number);
// col[k] is the cell of column k (id, lower, upper, size), in any order.
static met_status_t parse_header(const char **p, const char *end, size_t *line, int col[4],
                                 met_error_t *err) {
  const char *ls, *le;
  bool head = false;
  while (!head && next_line(p, end, &ls, &le)) {
    ++*line;
    if (blank(ls, le)) continue;
    const char *cs[7], *ce[7];
    size_t n = split(ls, le, cs, ce, 6);
    for (size_t k = 0; k < n && k < 6; ++k)
      if (column_of(cs[k], ce[k]) == -2) {
        err->line = *line;
        snprintf(err->message, sizeof err->message, "column '%.*s' is not taken: the planner places every buffer "
                               "itself (MiniMalloc's fixed offsets and alignments are not "
                               "supported)", (int)(ce[k] - cs[k]), cs[k]);
        return MET_EINVAL;
      }
    bool ok = n == 4;
    for (size_t k = 0; ok && k < 4; ++k) {
      int c = column_of(cs[k], ce[k]);
      if (c < 0 || col[c] >= 0) ok = false;
      else col[c] = (int)k;
    }
    if (!ok) {
      err->line = *line;
      snprintf(err->message, sizeof err->message, "expected a header of the columns id, lower, upper and size, in "
                             "any order (MiniMalloc's CSV format; also buffer, start, end)");
      return MET_EINVAL;
    }
    head = true;
  }
  if (!head) {
    err->line = *line ? *line : 1;
    snprintf(err->message, sizeof err->message, "no header 'id,lower,upper,size': the file is empty");
    return MET_EINVAL;
  }
  return MET_OK;
}

// No two ids alike: sorted by id, then row; the later row of a pair is at fault (|lines|:
// each row's line).
static met_status_t check_ids(met_arena_t *arena, const met_csv_problem_t *out,
                              const size_t *lines, met_error_t *err) {
  size_t k = out->count;
  if (k > 1) {
    idrow_t *sorted;
    MET_RETURN_IF_ERROR(met_arena_calloc(arena, k, sizeof(idrow_t), (void **)&sorted));
    for (size_t r = 0; r < k; ++r) sorted[r] = (idrow_t){out->ids[r], r};
    qsort(sorted, k, sizeof(idrow_t), cmp_id);
    for (size_t i = 1; i < k; ++i)
      if (!strcmp(sorted[i - 1].id, sorted[i].id)) {
        err->line = lines[sorted[i].row];
        snprintf(err->message, sizeof err->message, "id '%.40s' is used twice (first at line %zu): a plan's rows "
                               "could not be told apart", sorted[i].id, lines[sorted[i - 1].row]);
        return MET_EINVAL;
      }
  }
  return MET_OK;
}

// Each time replaced by its rank among the distinct times (2 per buffer at most): the
// buffers' first and last positions.
static met_status_t rank_times(met_arena_t *arena, met_csv_problem_t *out) {
  size_t k = out->count;
  tkey_t *t;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, 2 * k + 1, sizeof(tkey_t), (void **)&t));
  for (size_t i = 0; i < k; ++i) {
    t[2 * i] = (tkey_t){out->lower[i], (uint32_t)(2 * i)};
    t[2 * i + 1] = (tkey_t){out->upper[i], (uint32_t)(2 * i + 1)};
  }
  qsort(t, 2 * k, sizeof(tkey_t), cmp_tkey);
  uint32_t rank = 0;
  for (size_t j = 0; j < 2 * k; ++j) {
    if (j && t[j].t != t[j - 1].t) ++rank;
    size_t i = t[j].i / 2;
    if (t[j].i & 1) out->buffers[i].last = (int32_t)rank - 1;  // upper exclusive
    else out->buffers[i].first = (int32_t)rank;
  }
  out->positions = rank;  // the largest upper's rank: positions 0 .. rank - 1
  return MET_OK;
}

static met_status_t parse_csv(const char *text, size_t len, met_arena_t *arena,
                                   met_csv_problem_t *out, met_error_t *err) {
  memset(out, 0, sizeof(*out));
  const char *p = text, *end = text + len, *ls, *le;
  if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) p += 3;  // a UTF-8 byte order mark
  size_t line = 0, rows = 0;
  int col[4] = {-1, -1, -1, -1};  // the cell of column k (id, lower, upper, size)
  MET_RETURN_IF_ERROR(parse_header(&p, end, &line, col, err));
  // Rows: counted first, then parsed.
  const char *body = p;
  size_t body_line = line;
  while (next_line(&p, end, &ls, &le)) rows += !blank(ls, le);
  if (rows > (size_t)INT32_MAX / 2) {
    err->line = line;
    snprintf(err->message, sizeof err->message, "more than 2^30 buffers");
    return MET_EOVERFLOW;
  }
  size_t cap = rows ? rows : 1;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, cap, sizeof(met_buffer_t), (void **)&out->buffers));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, cap, sizeof(char *), (void **)&out->ids));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, cap, sizeof(uint64_t), (void **)&out->lower));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, cap, sizeof(uint64_t), (void **)&out->upper));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, cap, sizeof(uint64_t), (void **)&out->lengths));
  size_t *lines;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, cap, sizeof(size_t), (void **)&lines));
  p = body;
  line = body_line;
  size_t k = 0;
  while (next_line(&p, end, &ls, &le)) {
    ++line;
    if (blank(ls, le)) continue;
    const char *cs[5], *ce[5];
    size_t n = split(ls, le, cs, ce, 4);
    err->line = line;
    if (n != 4) {
      snprintf(err->message, sizeof err->message, "expected 4 cells (id, lower, upper, size), found %s",
               n > 4 ? "more" : n == 3 ? "3" : n == 2 ? "2" : "1");
      return MET_EINVAL;
    }
    const char *is = cs[col[0]], *ie = ce[col[0]];
    size_t idl = (size_t)(ie - is);
    bool plain = idl > 0;
    for (const char *q = is; q < ie && plain; ++q)
      plain = *q != '"' && (unsigned char)*q >= 0x20 && *q != 0x7f;
    if (!plain) {
      snprintf(err->message, sizeof err->message, idl ? "an id with a quote or a control character (ids are plain "
                                   "text)" : "an empty id");
      return MET_EINVAL;
    }
    char *id;
    MET_RETURN_IF_ERROR(met_arena_calloc(arena, idl + 1, 1, (void **)&id));
    memcpy(id, is, idl);
    uint64_t v[3];
    static const char *const kCol[3] = {"lower", "upper", "size"};
    // Times: whole numbers below 2^63; sizes: whole bytes (a size of 0 takes no memory).
    static const uint64_t kMax[3] = {INT64_MAX - 1, INT64_MAX, UINT64_MAX};
    static const char *const kBelow[3] = {" below 2^63", " below 2^63", " below 2^64"};
    for (int c = 0; c < 3; ++c) {
      const char *vs = cs[col[c + 1]], *ve = ce[col[c + 1]];
      met_status_t st = met_parse_u64(vs, (size_t)(ve - vs), 0, kMax[c], &v[c]);
      if (st) {
        snprintf(err->message, sizeof err->message, "%s '%.*s' is not a whole number%s", kCol[c],
                 (int)(ve - vs > 40 ? 40 : ve - vs), vs, st == MET_EOVERFLOW ? kBelow[c] : "");
        return st;
      }
    }
    if (v[1] <= v[0]) {
      snprintf(err->message, sizeof err->message, "upper %llu is not above lower %llu (a lifetime [lower, upper) "
                             "holds at least one time)", (unsigned long long)v[1],
               (unsigned long long)v[0]);
      return MET_EINVAL;
    }
    out->ids[k] = id;
    out->lower[k] = v[0];
    out->upper[k] = v[1];
    out->lengths[k] = v[1] - v[0];
    out->buffers[k].bytes = v[2];
    lines[k] = line;
    ++k;
  }
  err->line = MET_NOWHERE;
  out->count = k;
  MET_RETURN_IF_ERROR(check_ids(arena, out, lines, err));
  MET_RETURN_IF_ERROR(rank_times(arena, out));
  return MET_OK;
}

met_status_t met_csv_problem_parse(const char *text, size_t len, met_arena_t *arena,
                                   met_csv_problem_t *out, met_error_t *err) {
  met_error_t scratch;
  if (!err) err = &scratch;
  met_error_init(err);
  met_status_t st = parse_csv(text, len, arena, out, err);
  if (st != MET_OK) {
    err->code = st;
    if (st == MET_ENOMEM) err->line = MET_NOWHERE;
  }
  return st;
}
