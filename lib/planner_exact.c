// planner_exact.c: the exact offset planner (planner.h, met_planner_fit and
// met_planner_solve).
//
// The decision problem (do these buffers fit |capacity| bytes?) is a depth-first search
// over canonical solutions, after the ideas of MiniMalloc (M. Moffitt, "MiniMalloc: A
// Lightweight Memory Allocator for Hardware-Accelerated Machine Learning", ASPLOS 2023),
// in an implementation of our own:
// - Canonical solutions. Any plan can be pushed down until each buffer rests at offset 0
//   or on a buffer alive with it, without growing. Sorted by (offset, rank), each buffer of
//   such a plan sits at its *minimum offset*: the highest top of the buffers before it that
//   it overlaps in time. The search builds plans in that order: a node places one unplaced
//   buffer at its minimum offset, and only buffers that keep the order non-decreasing
//   (offset, then rank) are its children. Every pushed-down plan is reached exactly once.
// - Dominance: a child whose offset is at or above the top of another unplaced buffer at
//   its minimum offset is skipped (that buffer fits entirely below it: a plan with it moved
//   down comes first in the order).
// - Inference by sections. Time is cut into sections at every lifetime end; buffers
//   overlap exactly when they share a section. In each section the unplaced buffers must
//   stack above max(the offset just placed, the highest top placed there): a node whose
//   any section passes |capacity| that way has no plan below it.
// - Dead buffers: an unplaced buffer whose every overlapping buffer is placed can never
//   be raised again; when its minimum offset lies below the order's current point, no
//   canonical plan goes on from the node.
// - Decomposition: once no unplaced buffer crosses the boundary between two sections,
//   the two sides are independent problems: each is searched alone (a failure on one side
//   is not retried against the choices of the other).
// - Ranks: a static order of the buffers (the tie-break, and the order children are
//   tried in among equal offsets), by several keys in turn: the largest live total of the
//   sections a buffer spans, its size, its area (size x lifetime). Each is tried with a
//   node limit that doubles round after round, so the one that suits the instance wins.
// The search is exact: "no fit" is only said when the whole tree was searched. It counts
// nodes: |max_nodes| bounds the work, so a result is the same on every machine and run.
// Memory: O(n + sections + overlaps + section entries), all from |scratch|.
#include <stdlib.h>
#include <string.h>

#include "metrale/checked.h"
#include "metrale/planner.h"
#include "planner_problem.h"

enum { kNoRank = 0xffffffffu };


typedef struct undo_min_t { uint32_t buf; uint64_t old; } undo_min_t;
typedef struct undo_floor_t { uint32_t sec; uint64_t old; } undo_floor_t;

typedef struct search_t {
  const xbuf_t *b;
  uint32_t n, nsec;
  const uint32_t *ovl;     // overlap lists
  const uint32_t *sec_at, *sec_buf;
  uint32_t *rank;          // buffer -> rank in its partition's order
  int order;               // the order's keys: kOrders[order]
  struct rkey_t *rkeys;    // beside |lists|: sort keys, then the ranks taken back
  uint64_t cap;
  uint64_t *minoff;        // per buffer; UINT64_MAX once placed is not used: see placed
  uint64_t *off;           // the plan being built
  uint8_t *placed;
  uint32_t *upc;           // unplaced overlapping buffers, per buffer
  uint64_t *floor_;        // per section: the highest top placed there
  uint64_t *total;         // per section: the bytes of its unplaced buffers
  uint32_t *cut;           // per boundary s|s+1: unplaced buffers crossing it
  uint32_t *pstack; size_t npstack;  // placed buffers, in placement order
  undo_min_t *umin; size_t numin;
  undo_floor_t *ufl; size_t nufl, capufl, nspan;
  uint64_t *stamp;         // per section: the placement that last recomputed its floor
  uint64_t placements;
  uint32_t *lists;         // partitions' buffer lists (a stack)
  size_t nlists, caplists;
  struct cand_t *cand;     // a stack of the children of the nodes on the path
  size_t ncand, capcand;
  uint32_t *cutpts;        // a stack of cut points
  size_t ncut, capcut;
  uint64_t nodes, limit;
  const met_plan_limits_t *clock;  // the wall-clock cap, when there is one
  uint64_t deadline;
  uint64_t ticks;          // nodes over every search of this state: the clock's every 64th
  bool aborted;
} search_t;

