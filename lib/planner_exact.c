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
// - Children without scans: the unplaced buffers the order still allows (those after the
//   order's current point) are kept in a tournament tree per partition, keyed (minimum
//   offset, rank); a child that failed is hidden from it until the node returns, or
//   until a placement raises it past the point again. Another tree keeps the lowest top
//   of the unplaced buffers (dominance), a third the largest unplaced total of a section
//   (inference). A node then costs O(log n) plus what its placement changes, not a scan
//   of its partition: a dive to a plan is n log n, not n^2 log n (a chain of 20,000
//   buffers, where the greedy orders miss the bound, took 4 s before).
//   (No unplaced buffer below the point is ever left without an unplaced neighbour: a
//   child with none ends its node when it fails, and placing a neighbour raises a
//   buffer above the point, sizes being positive. So no "dead buffer" test is needed.)
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
// The trees (akey/arank/bval, 2m entries for a partition of m) sit beside the partition's
// list: at 2 x its offset in the lists stack, so a partition's trees live and go with it.
#include <stdlib.h>
#include <string.h>

#include "metrale/checked.h"
#include "metrale/planner.h"
#include "planner_problem.h"


typedef struct undo_min_t { uint32_t buf; uint64_t old; } undo_min_t;
typedef struct undo_floor_t { uint32_t sec; uint64_t old; } undo_floor_t;
typedef struct undo_hide_t { uint32_t buf, old; } undo_hide_t;

// Partitions of at least this many buffers keep their children in trees; smaller ones are
// scanned at each node (a placement among densely overlapping buffers raises many of them,
// and a scan of a few hundred costs less than their trees' upkeep: MiniMalloc's instances
// take twice as long with trees). A test build (test_planner_exact_trees,
// MET_PLAN_TINY_TREES) gives every partition trees, so the brute-force suite checks both.
#ifdef MET_PLAN_TINY_TREES
enum { kTreeMin = 1 };
#else
enum { kTreeMin = 1024 };
#endif

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
  // The partition being searched: its list (and trees) at |tl|, |tn| buffers, nested
  // |depth| partitions deep (a buffer's |hidden| is the depth it was hidden at, 0: never).
  uint32_t tl, tn, depth;
  bool tree;               // the partition has trees (kTreeMin buffers or more)
  bool sections_tree;      // the problem has (smax is kept): kTreeMin buffers or more
  uint64_t *akey;          // children tree: (minimum offset, rank) of the visible buffers
  uint32_t *arank;         //   (UINT64_MAX: placed or hidden), the least at node 1
  uint64_t *bval;          // heights tree: minimum offset + size of the unplaced buffers
  uint64_t *smax;          // sections tree: the largest total (nsec leaves at [nsec, 2nsec))
  uint32_t *hidden;
  undo_hide_t *uhide; size_t nhide, caphide;
  struct cand_t *cand;     // without trees: a stack of the children of the nodes on the path
  size_t ncand, capcand;
  struct frame_t *frames;  // the search's own stack (solve_partition)
  size_t nframes, capframes;
  uint32_t *cutpts;        // a stack of cut points
  size_t ncut, capcut;
  uint64_t nodes, limit;
  const met_plan_limits_t *clock;  // the wall-clock cap, when there is one
  uint64_t deadline;
  uint64_t ticks;          // nodes over every search of this state: the clock's every 64th
  bool aborted;
  bool full;               // the hide log ran out: the search stops, unknown
} search_t;

typedef enum { kFail = 0, kFound = 1, kAbort = 2 } sres_t;


// The trees of the partition being searched, at |y|'s leaf (its rank), from |y|'s state.
static void tree_set(search_t *s, uint32_t y) {
  if (!s->tree) return;
  uint32_t m = s->tn, i = m + s->rank[y];
  uint64_t *ak = s->akey + 2 * (size_t)s->tl, *bv = s->bval + 2 * (size_t)s->tl;
  uint32_t *ar = s->arank + 2 * (size_t)s->tl;
  ak[i] = s->placed[y] || s->hidden[y] == s->depth ? UINT64_MAX : s->minoff[y];
  ar[i] = s->rank[y];
  bv[i] = s->placed[y] ? UINT64_MAX : s->minoff[y] + s->b[y].size;
  // Up to the first node that does not change: those above it are unchanged too.
  for (i >>= 1; i; i >>= 1) {
    uint32_t l = 2 * i, r = l + 1;
    bool right = ak[r] < ak[l] || (ak[r] == ak[l] && ar[r] < ar[l]);
    uint64_t k = ak[right ? r : l], h = bv[l] < bv[r] ? bv[l] : bv[r];
    uint32_t rk = ar[right ? r : l];
    if (k == ak[i] && rk == ar[i] && h == bv[i]) break;
    ak[i] = k;
    ar[i] = rk;
    bv[i] = h;
  }
}

