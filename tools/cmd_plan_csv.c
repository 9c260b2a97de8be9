// tools/cmd_plan_csv.c: `metrale plan --buffers FILE.csv [--capacity N] [--out FILE.csv]`:
// the offset planner (lib/planner.c, lib/planner_exact.c) on an allocation problem in
// MiniMalloc's CSV format (metrale/planner_csv.h), so that it can be compared with other
// allocators on their own problems.
//
// Exit status: 0 a plan (within the capacity, when one is given); 1 proven: nothing fits
// the capacity; 2 bad usage, input or output; 3 neither found nor ruled out: the search's
// limits ran out, or the problem is past what the search takes (planner.h).
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "metrale/options.h"
#include "ir/clock.h"
#include "metrale/parse.h"
#include "metrale/planner_csv.h"
#include "metrale/strbuf.h"
#include "report/output.h"
#include "cli.h"

enum { kMaxCsvBytes = 1u << 30 };

static int usage(const char *msg) {
  if (msg) fprintf(stderr, "metrale plan: %s\n", msg);
  fprintf(stderr,
          "usage: metrale plan --buffers FILE.csv|- [--capacity SIZE] [--out FILE.csv|-]\n"
          "                    [--plan-effort N] [--plan-seconds N]\n");
  return 2;
}