typedef enum { kFail = 0, kFound = 1, kAbort = 2 } sres_t;

static sres_t solve_partition(search_t *s, uint32_t list, uint32_t count, uint32_t slo,
                              uint32_t shi);

// Places |x| at its minimum offset, logging what changes; false when a section's
// inference shows that nothing below this node fits.
static bool place(search_t *s, uint32_t x, uint32_t slo, uint32_t shi) {
  const xbuf_t *bx = &s->b[x];
  uint64_t o = s->minoff[x], top = o + bx->size;
  s->placed[x] = 1;
  s->off[x] = o;
  s->pstack[s->npstack++] = x;
  ++s->placements;
  size_t numin0 = s->numin;
  bool ok = true;
  for (uint32_t k = 0; k < bx->nov; ++k) {
    uint32_t y = s->ovl[bx->ov + k];
    if (s->placed[y]) continue;
    --s->upc[y];
    if (s->minoff[y] < top) {
      s->umin[s->numin].buf = y;
      s->umin[s->numin].old = s->minoff[y];
      ++s->numin;
      s->minoff[y] = top;
      if (top + s->b[y].size > s->cap) ok = false;
    }
  }
  for (uint32_t q = bx->slo; q < bx->shi; ++q) {
    s->ufl[s->nufl].sec = q;
    s->ufl[s->nufl].old = s->floor_[q];
    ++s->nufl;
    s->floor_[q] = top;
    s->total[q] -= bx->size;
    if (q + 1 < bx->shi) --s->cut[q];
  }
  if (!ok) return false;
  // Section inference with the floors as they were holds: every section's floor plus its
  // unplaced bytes fitted at the node, and the offset plus the largest total was tested
  // there (search).
  // The floor of a section is also the lowest minimum offset of its unplaced buffers:
  // raised where this placement raised one of them, and that section tested again.
  for (size_t u = numin0; u < s->numin; ++u) {
    const xbuf_t *by = &s->b[s->umin[u].buf];
    for (uint32_t q = by->slo; q < by->shi; ++q) {
      // A floor at or above the raised offset cannot rise; each section once a placement.
      if (s->floor_[q] >= s->minoff[s->umin[u].buf] || s->stamp[q] == s->placements) continue;
      s->stamp[q] = s->placements;
      uint64_t m = UINT64_MAX;
      for (uint32_t e = s->sec_at[q]; e < s->sec_at[q + 1]; ++e) {
        uint32_t z = s->sec_buf[e];
        if (!s->placed[z] && s->minoff[z] < m) m = s->minoff[z];
      }
      if (m != UINT64_MAX && m > s->floor_[q]) {
        if (s->nufl + s->nspan >= s->capufl) continue;  // no room: a weaker floor, still sound
        s->ufl[s->nufl].sec = q;
        s->ufl[s->nufl].old = s->floor_[q];
        ++s->nufl;
        s->floor_[q] = m;
        if (q >= slo && q < shi && (m > o ? m : o) + s->total[q] > s->cap) return false;
      }
    }
  }
  return true;
}

// Takes back every placement after the marks (the placement stack's and the logs').
static void unplace_to(search_t *s, size_t npstack, size_t numin, size_t nufl) {
  while (s->npstack > npstack) {
    uint32_t x = s->pstack[--s->npstack];
    const xbuf_t *bx = &s->b[x];
    s->placed[x] = 0;
    for (uint32_t k = 0; k < bx->nov; ++k) {
      uint32_t y = s->ovl[bx->ov + k];
      if (!s->placed[y]) ++s->upc[y];
    }
    for (uint32_t q = bx->slo; q < bx->shi; ++q) {
      s->total[q] += bx->size;
      if (q + 1 < bx->shi) ++s->cut[q];
    }
  }
  while (s->numin > numin) {
    --s->numin;
    s->minoff[s->umin[s->numin].buf] = s->umin[s->numin].old;
  }
  while (s->nufl > nufl) {
    --s->nufl;
    s->floor_[s->ufl[s->nufl].sec] = s->ufl[s->nufl].old;
  }
}