// The partition's trees built from its buffers' state (lists[tl, tl + tn) in rank order).
static void tree_build(search_t *s) {
  uint32_t m = s->tn;
  uint64_t *ak = s->akey + 2 * (size_t)s->tl, *bv = s->bval + 2 * (size_t)s->tl;
  uint32_t *ar = s->arank + 2 * (size_t)s->tl;
  for (uint32_t k = 0; k < m; ++k) {
    uint32_t y = s->lists[s->tl + k];
    ak[m + k] = s->placed[y] || s->hidden[y] == s->depth ? UINT64_MAX : s->minoff[y];
    ar[m + k] = k;
    bv[m + k] = s->placed[y] ? UINT64_MAX : s->minoff[y] + s->b[y].size;
  }
  for (uint32_t i = m - 1; i >= 1; --i) {
    uint32_t l = 2 * i, r = l + 1;
    bool right = ak[r] < ak[l] || (ak[r] == ak[l] && ar[r] < ar[l]);
    ak[i] = ak[right ? r : l];
    ar[i] = ar[right ? r : l];
    bv[i] = bv[l] < bv[r] ? bv[l] : bv[r];
  }
}

// Section |q|'s total into the sections tree.
static void smax_set(search_t *s, uint32_t q) {
  if (!s->sections_tree) return;
  uint32_t i = s->nsec + q;
  s->smax[i] = s->total[q];
  for (i >>= 1; i; i >>= 1) {
    uint64_t m = s->smax[2 * i] > s->smax[2 * i + 1] ? s->smax[2 * i] : s->smax[2 * i + 1];
    if (m == s->smax[i]) break;  // nothing above changes
    s->smax[i] = m;
  }
}

// The largest total of sections [lo, hi).
static uint64_t smax_range(const search_t *s, uint32_t lo, uint32_t hi) {
  uint64_t m = 0;
  if (!s->sections_tree) {
    for (uint32_t q = lo; q < hi; ++q) if (s->total[q] > m) m = s->total[q];
    return m;
  }
  for (uint32_t l = lo + s->nsec, r = hi + s->nsec; l < r; l >>= 1, r >>= 1) {
    if (l & 1) { if (s->smax[l] > m) m = s->smax[l]; ++l; }
    if (r & 1) { --r; if (s->smax[r] > m) m = s->smax[r]; }
  }
  return m;
}