// Whether |path| is the file standard output writes (by device and inode).
static bool same_as_stdout(const char *path) {
  struct stat a, b;
  return fstat(1, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

bool cli_plan_wants_buffers(int argc, char **argv) {
  for (int i = 0; i < argc; ++i)
    if (!strcmp(argv[i], "--buffers") || !strncmp(argv[i], "--buffers=", 10)) return true;
  return false;
}

// "--flag VALUE" or "--flag=VALUE" at argv[*i] into |*out|; false when it is not |flag|.
// Missing, empty or given twice, |err| says so.
static bool take(int argc, char **argv, int *i, const char *flag, const char **out,
                 met_error_t *err) {
  size_t n = strlen(flag);
  const char *given = argv[*i];
  if (strncmp(given, flag, n) || (given[n] && given[n] != '=')) return false;
  bool twice = *out != NULL;
  if (given[n] == '=') *out = given + n + 1;
  else if (*i + 1 < argc) *out = argv[++*i];
  else *out = NULL;
  if (twice || !*out || !**out)
    met_error_set(err, MET_EINVAL, "%s needs one value, given once", given);
  return true;
}

// With a |capacity|: the greedy orders first (a plan within the capacity ends it), then,
// unless the bound passes it, the exact search's yes or no. Without: the smallest arena
// the greedy orders and the search find (met_planner_solve). The offsets in |off|.
static met_status_t plan_problem(const met_csv_problem_t *p, uint64_t capacity, uint64_t bound,
                                 const met_plan_limits_t *lim, met_arena_t *arena,
                                 uint64_t *off, met_fit_t *fit, uint64_t *arena_bytes,
                                 met_plan_outcome_t *o) {
  met_status_t st;
  if (capacity) {
    uint64_t greedy;
    st = met_planner_plan_bounded(p->buffers, p->count, p->positions, MET_PLAN_BEST, bound,
                                  arena, off, &greedy);
    if (!st && greedy <= capacity) {
      *fit = MET_FIT_YES;
      *arena_bytes = greedy;
    } else if (!st && bound > capacity) {
      *fit = MET_FIT_NO;
    } else if (!st) {
      st = met_planner_fit(p->buffers, p->count, p->positions, capacity, lim, arena, off, fit,
                           &o->nodes);
    }
    return st;
  }
  st = met_planner_solve(p->buffers, p->count, p->positions, MET_PLAN_BEST, bound, lim, arena,
                         off, o);
  *arena_bytes = o->arena_bytes;
  return st;
}

// The problem's rows with their offsets ("id,lower,upper,size,offset") to |path| ('-':
// standard output). MET_OK, or the status with |err| saying why it cannot be written.
static met_status_t write_plan(const char *path, const met_csv_problem_t *p,
                               const uint64_t *off, met_error_t *err) {
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  MET_STRBUF_LIT(&sb, "id,lower,upper,size,offset\n");
  for (size_t i = 0; i < p->count; ++i)
    met_strbuf_printf(&sb, "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", p->ids[i],
                      p->lower[i], p->upper[i], p->buffers[i].bytes, off[i]);
  met_status_t st = cli_write_output(path, NULL, &sb, err);
  met_strbuf_deinitialize(&sb);
  return st;
}

int cmd_plan_buffers(int argc, char **argv) {
  const char *in = NULL, *cap_text = NULL, *out_path = NULL, *effort = NULL, *seconds = NULL;
  met_error_t err;
  met_error_init(&err);
  for (int i = 0; i < argc; ++i) {
    if (take(argc, argv, &i, "--buffers", &in, &err) ||
        take(argc, argv, &i, "--capacity", &cap_text, &err) ||
        take(argc, argv, &i, "--out", &out_path, &err) ||
        take(argc, argv, &i, "--plan-effort", &effort, &err) ||
        take(argc, argv, &i, "--plan-seconds", &seconds, &err)) {
      if (err.code) return usage(err.message);
      continue;
    }
    met_error_set(&err, MET_EINVAL, "'%s' is not taken with --buffers", argv[i]);
    return usage(err.message);
  }
  if (!in) return usage("--buffers FILE.csv is needed");
  uint64_t capacity = 0, nodes = MET_PLAN_DEFAULT_NODES, secs = MET_PLAN_DEFAULT_SECONDS;
  if ((cap_text && met_parse_option_size("capacity", cap_text, strlen(cap_text), 1, UINT64_MAX,
                                         &capacity, &err)) ||
      (effort && met_parse_option_u64("plan-effort", effort, strlen(effort), 0, UINT64_MAX,
                                      &nodes, &err)) ||
      (seconds && met_parse_option_u64("plan-seconds", seconds, strlen(seconds), 0, 86400,
                                       &secs, &err)))
    return usage(met_error_message(&err));
  // The plan never goes over the problem (nor over standard output when that is the input).
  const char *inputs[] = {in};
  const char *flags[] = {"--out"};
  const char *paths[] = {out_path};
  if (strcmp(in, "-") && (met_output_paths_check(inputs, 1, flags, paths, 1, &err) ||
                          met_output_streams_check(inputs, 1, &err))) {
    if (err.message[0]) fprintf(stderr, "metrale plan: %s\n", err.message);
    return 2;
  }
  char *text;
  size_t len;
  if (cli_read_file(in, kMaxCsvBytes, "larger than 1 GiB", &text, &len, &err)) {
    cli_say("metrale plan", &err);
    return 2;
  }
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  met_csv_problem_t p;
  met_status_t st = met_csv_problem_parse(text, len, &arena, &p, &err);
  free(text);
  const char *name = strcmp(in, "-") ? in : "<stdin>";
  if (st) {
    if (st == MET_ENOMEM) fprintf(stderr, "metrale plan: %s: out of memory\n", name);
    else fprintf(stderr, "%s:%zu: error: %s\n", name, err.line, met_error_message(&err));
    met_arena_deinitialize(&arena);
    return 2;
  }
  uint64_t *off = NULL;
  st = met_arena_calloc(&arena, p.count ? p.count : 1, sizeof(uint64_t), (void **)&off);
  met_plan_limits_t lim = {nodes, secs * 1000000000u, secs ? met_clock_ns_cb : NULL, NULL, p.lengths};
  uint64_t bound = 0, arena_bytes = 0;
  met_fit_t fit = MET_FIT_UNKNOWN;
  met_plan_outcome_t o;
  memset(&o, 0, sizeof(o));
  if (!st) st = met_planner_peak_live(p.buffers, p.count, p.positions, &arena, &bound);
  if (!st) st = plan_problem(&p, capacity, bound, &lim, &arena, off, &fit, &arena_bytes, &o);
  if (st) {
    fprintf(stderr, "metrale plan: %s: %s\n", name,
            st == MET_ENOMEM ? "out of memory"
            : st == MET_EOVERFLOW ? "the sizes pass 2^64: the bytes live at one time, or the "
                                    "offsets of the greedy plans"
                                  : "the problem cannot be planned");
    met_arena_deinitialize(&arena);
    return 2;
  }
  if (fit == MET_FIT_YES)
    for (size_t i = 0; i < p.count; ++i)
      if (off[i] + p.buffers[i].bytes > arena_bytes) arena_bytes = off[i] + p.buffers[i].bytes;
  // The summary: on standard error when the plan goes to standard output (by '-', or by a
  // path that is the file standard output writes).
  FILE *say = out_path && (!strcmp(out_path, "-") || same_as_stdout(out_path)) ? stderr : stdout;
  fprintf(say, "%s: %zu buffer%s, lower bound %" PRIu64 " B", name, p.count,
          p.count == 1 ? "" : "s", bound);
  // Past what the search takes (planner.h): it is not tried, which is no limit running out.
  // A search with nodes to spend that spent none was not tried.
  bool too_big = nodes && !o.nodes &&
                 (capacity ? fit == MET_FIT_UNKNOWN : o.proof == MET_PLAN_BEST_FOUND);
  const char *big = "the problem is past what the exact search takes (65,536 buffers with "
                    "bytes, 2^25 pairs live together or section entries)";
  int rc = 0;
  if (capacity) {
    fprintf(say, ", capacity %" PRIu64 " B: ", capacity);
    if (fit == MET_FIT_YES)
      fprintf(say, "fits, arena %" PRIu64 " B\n", arena_bytes);
    else if (fit == MET_FIT_NO)
      fprintf(say, "does not fit (proven%s)\n", bound > capacity ? ": the lower bound passes it" : " by the exact search");
    else if (too_big)
      fprintf(say, "unknown: %s\n", big);
    else
      fprintf(say, "unknown: the search's limits ran out (%" PRIu64 " node%s)\n", o.nodes,
              o.nodes == 1 ? "" : "s");
    rc = fit == MET_FIT_YES ? 0 : fit == MET_FIT_NO ? 1 : 3;
    if (rc && out_path) fprintf(say, "no plan written to '%s'\n", out_path);
  } else {
    fprintf(say, ": arena %" PRIu64 " B, plan %s", arena_bytes, met_plan_proof_name(o.proof));
    if (o.proof == MET_PLAN_BEST_FOUND)
      fprintf(say, " (proven bound %" PRIu64 " B, gap %" PRIu64 " B%s%s)", o.lower_bound,
              arena_bytes - o.lower_bound, o.stopped ? "; the time cap cut the search" : "",
              too_big ? "; not searched: the problem is past what the exact search takes" : "");
    fprintf(say, ", %" PRIu64 " search node%s\n", o.nodes, o.nodes == 1 ? "" : "s");
  }
  if (out_path && (!capacity || fit == MET_FIT_YES) && write_plan(out_path, &p, off, &err)) {
    cli_say("metrale plan", &err);
    rc = 2;
  }
  met_arena_deinitialize(&arena);
  // Standard output that cannot be written is bad output (2), never "does not fit" (1).
  int fin = cli_finish_stdout(rc);
  return fin != rc ? 2 : rc;
}