// The unplaced buffers of the partition |list| that lie in sections [lo, hi), pushed as a
// new list on the lists stack; their count in |*out_count|.
static uint32_t sub_list(search_t *s, uint32_t list, uint32_t count, uint32_t lo, uint32_t hi,
                         uint32_t *out_count) {
  uint32_t at = (uint32_t)s->nlists, m = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t y = s->lists[list + i];
    if (s->placed[y] || s->b[y].shi <= lo || s->b[y].slo >= hi) continue;
    s->lists[s->nlists++] = y;
    ++m;
  }
  *out_count = m;
  return at;
}

// Whether |y| may be the next child of a node whose order's point is (|at|, |at_rank|):
// unplaced, its minimum offset below |below| (under every unplaced buffer's top, and with
// room: see search) and not before the point.
static bool may_follow(const search_t *s, uint32_t y, uint64_t at, uint32_t at_rank,
                       uint64_t below) {
  uint64_t o = s->minoff[y];
  if (s->placed[y] || o >= below) return false;
  return !(o < at || (o == at && at_rank != kNoRank && s->rank[y] < at_rank));
}

// The child after (|*po|, |*pr|) (kNoRank: the first) in (minimum offset, rank) order,
// for a node whose children could not be stored; kNoRank when none is left.
static uint32_t next_child(const search_t *s, uint32_t list, uint32_t count, uint64_t at,
                           uint32_t at_rank, uint64_t below, uint64_t *po, uint32_t *pr) {
  uint32_t pick = kNoRank;
  uint64_t bo = 0;
  uint32_t br = kNoRank;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t y = s->lists[list + i];
    if (!may_follow(s, y, at, at_rank, below)) continue;
    uint64_t o = s->minoff[y];
    uint32_t r = s->rank[y];
    if (*pr != kNoRank && (o < *po || (o == *po && r <= *pr))) continue;
    if (pick == kNoRank || o < bo || (o == bo && r < br)) { pick = y; bo = o; br = r; }
  }
  if (pick != kNoRank) { *po = bo; *pr = br; }
  return pick;
}

typedef struct cand_t { uint64_t k; uint32_t r, buf; } cand_t;

static bool cand_less(const cand_t *a, const cand_t *b) {
  return a->k != b->k ? a->k < b->k : a->r < b->r;
}

static int cmp_cand(const void *pa, const void *pb) {
  const cand_t *a = pa, *b = pb;
  return cand_less(a, b) ? -1 : cand_less(b, a);
}

static void sort_cands(cand_t *c, size_t n) {
  if (n > 24) { qsort(c, n, sizeof(cand_t), cmp_cand); return; }
  for (size_t i = 1; i < n; ++i) {
    cand_t v = c[i];
    size_t j = i;
    for (; j > 0 && cand_less(&v, &c[j - 1]); --j) c[j] = c[j - 1];
    c[j] = v;
  }
}

