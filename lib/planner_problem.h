// planner_problem.h: the exact planner's problem (lib/planner_exact.c), built once per
// buffer set by planner_problem.c: the buffers with bytes, the sections time is cut into
// (at every lifetime end), which buffers overlap, and the sum-of-live bound. Internal to
// lib/.
#ifndef METRALE_LIB_PLANNER_PROBLEM_H
#define METRALE_LIB_PLANNER_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/planner.h"

typedef struct xbuf_t {
  uint64_t size;
  uint64_t width;       // lifetime in positions (last + 1 - first)
  uint32_t slo, shi;    // sections [slo, shi)
  uint32_t ov, nov;     // overlapping buffers: ovl[ov, ov + nov)
} xbuf_t;

typedef struct xproblem_t {
  uint32_t n, nsec;      // buffers with bytes (those of size 0 go at offset 0), sections
  xbuf_t *b;
  uint32_t *orig;        // xbuf index -> caller's index
  uint32_t *ovl;
  size_t novl, nspan;    // overlap entries, section entries (sum of spans)
  uint64_t *sec_total;   // per section: the bytes of every buffer there
  uint32_t *sec_at, *sec_buf;  // per section: its buffers, sec_buf[sec_at[q], sec_at[q+1])
  uint32_t *cut0;        // per boundary: buffers crossing it
  uint64_t peak;         // the largest section total: the sum-of-live bound
  uint64_t gcd;          // of the sizes: every pushed-down arena is a multiple
} xproblem_t;

// Builds |p| from |count| buffers over |positions| (storage in |a|); |lengths| (NULL: the
// lifetimes) are the times the ranks order by. |*too_big| when the problem is past what
// the search takes (MET_PLAN_MAX_EXACT_*): |p| is then not built.
met_status_t met_xproblem_build(const met_buffer_t *buf, size_t count, uint32_t positions,
                                const uint64_t *lengths, met_arena_t *a, xproblem_t *p,
                                bool *too_big);

#endif
