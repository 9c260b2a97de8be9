// metrale/diff.h: two reports of one kind compared, as `metrale diff OLD.json NEW.json`
// does for CI. A report is what `metrale budget|dispatch|memory --json` writes (one model
// on one target): the Budget's fields per function (functions[].budget), the dispatch
// stats' per function (functions[].dispatch_stats, and the function's flops), or the
// memory model's totals (one row set, function ""). Every numeric field of each function
// both reports hold is compared, exactly (64-bit integers; the headroom signed).
//
// What must agree, or the comparison is refused (|mismatch| says what differs; `--force`
// compares anyway): the report kind (never forced), the target, each function's
// signature (its function type as MLIR prints it, the JSON's "signature"; where one side
// has none, its arguments' bytes), and for the memory model its run-time parameters
// (sequences, tokens, util). Functions only one report holds are listed (added, removed),
// not errors.
//
// Rules (`--fail-on`) decide what a regression is: FIELD>N (the field grew by more than
// N), FIELD>N% (by more than N percent of its old value; any growth from 0 breaks it),
// FIELD<N, FIELD<N% (it shrank by more: the headroom, say). N is a size with a unit on a
// byte field (metrale/parse.h: 1MiB, 1.5GB) and a whole number on any other; a percent is
// digits with up to 4 decimals. Pure: no I/O, no globals.
#ifndef METRALE_DIFF_H
#define METRALE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/json.h"
#include "metrale/status.h"
#include "metrale/strbuf.h"

typedef enum met_report_kind_e {
  MET_REPORT_UNKNOWN = 0, MET_REPORT_BUDGET, MET_REPORT_DISPATCH, MET_REPORT_MEMORY,
} met_report_kind_t;

// "budget", "dispatch", "memory" ("unknown").
const char *met_report_kind_name(met_report_kind_t k);
// What kind of report |root| is: functions[].budget, functions[].dispatch_stats, totals.
met_report_kind_t met_report_kind_of(const met_json_t *root);

enum { MET_DIFF_RULE_FIELD = 64 };
typedef struct met_diff_rule_t {
  char field[MET_DIFF_RULE_FIELD];
  bool grow;                   // '>': a growth breaks it; '<': a shrinking
  bool percent;
  uint64_t amount;             // N (absolute), or the percent in 1/10000 of a percent
  bool sized;                  // N was written with a unit (1MiB): byte fields only
  char text[128];              // as written
} met_diff_rule_t;

// Parses one rule ("arena_bytes>5%"); its field is checked later, against the report.
// MET_EINVAL with the reason in |err| when it is no rule.
met_status_t met_diff_rule_parse(const char *s, size_t len, met_diff_rule_t *out, met_error_t *err);

// A signed 64-bit magnitude: reports hold unsigned 64-bit counts and a signed headroom.
typedef struct met_diff_value_t {
  bool negative;
  uint64_t mag;
} met_diff_value_t;

typedef struct met_diff_row_t {
  const char *function;        // "" for the memory model
  const char *field;
  met_diff_value_t old_v, new_v, change;  // change = new - old
  bool bytes;                  // a byte field (shown with its unit too)
  const met_diff_rule_t *broken;  // the first rule it breaks, or NULL
} met_diff_row_t;

typedef struct met_diff_t {
  met_report_kind_t kind;
  const char *old_target, *new_target;
  const char **added, **removed;  // function names
  size_t nadded, nremoved;
  size_t nfunctions;           // functions both hold
  met_diff_row_t *rows;        // every compared field, in report order
  size_t nrows;
  size_t changed;              // rows whose value changed
  size_t breaches;             // rows that break a rule
  bool incomplete;             // a report says complete: false somewhere
  char mismatch[512];          // why the reports are not comparable ("" when they are)
  bool forced;                 // compared despite |mismatch| (--force)
} met_diff_t;

// Compares |old_r| and |new_r| under |rules| into |out| (storage in |arena|). MET_EINVAL
// with the reason in out->mismatch when the two are no reports metrale wrote, of different
// kinds, or (unless |force|) not comparable, or when a rule names a field the kind has no
// number for.
met_status_t met_diff_compare(met_arena_t *arena, const met_json_t *old_r,
                              const met_json_t *new_r, const met_diff_rule_t *rules,
                              size_t nrules, bool force, met_diff_t *out);

// Renderers. Text: a block per function with the changed fields (every field with |all|);
// Markdown: a summary line and one table, for a pull-request comment; JSON: every row.
void met_diff_text(met_strbuf_t *sb, const met_diff_t *d, bool all);
void met_diff_markdown(met_strbuf_t *sb, const met_diff_t *d, bool all);
void met_diff_json(met_strbuf_t *sb, const met_diff_t *d);

#endif