// Searches on from a node where the partition's buffers in |list| (those placed skipped)
// are to be placed in sections [slo, shi), the order's point being (|at|, |at_rank|).
static sres_t search(search_t *s, uint32_t list, uint32_t count, uint32_t slo, uint32_t shi,
                     uint64_t at, uint32_t at_rank) {
  if (++s->nodes > s->limit) return kAbort;
  if (s->clock && (++s->ticks & 63) == 0 && s->clock->now_ns(s->clock->now_user) > s->deadline) {
    s->aborted = true;
    return kAbort;
  }
  // The lowest top of an unplaced buffer (dominance), and whether any is left.
  // A buffer none of whose overlapping buffers is left can never rise again: below the
  // order's point, it is dead.
  uint64_t min_height = UINT64_MAX;
  bool any = false;
  // Monotone floor: every unplaced buffer goes at this child's offset or above, so a child
  // at offset o fits only if o plus the largest unplaced total of a section does (in a
  // section the child spans, its top plus what is left there is the same sum).
  uint64_t tmax = 0;
  for (uint32_t q = slo; q < shi; ++q) if (s->total[q] > tmax) tmax = s->total[q];
  uint64_t omax = tmax <= s->cap ? s->cap - tmax : 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t y = s->lists[list + i];
    if (s->placed[y]) continue;
    any = true;
    uint64_t h = s->minoff[y] + s->b[y].size;
    if (h < min_height) min_height = h;
    if (s->upc[y] == 0 && at_rank != kNoRank &&
        (s->minoff[y] < at || (s->minoff[y] == at && s->rank[y] < at_rank)))
      return kFail;
  }
  if (!any) return kFound;
  // The children: the buffers the order allows that no other buffer dominates, tried in
  // (minimum offset, rank) order (their minimum offsets are the same before each).
  size_t c0 = s->ncand, nc = 0;
  bool stored = true;
  uint64_t below = min_height < omax + 1 ? min_height : omax + 1;  // dominated, or no room
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t y = s->lists[list + i];
    if (!may_follow(s, y, at, at_rank, below)) continue;
    if (c0 + nc == s->capcand) { stored = false; break; }  // no room: scan for each
    s->cand[c0 + nc].k = s->minoff[y];
    s->cand[c0 + nc].r = s->rank[y];
    s->cand[c0 + nc].buf = y;
    ++nc;
  }
  if (stored) {
    sort_cands(s->cand + c0, nc);
    s->ncand = c0 + nc;
  } else {
    nc = SIZE_MAX;
  }
  uint64_t po = 0;
  uint32_t pr = kNoRank;
  for (size_t ci = 0; ci < nc; ++ci) {
    uint32_t pick;
    if (stored) {
      pick = s->cand[c0 + ci].buf;
      po = s->cand[c0 + ci].k;
      pr = s->cand[c0 + ci].r;
    } else if ((pick = next_child(s, list, count, at, at_rank, below, &po, &pr)) == kNoRank) {
      break;
    }
    bool hatless = s->upc[pick] == 0;
    size_t npstack = s->npstack, numin = s->numin, nufl = s->nufl, nlists = s->nlists;
    sres_t res = kFail;
    if (place(s, pick, slo, shi)) {
      // Boundaries that no unplaced buffer crosses any more split the rest.
      size_t ncut = s->ncut;
      const xbuf_t *bp = &s->b[pick];
      for (uint32_t q = bp->slo > slo ? bp->slo : slo; q + 1 < bp->shi && q + 1 < shi; ++q)
        if (s->cut[q] == 0) {
          if (s->ncut == s->capcut) { s->ncut = ncut; break; }  // no room: search on whole
          s->cutpts[s->ncut++] = q + 1;
        }
      if (s->ncut > ncut && s->nlists + count > s->caplists) s->ncut = ncut;  // no room
      if (s->ncut == ncut) {
        res = search(s, list, count, slo, shi, po, pr);
      } else {
        res = kFound;
        uint32_t lo = slo;
        for (size_t c = ncut; c <= s->ncut && res == kFound; ++c) {
          uint32_t hi = c < s->ncut ? s->cutpts[c] : shi;
          uint32_t m, sub = sub_list(s, list, count, lo, hi, &m);
          if (m) res = solve_partition(s, sub, m, lo, hi);
          s->nlists = (size_t)sub;
          lo = hi;
        }
      }
      s->ncut = ncut;
    }
    if (res == kFound) { s->ncand = c0; return kFound; }  // the plan stays in s->off
    unplace_to(s, npstack, numin, nufl);
    s->nlists = nlists;
    // A child with no unplaced buffer alive with it is forced: later children leave it
    // below the order's point for good.
    if (res == kAbort || hatless) { s->ncand = c0; return res; }
  }
  s->ncand = c0;
  return kFail;
}

// Sort keys of the orders, each descending, then the buffer's index: W, the buffer's
// lifetime (positions); A, its area (bytes x lifetime, saturating); T, the largest total of
// unplaced bytes in a section it spans, taken when its partition is solved (so a part split
// off during the search is ordered by what is left in it). The orders are WAT, TAW, TWA, as
// MiniMalloc's defaults.
typedef struct rkey_t { uint64_t k[3]; uint32_t idx; } rkey_t;
static const int kOrders[3][3] = {{0, 1, 2}, {2, 1, 0}, {2, 0, 1}};
enum { kNumOrders = 3 };

static int cmp_rkey(const void *pa, const void *pb) {
  const rkey_t *a = pa, *b = pb;
  for (int i = 0; i < 3; ++i)
    if (a->k[i] != b->k[i]) return a->k[i] > b->k[i] ? -1 : 1;
  return a->idx < b->idx ? -1 : (a->idx > b->idx);
}

