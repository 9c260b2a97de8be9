// planner_problem.c: the exact planner's problem, built once per buffer set
// (planner_problem.h).
#include "planner_problem.h"

#include <stdlib.h>
#include <string.h>

#include "metrale/checked.h"


typedef struct kv_t { uint64_t k; uint32_t v; } kv_t;

static int cmp_kv(const void *pa, const void *pb) {
  const kv_t *a = pa, *b = pb;
  if (a->k != b->k) return a->k < b->k ? -1 : 1;
  return a->v < b->v ? -1 : (a->v > b->v);
}

static uint64_t gcd64(uint64_t a, uint64_t b) {
  while (b) { uint64_t t = a % b; a = b; b = t; }
  return a;
}

// The limits past which the exact search is not tried (planner.h).
enum { kMaxExactBuffers = MET_PLAN_MAX_EXACT_BUFFERS };
static const size_t kMaxOverlapEntries = MET_PLAN_MAX_EXACT_ENTRIES;

met_status_t met_xproblem_build(const met_buffer_t *buf, size_t count, uint32_t positions,
                                const uint64_t *lengths, met_arena_t *a, xproblem_t *p,
                                bool *too_big) {
  memset(p, 0, sizeof(*p));
  *too_big = false;
  uint32_t n = 0;
  for (size_t i = 0; i < count; ++i) {
    if (buf[i].first < 0 || buf[i].last < buf[i].first || (uint32_t)buf[i].last >= positions)
      return MET_EINVAL;
    if (buf[i].bytes) ++n;
  }
  if (n > kMaxExactBuffers) { *too_big = true; return MET_OK; }
  p->n = n;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n ? n : 1, sizeof(xbuf_t), (void **)&p->b));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n ? n : 1, sizeof(uint32_t), (void **)&p->orig));
  // Sections: the distinct lifetime ends (first, last + 1), ranked.
  kv_t *pts;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, 2 * (size_t)n + 1, sizeof(kv_t), (void **)&pts));
  uint32_t k = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!buf[i].bytes) continue;
    p->orig[k] = (uint32_t)i;
    p->b[k].size = buf[i].bytes;
    p->b[k].width = lengths ? lengths[i] : (uint64_t)buf[i].last + 1 - (uint64_t)buf[i].first;
    pts[2 * k].k = (uint64_t)buf[i].first;
    pts[2 * k].v = 2 * k;
    pts[2 * k + 1].k = (uint64_t)buf[i].last + 1;
    pts[2 * k + 1].v = 2 * k + 1;
    p->gcd = gcd64(p->gcd, buf[i].bytes);
    ++k;
  }
  qsort(pts, 2 * (size_t)n, sizeof(kv_t), cmp_kv);
  uint32_t rank = 0;
  for (size_t j = 0; j < 2 * (size_t)n; ++j) {
    if (j && pts[j].k != pts[j - 1].k) ++rank;
    uint32_t x = pts[j].v / 2;
    if (pts[j].v & 1) p->b[x].shi = rank; else p->b[x].slo = rank;
  }
  p->nsec = n ? rank : 0;  // points 0..rank: rank sections
  MET_RETURN_IF_ERROR(met_arena_calloc(a, p->nsec + 1, sizeof(uint64_t), (void **)&p->sec_total));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, p->nsec + 1, sizeof(uint32_t), (void **)&p->cut0));
  // Totals (checked) and cuts by a sweep of starts and ends; the span sum.
  uint64_t *add, *sub;
  int64_t *dc;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, p->nsec + 1, sizeof(uint64_t), (void **)&add));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, p->nsec + 1, sizeof(uint64_t), (void **)&sub));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, p->nsec + 1, sizeof(int64_t), (void **)&dc));
  for (uint32_t x = 0; x < n; ++x) {
    const xbuf_t *b = &p->b[x];
    if (!met_add_u64(add[b->slo], b->size, &add[b->slo]) ||
        !met_add_u64(sub[b->shi], b->size, &sub[b->shi]))
      return MET_EOVERFLOW;
    dc[b->slo] += 1;  // crosses the boundaries slo|slo+1 .. shi-2|shi-1
    dc[b->shi - 1] -= 1;
    p->nspan += b->shi - b->slo;
  }
  if (p->nspan > kMaxOverlapEntries) { *too_big = true; return MET_OK; }
  uint64_t live = 0;
  for (uint32_t q = 0; q < p->nsec; ++q) {
    live -= sub[q];
    if (!met_add_u64(live, add[q], &live)) return MET_EOVERFLOW;
    p->sec_total[q] = live;
    if (live > p->peak) p->peak = live;
  }
  MET_RETURN_IF_ERROR(met_arena_calloc(a, p->nsec + 2, sizeof(uint32_t), (void **)&p->sec_at));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, p->nspan ? p->nspan : 1, sizeof(uint32_t), (void **)&p->sec_buf));
  for (uint32_t x = 0; x < n; ++x)
    for (uint32_t q = p->b[x].slo; q < p->b[x].shi; ++q) ++p->sec_at[q + 2];
  for (uint32_t q = 0; q < p->nsec; ++q) p->sec_at[q + 2] += p->sec_at[q + 1];
  for (uint32_t x = 0; x < n; ++x)
    for (uint32_t q = p->b[x].slo; q < p->b[x].shi; ++q) p->sec_buf[p->sec_at[q + 1]++] = x;
  int64_t c = 0;
  for (uint32_t q = 0; q + 1 < p->nsec; ++q) {
    c += dc[q];
    p->cut0[q] = (uint32_t)c;
  }
  // Overlaps: buffers by start section; a buffer overlaps those still live when it
  // starts (started before, ending after) and those starting with it.
  kv_t *bys;
  uint32_t *deg, *act;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n ? n : 1, sizeof(kv_t), (void **)&bys));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n ? n : 1, sizeof(uint32_t), (void **)&deg));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n ? n : 1, sizeof(uint32_t), (void **)&act));
  for (uint32_t x = 0; x < n; ++x) { bys[x].k = p->b[x].slo; bys[x].v = x; }
  qsort(bys, n, sizeof(kv_t), cmp_kv);
  for (int pass = 0; pass < 2; ++pass) {
    size_t nact = 0, total = 0;
    for (uint32_t j = 0; j < n; ++j) {
      uint32_t x = bys[j].v;
      size_t keep = 0;
      for (size_t i = 0; i < nact; ++i) {
        uint32_t y = act[i];
        if (p->b[y].shi <= p->b[x].slo) continue;  // ended
        act[keep++] = y;
        if (pass == 0) {
          ++deg[x];
          ++deg[y];
          total += 2;
          if (total > kMaxOverlapEntries) { *too_big = true; return MET_OK; }
        } else {
          p->ovl[p->b[x].ov + p->b[x].nov++] = y;
          p->ovl[p->b[y].ov + p->b[y].nov++] = x;
        }
      }
      nact = keep;
      act[nact++] = x;
    }
    if (pass == 0) {
      p->novl = total;
      MET_RETURN_IF_ERROR(met_arena_calloc(a, total ? total : 1, sizeof(uint32_t), (void **)&p->ovl));
      size_t at = 0;
      for (uint32_t x = 0; x < n; ++x) { p->b[x].ov = (uint32_t)at; p->b[x].nov = 0; at += deg[x]; }
    }
  }
  return MET_OK;
}