// Places |x| at its minimum offset, logging what changes; false when a section's
// inference shows that nothing below this node fits.
static bool place(search_t *s, uint32_t x, uint32_t slo, uint32_t shi) {
  const xbuf_t *bx = &s->b[x];
  uint64_t o = s->minoff[x], top = o + bx->size;
  s->placed[x] = 1;
  s->off[x] = o;
  s->pstack[s->npstack++] = x;
  ++s->placements;
  tree_set(s, x);
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
      // Raised past the order's point (top > o): a hidden child is a child again.
      if (s->hidden[y] == s->depth) {
        if (s->nhide == s->caphide) { s->full = true; ok = false; }
        else {
          s->uhide[s->nhide].buf = y;
          s->uhide[s->nhide++].old = s->hidden[y];
          s->hidden[y] = 0;
        }
      }
      tree_set(s, y);
    }
  }
  for (uint32_t q = bx->slo; q < bx->shi; ++q) {
    s->ufl[s->nufl].sec = q;
    s->ufl[s->nufl].old = s->floor_[q];
    ++s->nufl;
    s->floor_[q] = top;
    s->total[q] -= bx->size;
    smax_set(s, q);
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

// The marks of the placement stack and the logs, taken before a child.
typedef struct marks_t { size_t npstack, numin, nufl, nhide; } marks_t;

static marks_t marks(const search_t *s) {
  marks_t m = {s->npstack, s->numin, s->nufl, s->nhide};
  return m;
}

// Takes back every placement and hiding after |m|. The current partition's trees are set
// again for each buffer a log names, after the logs before it are undone (each log
// restores one kind of state, so a buffer's last setting sees all of its own restored).
static void unplace_to(search_t *s, marks_t m) {
  while (s->npstack > m.npstack) {
    uint32_t x = s->pstack[--s->npstack];
    const xbuf_t *bx = &s->b[x];
    s->placed[x] = 0;
    for (uint32_t k = 0; k < bx->nov; ++k) {
      uint32_t y = s->ovl[bx->ov + k];
      if (!s->placed[y]) ++s->upc[y];
    }
    for (uint32_t q = bx->slo; q < bx->shi; ++q) {
      s->total[q] += bx->size;
      smax_set(s, q);
      if (q + 1 < bx->shi) ++s->cut[q];
    }
    tree_set(s, x);
  }
  while (s->numin > m.numin) {
    --s->numin;
    s->minoff[s->umin[s->numin].buf] = s->umin[s->numin].old;
    tree_set(s, s->umin[s->numin].buf);
  }
  while (s->nufl > m.nufl) {
    --s->nufl;
    s->floor_[s->ufl[s->nufl].sec] = s->ufl[s->nufl].old;
  }
  while (s->nhide > m.nhide) {
    --s->nhide;
    s->hidden[s->uhide[s->nhide].buf] = s->uhide[s->nhide].old;
    tree_set(s, s->uhide[s->nhide].buf);
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

// The search runs on a stack of frames of its own (from the scratch arena), not the
// machine's: a dive to a plan is one node per buffer, and 65,536 nested calls of ~300 B
// overflowed the 8 MiB stack of a thread (MLIR's pass threads, stock mlir-opt's main).
// A part frame ranks a partition and gives its ranks back; a node frame is one node of
// the search, its stage saying where it goes on when the frame above it returns.
enum { kPart, kNode };
enum { kEntry, kNext, kAfterChild, kAfterPart };

typedef struct frame_t {
  uint8_t kind, stage;
  bool stored, hatless, tree;
  uint32_t list, count, slo, shi;
  uint32_t pick, lo, sub, tl, tn, depth;
  uint64_t below;
  size_t nhide0, c0, nc, ci, nlists, ncut0, ncut1, c;
  marks_t mk;
  sres_t out;
} frame_t;

// Pushes a frame of |kind| for the partition |list| over sections [slo, shi); false (the
// search stops, unknown) when the frame stack is full.
static bool push(search_t *s, int kind, uint32_t list, uint32_t count, uint32_t slo,
                 uint32_t shi) {
  if (s->nframes == s->capframes) { s->full = true; return false; }
  frame_t *f = &s->frames[s->nframes++];
  f->kind = (uint8_t)kind;
  f->stage = kEntry;
  f->list = list;
  f->count = count;
  f->slo = slo;
  f->shi = shi;
  return true;
}

// A part frame's start: ranks the partition's buffers (lists[list, list + count)) by the
// current order, keeping their old ranks in rkeys beside them, and makes its trees.
static void part_enter(search_t *s, frame_t *f) {
  uint32_t list = f->list, count = f->count;
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
    s->lists[list + i] = y;  // the trees' leaves, in rank order
    k[i].k[0] = s->rank[y];
    s->rank[y] = i;
  }
  // A part is searched on its own, its order's point back at the start: its own trees,
  // one partition deeper (what the enclosing search hid is a child here again).
  f->tl = s->tl;
  f->tn = s->tn;
  f->depth = s->depth;
  f->tree = s->tree;
  s->tl = list;
  s->tn = count;
  s->depth = f->depth + 1;
  s->tree = count >= kTreeMin;
  if (s->tree) tree_build(s);
}

static void part_leave(search_t *s, const frame_t *f) {
  s->tl = f->tl;
  s->tn = f->tn;
  s->depth = f->depth;
  s->tree = f->tree;
  const rkey_t *k = s->rkeys + f->list;
  for (uint32_t i = 0; i < f->count; ++i) s->rank[s->lists[f->list + i]] = (uint32_t)k[i].k[0];
}

// A node's start: false with |*res| when it ends at once (a limit, or nothing left).
// Else its children: the buffers the order allows that no other buffer dominates (their
// top above the lowest top, or no room), in (minimum offset, rank) order: the children
// tree's least, each hidden once it failed; without trees they are listed and sorted
// once (their minimum offsets are the same before each), or, when the stack has no room,
// each found by a scan.
static bool node_enter(search_t *s, frame_t *f, sres_t *res) {
  if (++s->nodes > s->limit) { *res = kAbort; return false; }
  if (s->clock && (++s->ticks & 63) == 0 && s->clock->now_ns(s->clock->now_user) > s->deadline) {
    s->aborted = true;
    *res = kAbort;
    return false;
  }
  // The lowest top of an unplaced buffer (dominance), and whether any is left.
  const uint64_t *bv = s->bval + 2 * (size_t)s->tl;
  uint64_t min_height = UINT64_MAX;
  if (s->tree) {
    min_height = bv[s->tn > 1 ? 1 : s->tn];  // a partition of one buffer: its leaf
  } else {
    for (uint32_t i = 0; i < f->count; ++i) {
      uint32_t y = s->lists[f->list + i];
      if (!s->placed[y] && s->minoff[y] + s->b[y].size < min_height)
        min_height = s->minoff[y] + s->b[y].size;
    }
  }
  if (min_height == UINT64_MAX) { *res = kFound; return false; }
  // Monotone floor: every unplaced buffer goes at this child's offset or above, so a child
  // at offset o fits only if o plus the largest unplaced total of a section does (in a
  // section the child spans, its top plus what is left there is the same sum).
  uint64_t tmax = smax_range(s, f->slo, f->shi);
  uint64_t omax = tmax <= s->cap ? s->cap - tmax : 0;
  f->below = min_height < omax + 1 ? min_height : omax + 1;  // dominated, or no room
  f->nhide0 = s->nhide;
  f->out = kFail;
  f->c0 = s->ncand;
  f->nc = f->ci = 0;
  f->stored = false;
  if (!s->tree) {
    f->stored = true;
    for (uint32_t i = 0; i < f->count; ++i) {
      uint32_t y = s->lists[f->list + i];
      if (s->placed[y] || s->hidden[y] == s->depth || s->minoff[y] >= f->below) continue;
      if (f->c0 + f->nc == s->capcand) { f->stored = false; break; }  // no room: scan
      s->cand[f->c0 + f->nc].k = s->minoff[y];
      s->cand[f->c0 + f->nc].r = s->rank[y];
      s->cand[f->c0 + f->nc].buf = y;
      ++f->nc;
    }
    if (f->stored) {
      sort_cands(s->cand + f->c0, f->nc);
      s->ncand = f->c0 + f->nc;
    }
  }
  return true;
}

// The node's next child, UINT32_MAX when none is left.
static uint32_t next_child(search_t *s, frame_t *f) {
  if (s->tree) {
    const uint64_t *ak = s->akey + 2 * (size_t)s->tl;
    const uint32_t *ar = s->arank + 2 * (size_t)s->tl;
    uint32_t root = s->tn > 1 ? 1 : s->tn;
    return ak[root] < f->below ? s->lists[f->list + ar[root]] : UINT32_MAX;
  }
  if (f->stored) return f->ci < f->nc ? s->cand[f->c0 + f->ci++].buf : UINT32_MAX;
  // The scan's least (minimum offset, rank) of the visible buffers; the list is in rank
  // order, so the first of the least offset.
  uint32_t pick = UINT32_MAX;
  uint64_t bo = f->below;
  for (uint32_t i = 0; i < f->count; ++i) {
    uint32_t y = s->lists[f->list + i];
    if (s->placed[y] || s->hidden[y] == s->depth || s->minoff[y] >= bo) continue;
    bo = s->minoff[y];
    pick = y;
  }
  return pick;
}

// Places the node's child |f->pick|; the boundaries no unplaced buffer crosses any more
// then split the rest (cutpts[ncut0, ncut1)). False when the placement fails at once.
static bool node_place(search_t *s, frame_t *f) {
  f->mk = marks(s);
  f->nlists = s->nlists;
  f->ncut0 = f->ncut1 = s->ncut;
  if (!place(s, f->pick, f->slo, f->shi)) return false;
  const xbuf_t *bp = &s->b[f->pick];
  for (uint32_t q = bp->slo > f->slo ? bp->slo : f->slo; q + 1 < bp->shi && q + 1 < f->shi; ++q)
    if (s->cut[q] == 0) {
      if (s->ncut == s->capcut) { s->ncut = f->ncut0; break; }  // no room: search on whole
      s->cutpts[s->ncut++] = q + 1;
    }
  if (s->ncut > f->ncut0 && s->nlists + f->count > s->caplists) s->ncut = f->ncut0;  // no room
  f->ncut1 = s->ncut;
  return true;
}

// After the child |f->pick| gave |res|: true when the node goes on to its next child;
// false with the node's own result in |*out|.
static bool node_child_done(search_t *s, frame_t *f, sres_t res, sres_t *out) {
  s->ncut = f->ncut0;
  if (s->full && res != kFound) res = kAbort;
  if (res == kFound) { s->ncand = f->c0; *out = kFound; return false; }  // the plan is in off
  unplace_to(s, f->mk);
  s->nlists = f->nlists;
  // A child with no unplaced buffer alive with it is forced: later children leave it
  // below the order's point for good.
  if (res == kAbort || f->hatless) { f->out = res; goto done; }
  if (s->nhide == s->caphide) { s->full = true; f->out = kAbort; goto done; }
  s->uhide[s->nhide].buf = f->pick;
  s->uhide[s->nhide++].old = s->hidden[f->pick];
  s->hidden[f->pick] = s->depth;
  tree_set(s, f->pick);
  return true;
done:;
  marks_t back = marks(s);
  back.nhide = f->nhide0;
  unplace_to(s, back);
  s->ncand = f->c0;
  *out = f->out;
  return false;
}

// The next part of a split node (cutpts[f->c], then the rest up to f->shi), pushed as a
// part frame; false when none is left or the last one failed (|res|).
static bool node_next_part(search_t *s, frame_t *f, sres_t res) {
  while (res == kFound && f->c <= f->ncut1) {
    uint32_t hi = f->c < f->ncut1 ? s->cutpts[f->c] : f->shi, m;
    uint32_t sub = sub_list(s, f->list, f->count, f->lo, hi, &m);
    ++f->c;
    uint32_t lo = f->lo;
    f->lo = hi;
    if (!m) { s->nlists = sub; continue; }
    f->sub = sub;
    if (!push(s, kPart, sub, m, lo, hi)) { s->nlists = sub; return false; }
    return true;
  }
  return false;
}

// Solves the partition |list| over sections [slo, shi): the search from its root.
static sres_t solve_partition(search_t *s, uint32_t list, uint32_t count, uint32_t slo,
                              uint32_t shi) {
  size_t base = s->nframes;
  sres_t ret = kFail;  // what the frame last popped gave
  if (!push(s, kPart, list, count, slo, shi)) return kAbort;
  while (s->nframes > base) {
    frame_t *f = &s->frames[s->nframes - 1];
    if (f->kind == kPart) {
      if (f->stage == kEntry) {
        part_enter(s, f);
        f->stage = kAfterPart;
        if (!push(s, kNode, f->list, f->count, f->slo, f->shi)) ret = kAbort;
        else continue;
      }
      part_leave(s, f);
      --s->nframes;
      continue;
    }
    sres_t res;
    switch (f->stage) {
      case kEntry:
        if (!node_enter(s, f, &res)) { ret = res; --s->nframes; continue; }
        f->stage = kNext;
        continue;
      case kNext: {
        uint32_t pick = next_child(s, f);
        if (pick == UINT32_MAX) {
          marks_t back = marks(s);
          back.nhide = f->nhide0;
          unplace_to(s, back);
          s->ncand = f->c0;
          ret = f->out;
          --s->nframes;
          continue;
        }
        f->pick = pick;
        f->hatless = s->upc[pick] == 0;
        if (!node_place(s, f)) {
          res = kFail;
          break;
        }
        if (f->ncut1 == f->ncut0) {
          f->stage = kAfterChild;
          if (push(s, kNode, f->list, f->count, f->slo, f->shi)) continue;
          res = kAbort;
          break;
        }
        f->stage = kAfterPart;
        f->c = f->ncut0;
        f->lo = f->slo;
        f->sub = (uint32_t)s->nlists;
        if (node_next_part(s, f, kFound)) continue;
        res = s->full ? kAbort : kFound;
        break;
      }
      case kAfterChild:
        res = ret;
        break;
      default:  // kAfterPart: a part returned |ret|
        s->nlists = f->sub;
        if (node_next_part(s, f, ret)) continue;
        res = s->full ? kAbort : ret;
        break;
    }
    sres_t out;
    if (node_child_done(s, f, res, &out)) { f->stage = kNext; continue; }
    ret = out;
    --s->nframes;
  }
  return ret;
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
  // A partition's trees: 2m entries at twice its list's offset.
  MET_RETURN_IF_ERROR(met_arena_calloc(a, 2 * s->caplists, sizeof(uint64_t), (void **)&s->akey));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, 2 * s->caplists, sizeof(uint32_t), (void **)&s->arank));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, 2 * s->caplists, sizeof(uint64_t), (void **)&s->bval));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, 2 * ns, sizeof(uint64_t), (void **)&s->smax));
  MET_RETURN_IF_ERROR(met_arena_calloc(a, n, sizeof(uint32_t), (void **)&s->hidden));
  // Hidings along one path: a buffer's first in each partition it is in (the nested
  // partitions' lists: caplists in all), then one after each raise (novl at most: each
  // placement raises at most its overlapping buffers), and the raises' own entries.
  s->caphide = s->caplists + 2 * (p->novl ? p->novl : 1) + 64;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->caphide, sizeof(undo_hide_t), (void **)&s->uhide));
  s->capcand = 16 * n + 1024;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->capcand, sizeof(cand_t), (void **)&s->cand));
  // Frames along one path: a node per buffer placed and the one after the last, a part
  // per partition nested (each holds a buffer placed before it splits off, or is the root).
  s->capframes = 2 * (size_t)n + 64;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->capframes, sizeof(struct frame_t), (void **)&s->frames));
  s->capcut = 4 * ns + 64;
  MET_RETURN_IF_ERROR(met_arena_calloc(a, s->capcut, sizeof(uint32_t), (void **)&s->cutpts));