// Ranks the partition's buffers (lists[list, list + count)) by the current order, keeping
// their old ranks in rkeys beside them, solves it, and gives the old ranks back.
static sres_t solve_partition(search_t *s, uint32_t list, uint32_t count, uint32_t slo,
                              uint32_t shi) {
  rkey_t *k = s->rkeys + list;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t y = s->lists[list + i];
    const xbuf_t *by = &s->b[y];
    uint64_t t = 0;
    for (uint32_t q = by->slo; q < by->shi; ++q) if (s->total[q] > t) t = s->total[q];
    uint64_t area;
    if (!met_mul_u64(by->size, by->width, &area)) area = UINT64_MAX;
    uint64_t v[3] = {by->width, area, t};
    for (int j = 0; j < 3; ++j) k[i].k[j] = v[kOrders[s->order][j]];
    k[i].idx = y;
  }
  qsort(k, count, sizeof(rkey_t), cmp_rkey);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t y = k[i].idx;
    s->lists[list + i] = y;  // the scan order of a node's children
    k[i].k[0] = s->rank[y];
    s->rank[y] = i;
  }
  sres_t res = search(s, list, count, slo, shi, 0, kNoRank);
  for (uint32_t i = 0; i < count; ++i) s->rank[s->lists[list + i]] = (uint32_t)k[i].k[0];
  return res;
}

// ---------------------------------------------------------------------------------------
// The search state, reset for each capacity (the problem it searches is built once per
// buffer set: planner_problem.c).

static met_status_t state_init(const xproblem_t *p, met_arena_t *a, search_t *s) {
  memset(s, 0, sizeof(*s));
  size_t n = p->n ? p->n : 1, ns = p->nsec + 1;
  s->b = p->b;
  s->n = p->n;
  s->nsec = p->nsec;
  s->ovl = p->ovl;
  s->sec_at = p->sec_at;
  s->sec_buf = p->sec_buf;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n, sizeof(uint64_t), (void **)&s->minoff));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n, sizeof(uint64_t), (void **)&s->off));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n, sizeof(uint8_t), (void **)&s->placed));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n, sizeof(uint32_t), (void **)&s->upc));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n, sizeof(uint32_t), (void **)&s->pstack));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, ns, sizeof(uint64_t), (void **)&s->floor_));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, ns, sizeof(uint64_t), (void **)&s->total));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, ns, sizeof(uint32_t), (void **)&s->cut));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, p->novl ? p->novl : 1, sizeof(undo_min_t), (void **)&s->umin));
  // Floor changes along one path: a placement's own sections (nspan at most: each buffer
  // is placed once), and sections whose lowest unplaced minimum offset rose (up to every
  // section per placement in the worst case). The log holds 4 x (nspan + sections); a
  // raise that would eat into the nspan kept for own sections is not made (a weaker
  // floor: a lost pruning, never a wrong answer).
  s->nspan = p->nspan;
  s->capufl = 4 * (p->nspan + ns);
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->capufl, sizeof(undo_floor_t), (void **)&s->ufl));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, ns, sizeof(uint64_t), (void **)&s->stamp));
  // Partition lists: the root's n, then sub-lists while there is room (8n in all).
  s->caplists = 8 * n + 64;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->caplists, sizeof(uint32_t), (void **)&s->lists));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->caplists, sizeof(rkey_t), (void **)&s->rkeys));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n, sizeof(uint32_t), (void **)&s->rank));
  s->capcand = 16 * n + 1024;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->capcand, sizeof(struct cand_t), (void **)&s->cand));
  s->capcut = 4 * ns + 64;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->capcut, sizeof(uint32_t), (void **)&s->cutpts));
#ifdef MET_PLAN_TINY_STACKS
  // The test build (test_planner_exact_tiny) runs out of every stack at once, so that each
  // "no room" path (a weaker floor, candidates scanned for each child, no decomposition,
  // no sub-lists) is taken, and answers must stay exact.
  s->capufl = s->nspan + 1;
  s->caplists = n + 1;
  s->capcand = 2;
  s->capcut = 1;
#endif
  return MET_OK;
}

