// tools/cli_once.h: what a sweep over targets holds of one model's runs (cli_once.c).
// Internal to the `metrale` command; plain C over the MLIR C API's location handle only.
//
// A sweep over targets runs each model once per target, and what the adapter finds in the
// model (a dead op, a dynamic dim, an unknown op) each run says again in the same words at
// the same op. So the sweep holds what a model's runs say, their diagnostics and their
// text, until the last target has run, and then writes: first each diagnostic that every
// run gave as often as the first run gave it (the same location, severity and message; two
// ops may share a location), once; then run by run, its heading, its other diagnostics and
// its text. A diagnostic only some targets give, or some more often than others, is written
// under each of them, as is everything a sweep of one target says (it holds nothing:
// cli_once_diag is for sweeps of two or more targets).
//
// The held text stays in memory up to |spill_after| bytes, then goes to an unlinked file in
// $TMPDIR (or /tmp): a sweep of a large model over every target says more than is worth
// keeping in memory. When that file cannot be made or written (a full or read-only disk),
// the text stays in memory (the file's unread tail is cut off: a full disk gets its room
// back), up to 1 GiB. Past that, or when memory fails too, the filter gives up on the
// model, saying so: what it holds goes out in order, each diagnostic under its run, and
// the rest of the model as it comes. Nothing held is ever dropped or reordered without a
// message.
#ifndef METRALE_TOOLS_CLI_ONCE_H
#define METRALE_TOOLS_CLI_ONCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "metrale/arena.h"
#include "metrale/strmap.h"
#include "runners.h"
#include "metrale/strbuf.h"
#include "mlir-c/IR.h"

typedef struct cli_once_key_t cli_once_key_t;
typedef struct cli_once_item_t cli_once_item_t;
typedef struct cli_once_t {
  met_diag_fn_t fn;
  void *user;
  FILE *out;                // where the text goes
  bool remarks;             // remarks are kept (printed or logged), else dropped at once
  size_t spill_after;       // held text kept in memory before the file is used (bytes)
  const char *tmpdir;       // where the file goes (NULL: $TMPDIR, else /tmp)
  size_t mem_limit;         // held text memory keeps at most when the file fails (1 GiB;
                            // may be set after cli_once_initialize)
  met_arena_t arena;        // the messages
  cli_once_item_t *items;   // every diagnostic kept, in the order given
  size_t count, cap;
  cli_once_key_t *keys;     // the distinct (location, severity, message) of |items|
  size_t nkeys, kcap;
  met_strmap_t by_sev[4];   // per severity: (location, message) -> its index in |keys|
                            // (lib/strmap.c, in |arena|)
  // The held text: bytes [0, spilled) in the file |fd|, [spilled, spilled + mlen) in |mem|.
  int fd;                   // -1: none yet
  bool spill_failed;        // the file could not be made or written: the rest stays in memory
  uint64_t spilled;
  char *mem;
  size_t mlen, mcap;
  bool lead_blank;          // the first run's text starts with a blank line (a separator)
  uint64_t (*text_end)[2];  // per finished run: where its heading and its text end in the
  size_t runs, rcap;        // held text (the heading is written before its diagnostics)
  bool passing;             // given up on this model: everything goes out as it comes
  int read_error;           // errno of the first failure to read the file back (0: none,
                            // -1: it ends early)
} cli_once_t;

// Diagnostics go to |fn|, text to |out|. |spill_after| 0: 8 MiB.
void cli_once_initialize(cli_once_t *f, met_diag_fn_t fn, void *user, bool remarks, FILE *out,
                         size_t spill_after, const char *tmpdir);
void cli_once_deinitialize(cli_once_t *f);
// A met_diag_fn_t: holds the diagnostic for the run under way.
void cli_once_diag(void *user, MlirLocation loc, met_diag_severity_t sev, const char *msg);
// Ends the run under way and holds its |text| (the first |head_len| bytes its heading),
// emptying it.
void cli_once_end_run(cli_once_t *f, met_strbuf_t *text, size_t head_len);
// Writes what the runs of |model| said as above, and forgets it (the next model's locations
// live in another context). MET_OK, or MET_EEXTERNAL with |err| naming |model| when held
// text could not be read back from its file (what could be read is written).
met_status_t cli_once_flush(cli_once_t *f, const char *model, met_error_t *err);

#endif
