// metrale/planner_csv.h: allocation problems in MiniMalloc's CSV format, for
// `metrale plan --buffers` (the planner on problems that are not MLIR graphs).
//
// The format (google/minimalloc; ../shared/planner-bench/README.md): a header line naming
// the columns, in any order: `id` (or `buffer`, `buffer_id`), `lower` (or `start`,
// `begin`), `upper` (or `end`) and `size`; then one buffer a line: an id (text without
// commas, quotes or control characters; no two alike), the lifetime [lower, upper) in whole
// time units (upper exclusive: two buffers whose lifetimes only touch may share memory),
// and its size in bytes. Blank lines are skipped; lines may end in CRLF; a UTF-8 byte order
// mark is skipped. MiniMalloc's optional `offset` (a fixed offset) and `alignment` columns
// are refused: the planner has neither. A plan adds an `offset` column.
#ifndef METRALE_PLANNER_CSV_H
#define METRALE_PLANNER_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/planner.h"
#include "metrale/status.h"

typedef struct met_csv_problem_t {
  size_t count;
  met_buffer_t *buffers;  // the lifetimes in positions: each time replaced by its rank among
                          // the distinct lower and upper values (their order, and so every
                          // overlap, kept; the planner's work then depends on the number of
                          // buffers, not on how far apart their times are)
  const char **ids;       // each buffer's id, NUL-terminated, in |arena|
  uint64_t *lower, *upper;  // the times as written
  uint64_t *lengths;      // upper - lower: the search's orders rank by them
                          // (met_plan_limits_t.lengths)
  uint32_t positions;     // the number of distinct times, less one (the largest rank)
} met_csv_problem_t;

// Parses |len| bytes of |text|. On MET_EINVAL (or MET_EOVERFLOW: a number past its
// range), |err| (may be NULL) holds the 1-based .line at fault and says what is wrong
// there. MET_ENOMEM from |arena| (no line).
met_status_t met_csv_problem_parse(const char *text, size_t len, met_arena_t *arena,
                                   met_csv_problem_t *out, met_error_t *err);

#endif