// One search for |cap| with order |h|, at most |limit| nodes: kFound (the plan in s->off),
// kFail (proven: nothing fits), kAbort (the limit or the wall-clock cap).
static sres_t run_search(const xproblem_t *p, search_t *s, int h, uint64_t cap, uint64_t limit) {
  s->cap = cap;
  s->order = h;
  s->nodes = 0;
  s->limit = limit;
  s->numin = s->nufl = s->npstack = s->ncut = s->ncand = 0;
  for (uint32_t x = 0; x < p->n; ++x) {
    s->minoff[x] = 0;
    s->placed[x] = 0;
    s->upc[x] = p->b[x].nov;
    if (p->b[x].size > cap) return kFail;
  }
  memcpy(s->total, p->sec_total, p->nsec * sizeof(uint64_t));
  memset(s->floor_, 0, p->nsec * sizeof(uint64_t));
  if (p->nsec > 1) memcpy(s->cut, p->cut0, (p->nsec - 1) * sizeof(uint32_t));
  if (p->peak > cap) return kFail;
  // The root's own independent parts (boundaries no buffer crosses) are solved one by one.
  s->nlists = 0;
  for (uint32_t x = 0; x < p->n; ++x) s->lists[s->nlists++] = x;
  uint32_t lo = 0;
  sres_t res = kFound;
  for (uint32_t q = 0; q < p->nsec && res == kFound; ++q) {
    if (q + 1 < p->nsec && s->cut[q] != 0) continue;
    uint32_t hi = q + 1, m, sub = sub_list(s, 0, p->n, lo, hi, &m);
    if (m) res = solve_partition(s, sub, m, lo, hi);
    s->nlists = sub;
    lo = hi;
  }
  return res;
}

static void start_clock(search_t *s, const met_plan_limits_t *limits) {
  if (!limits || !limits->now_ns || !limits->max_ns) return;
  s->clock = limits;
  uint64_t t = limits->now_ns(limits->now_user);
  s->deadline = t > UINT64_MAX - limits->max_ns ? UINT64_MAX : t + limits->max_ns;
}

// Decides |cap| on a built problem: the orders in round robin, the node limit doubling each
// round, until one finds a plan or proves there is none, or |*budget| nodes are spent
// (each node taken from it) or the wall-clock cap passes.
static sres_t decide(const xproblem_t *p, search_t *s, uint64_t cap, uint64_t *budget) {
  uint64_t limit = p->n > 16 ? p->n : 16;
  sres_t res = kAbort;
  while (res == kAbort && *budget && !s->aborted) {
    for (int h = 0; h < kNumOrders && *budget && !s->aborted; ++h) {
      uint64_t lim = limit < *budget ? limit : *budget;
      res = run_search(p, s, h, cap, lim);
      *budget -= s->nodes < lim ? s->nodes : lim;
      if (res != kAbort) return res;
    }
    limit = limit > UINT64_MAX / 2 ? UINT64_MAX : 2 * limit;
  }
  return kAbort;
}

static void copy_plan(const xproblem_t *p, const search_t *s, size_t count, uint64_t *out) {
  for (size_t i = 0; i < count; ++i) out[i] = 0;
  for (uint32_t x = 0; x < p->n; ++x) out[p->orig[x]] = s->off[x];
}

met_status_t met_planner_fit(const met_buffer_t *buffers, size_t count, uint32_t positions,
                             uint64_t capacity, const met_plan_limits_t *limits,
                             met_arena_t *scratch, uint64_t *out_offsets, met_fit_t *out_fit,
                             uint64_t *out_nodes) {
  *out_fit = MET_FIT_UNKNOWN;
  if (out_nodes) *out_nodes = 0;
  xproblem_t p;
  bool too_big;
  MET_RETURN_IF_ERROR(met_xproblem_build(buffers, count, positions, limits ? limits->lengths : NULL,
                                    scratch, &p, &too_big));
  if (too_big) return MET_OK;
  search_t s;
  MET_RETURN_IF_ERROR(state_init(&p, scratch, &s));
  start_clock(&s, limits);
  uint64_t budget0 = limits ? limits->max_nodes : UINT64_MAX, budget = budget0;
  sres_t res = decide(&p, &s, capacity, &budget);
  if (out_nodes) *out_nodes = budget0 - budget;
  if (res == kFail) *out_fit = MET_FIT_NO;
  if (res == kFound) {
    *out_fit = MET_FIT_YES;
    copy_plan(&p, &s, count, out_offsets);
  }
  return MET_OK;
}

