// metrale/planner_csv.h: allocation problems in MiniMalloc's CSV format, for
// `metrale plan --buffers` (the planner on problems that are not MLIR graphs).
//
// The format (google/minimalloc; ../shared/planner-bench/README.md): a header line
// `id,lower,upper,size`, then one buffer a line: an id (text without commas or quotes),
// the lifetime [lower, upper) in whole time units (upper exclusive: two buffers whose
// lifetimes only touch may share memory), and its size in bytes. Blank lines are skipped;
// lines may end in CRLF. A plan adds an `offset` column.
#ifndef METRALE_PLANNER_CSV_H
#define METRALE_PLANNER_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/planner.h"
#include "metrale/status.h"

typedef struct met_csv_problem_t {
  size_t count;
  met_buffer_t *buffers;  // first = lower, last = upper - 1, in schedule positions (below)
  const char **ids;       // each buffer's id, NUL-terminated, in |arena|
  uint64_t *lower, *upper;  // the times as written
  uint32_t positions;     // the planner's positions: the largest upper, or the number of
                          // distinct times when the times are renumbered
  bool renumbered;        // times past MET_CSV_MAX_POSITIONS were replaced by their rank
                          // among the distinct lower and upper values (their order, and so
                          // every overlap, kept)
} met_csv_problem_t;

// Times up to this are the planner's positions as they are (the lifetimes' lengths then
// guide the exact search's order, as MiniMalloc's do); past it they are renumbered.
#define MET_CSV_MAX_POSITIONS (1u << 22)

// Parses |len| bytes of |text|. On MET_EINVAL (or MET_EOVERFLOW: a number past its
// range), |*out_line| is the 1-based line at fault and |why| (|why_cap| bytes, always
// NUL-terminated) says what is wrong there. MET_ENOMEM from |arena|.
met_status_t met_csv_problem_parse(const char *text, size_t len, met_arena_t *arena,
                                   met_csv_problem_t *out, size_t *out_line, char *why,
                                   size_t why_cap);

#endif