#ifdef MET_PLAN_TINY_STACKS
  // The test build (test_planner_exact_tiny) runs out of every stack at once, so that each
  // "no room" path (a weaker floor, children scanned for each, no decomposition, no
  // sub-lists) is taken, and answers must stay exact.
  s->capufl = s->nspan + 1;
  s->caplists = n + 1;
  s->capcut = 1;
  s->capcand = 2;
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
  s->numin = s->nufl = s->npstack = s->ncut = s->nhide = s->ncand = s->nframes = 0;
  s->tl = s->tn = s->depth = 0;
  s->tree = false;
  s->sections_tree = p->n >= kTreeMin;
  s->full = false;
  for (uint32_t x = 0; x < p->n; ++x) {
    s->minoff[x] = 0;
    s->placed[x] = 0;
    s->upc[x] = p->b[x].nov;
    s->hidden[x] = 0;
    if (p->b[x].size > cap) return kFail;
  }
  memcpy(s->total, p->sec_total, p->nsec * sizeof(uint64_t));
  for (uint32_t q = 0; q < p->nsec; ++q) s->smax[p->nsec + q] = s->total[q];
  for (uint32_t i = p->nsec - 1; i >= 1 && i < p->nsec; --i)
    s->smax[i] = s->smax[2 * i] > s->smax[2 * i + 1] ? s->smax[2 * i] : s->smax[2 * i + 1];
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
  // The first round lets each order dive to a plan without turning back: a node per
  // buffer placed plus one per partition that ends (at most one per buffer), so 2n + 1.
  // (Starting at n, every dive that needed no backtracking was cut one node short and
  // the problem was searched four times over.)
  uint64_t limit = 2 * (uint64_t)p->n + 1 > 16 ? 2 * (uint64_t)p->n + 1 : 16;
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