const char *met_plan_proof_name(met_plan_proof_t p) {
  switch (p) {
    case MET_PLAN_AT_BOUND: return "lower-bound";
    case MET_PLAN_OPTIMAL: return "optimal";
    case MET_PLAN_BEST_FOUND: return "best-found";
  }
  return NULL;
}

met_status_t met_planner_solve(const met_buffer_t *buffers, size_t count, uint32_t positions,
                               met_plan_strategy_t strategy, uint64_t lower_bound,
                               const met_plan_limits_t *limits, met_arena_t *scratch,
                               uint64_t *out_offsets, met_plan_outcome_t *out) {
  memset(out, 0, sizeof(*out));
  if (!lower_bound)
    MET_RETURN_IF_ERROR(met_planner_peak_live(buffers, count, positions, scratch, &lower_bound));
  MET_RETURN_IF_ERROR(met_planner_plan_bounded(buffers, count, positions, strategy, lower_bound,
                                               scratch, out_offsets, &out->arena_bytes));
  out->lower_bound = lower_bound;
  out->proof = out->arena_bytes <= lower_bound ? MET_PLAN_AT_BOUND : MET_PLAN_BEST_FOUND;
  uint64_t budget = limits ? limits->max_nodes : UINT64_MAX;
  if (out->proof == MET_PLAN_AT_BOUND || strategy != MET_PLAN_BEST || !budget) return MET_OK;
  xproblem_t p;
  bool too_big;
  MET_RETURN_IF_ERROR(met_xproblem_build(buffers, count, positions, limits ? limits->lengths : NULL,
                                    scratch, &p, &too_big));
  if (too_big || !p.gcd) return MET_OK;
  search_t s;
  MET_RETURN_IF_ERROR(state_init(&p, scratch, &s));
  start_clock(&s, limits);
  uint64_t g = p.gcd;
  // Questions over [lo, hi): hi = the best arena so far, lo = where the next may start;
  // each asks a multiple of g. First up to three quick halvings (the middle, each with a
  // 32nd of the budget: plans well below the greedy ones are often easy to find, so a
  // search that ends early still improves), then the bound itself with three quarters of
  // what is left (most plans that beat the greedy ones meet it), then bisection, each
  // question a quarter of what is left (at least 64 nodes a buffer). A "no" proves every
  // capacity up to the one asked; a quick halving the budget leaves open only ends the
  // halvings, any later open question moves lo on without proving anything.
  if (lower_bound > UINT64_MAX - g) return MET_OK;
  uint64_t lo = (lower_bound + g - 1) / g * g, proven = lower_bound, start = budget;
  int step = 0;  // 0-2: quick halvings; 3: the bound; 4: bisection
  while (lo < out->arena_bytes && budget && !s.aborted) {
    uint64_t hi = out->arena_bytes;
    uint64_t mid = lo + (hi - g - lo) / g / 2 * g;  // in [lo, hi - g]
    uint64_t ask = step == 3 ? lo : mid;
    uint64_t share = step < 3 ? budget / 32 : step == 3 ? budget / 4 * 3 : budget / 4;
    uint64_t floor_share = 64 * (uint64_t)p.n;
    if (share < floor_share) share = floor_share < budget ? floor_share : budget;
    uint64_t left = share;
    sres_t r = decide(&p, &s, ask, &left);
    budget -= share - left;
    if (r == kFound) {
      uint64_t a = 0;
      for (uint32_t x = 0; x < p.n; ++x)
        if (s.off[x] + p.b[x].size > a) a = s.off[x] + p.b[x].size;
      out->arena_bytes = a;
      copy_plan(&p, &s, count, out_offsets);
    } else if (r == kFail) {
      if (ask + g > proven) proven = ask + g;  // plans' arenas are multiples of g
      lo = ask + g;
    } else if (step >= 3) {
      lo = ask + g;
    } else {
      step = 2;  // an open halving: on to the bound
    }
    if (step < 4) ++step;
  }
  out->nodes = start - budget;
  out->stopped = s.aborted;
  if (proven > out->lower_bound) out->lower_bound = proven < out->arena_bytes ? proven : out->arena_bytes;
  if (out->arena_bytes <= lower_bound) out->proof = MET_PLAN_AT_BOUND;
  else if (out->lower_bound >= out->arena_bytes) out->proof = MET_PLAN_OPTIMAL;
  return MET_OK;
}
