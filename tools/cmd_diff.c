// cmd_diff.c: `metrale diff OLD.json NEW.json`, two reports of `metrale budget|dispatch|
// memory --json` compared for CI (metrale/diff.h says what compares and what a rule is).
// Exit status: 0 no rule broken, 1 a regression (a --fail-on rule broken), 2 bad usage or
// reports that do not compare (different kinds, targets, inputs: --force compares those).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "metrale/diff.h"
#include "metrale/json.h"
#include "report/output.h"

enum { DIFF_MAX_RULES = 64, DIFF_MAX_BYTES = 1u << 30 };

// The report in |path| parsed into |arena|: MET_OK, or the status with |err| saying why
// (where it is not JSON: "PATH:LINE:COL: not JSON: why").
static met_status_t load(met_arena_t *arena, const char *path, met_json_t **root,
                         met_error_t *err) {
  char *text;
  size_t len;
  *root = NULL;
  MET_RETURN_IF_ERROR(cli_read_file(path, DIFF_MAX_BYTES,
                                    "larger than 1 GiB, no report metrale writes", &text, &len,
                                    err));
  met_error_t perr;
  met_error_init(&perr);
  met_status_t st = met_json_parse(arena, text, len, root, &perr);
  if (st) {
    size_t at = perr.offset == MET_NOWHERE ? 0 : perr.offset, line = 1, col = 1;
    for (size_t i = 0; i < at && i < len; ++i) {
      if (text[i] == '\n') { ++line; col = 1; } else ++col;
    }
    met_error_at_line(err, st, line, MET_NOWHERE, "%s:%zu:%zu: not JSON: %s", path, line, col,
                      met_error_message(&perr));
    *root = NULL;
  }
  free(text);
  return st;
}

// The rules of one --fail-on flag, separated by ',' (the flag may be given again), added
// to |rules|. MET_OK, or MET_EINVAL with |err| saying which is invalid.
static met_status_t take_rules(const char *rule, met_diff_rule_t *rules, size_t *nrules,
                               met_error_t *err) {
  for (const char *p = rule; *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (*nrules == DIFF_MAX_RULES)
      return met_error_set(err, MET_EINVAL, "more than %d --fail-on rules", DIFF_MAX_RULES);
    met_error_t rerr;
    met_error_init(&rerr);
    if (met_diff_rule_parse(p, n, &rules[*nrules], &rerr) != MET_OK)
      return met_error_set(err, MET_EINVAL, "invalid --fail-on '%.*s': %s", (int)n, p,
                           met_error_message(&rerr));
    // Two thresholds of one kind on one field (arena_bytes>5% and arena_bytes>10%): one
    // is dead, the stricter always breaks first, so the pair is a slip, said by name.
    const met_diff_rule_t *r = &rules[*nrules];
    for (size_t k = 0; k < *nrules; ++k)
      if (!strcmp(rules[k].field, r->field) && rules[k].grow == r->grow &&
          rules[k].percent == r->percent)
        return met_error_set(err, MET_EINVAL, "invalid --fail-on '%s': '%s' is already a rule "
                             "on %s's %s in %s", r->text, rules[k].text, r->field,
                             r->grow ? "growth" : "shrinking", r->percent ? "percent" : "units");
    ++*nrules;
    p += n + (e ? 1 : 0);
    if (e && !*p)
      return met_error_set(err, MET_EINVAL, "invalid --fail-on '%s': a rule after each ','", rule);
  }
  return MET_OK;
}

// --json never names one of the reports (nor a stream they are read from). MET_OK, or the
// status with |err| saying so (its message empty when standard error is an input: not a
// word there).
static met_status_t outputs_check(const char *const *files, const char *json, met_error_t *err) {
  const char *flags[] = {"--json"}, *paths[] = {json};
  if (met_output_paths_check(files, 2, flags, paths, 1, err) == MET_OK &&
      met_output_streams_check(files, 2, err) == MET_OK)
    return MET_OK;
  char *why = err->message;
  // The inputs here are reports, not models.
  char *m = strstr(why, "input model");
  if (m && strlen(why) + 1 < sizeof err->message) {
    memmove(m + 12, m + 11, strlen(m + 11) + 1);
    memcpy(m, "input report", 12);
  }
  char *d = strstr(why, "destroy the model");
  if (d) snprintf(d, sizeof err->message - (size_t)(d - why), "destroy it; give another file");
  return err->code;
}

// The comparison: its JSON to |json| ('-': standard output, in place of the text), the
// text or Markdown (|all|: unchanged rows too) to standard output. MET_OK, or the status
// (with |err| saying why a file cannot be written).
static met_status_t write_diff(const met_diff_t *d, const char *json, bool markdown, bool all,
                               met_error_t *err) {
  met_status_t st = MET_OK;
  if (json) {
    met_strbuf_t js;
    met_strbuf_initialize(met_allocator_system(), &js);
    met_diff_json(&js, d);
    st = cli_write_output(json, NULL, &js, err);
    met_strbuf_deinitialize(&js);
  }
  if (!json || strcmp(json, "-")) {
    met_strbuf_t out;
    met_strbuf_initialize(met_allocator_system(), &out);
    if (markdown) met_diff_markdown(&out, d, all);
    else met_diff_text(&out, d, all);
    if (!st && (out.status || fwrite(out.data, 1, out.len, stdout) != out.len))
      st = out.status ? out.status : MET_EEXTERNAL;
    met_strbuf_deinitialize(&out);
  }
  return st;
}

// What `metrale diff` is asked.
typedef struct diff_args_t {
  const char *files[2], *json;
  size_t nfiles, nrules;
  bool markdown, force, all;
  met_diff_rule_t *rules;  // DIFF_MAX_RULES of them
} diff_args_t;

// argv into |a|: MET_OK, or the status with |err| saying what is bad usage, |*prefix| the
// words before it and |*synopsis| whether the synopsis helps.
static met_status_t diff_args(int argc, char **argv, diff_args_t *a, const char **prefix,
                              bool *synopsis, met_error_t *err) {
  bool operands = false;
  *prefix = "metrale diff";
  *synopsis = false;
  for (int i = 0; i < argc; ++i) {
    const char *rule = NULL;
    if (!operands && !strcmp(argv[i], "--")) { operands = true; continue; }
    if (operands || argv[i][0] != '-' || !argv[i][1]) {
      if (a->nfiles == 2)
        return met_error_set(err, MET_EINVAL, "two reports are compared: OLD.json NEW.json");
      a->files[a->nfiles++] = argv[i];
      continue;
    }
    if (!strcmp(argv[i], "--markdown")) { a->markdown = true; continue; }
    if (!strcmp(argv[i], "--force")) { a->force = true; continue; }
    if (!strcmp(argv[i], "--all")) { a->all = true; continue; }
    *prefix = "metrale";
    if (cli_take_nonempty(argc, argv, &i, "--json", &a->json, err)) {
      if (err->code) return err->code;
      continue;
    }
    if (cli_take_nonempty(argc, argv, &i, "--fail-on", &rule, err)) {
      if (err->code) return err->code;
      *prefix = "metrale diff";
      MET_RETURN_IF_ERROR(take_rules(rule, a->rules, &a->nrules, err));
      continue;
    }
    *prefix = "metrale diff";
    *synopsis = true;
    return met_error_set(err, MET_EINVAL, "unknown option '%s'", argv[i]);
  }
  *prefix = "metrale diff";
  if (a->nfiles == 2 && !strcmp(a->files[0], "-") && !strcmp(a->files[1], "-"))
    return met_error_set(err, MET_EINVAL, "standard input ('-') can be one of the reports, "
                         "not both");
  if (a->nfiles != 2) {
    *synopsis = true;
    return met_error_set(err, MET_EINVAL, "two reports are needed, OLD.json and NEW.json");
  }
  // --json - takes standard output in place of the text; the Markdown would share it.
  if (a->json && !strcmp(a->json, "-") && a->markdown)
    return met_error_set(err, MET_EINVAL, "--json - and --markdown both write to standard "
                         "output; give --json a file");
  return outputs_check(a->files, a->json, err);
}

// Exit status 1 is the verdict alone (a --fail-on rule broke): bad usage, a report that
// cannot be read, or the comparison that cannot be made or written, is 2, so a CI step
// never takes a missing baseline for a regression.
int cmd_diff(int argc, char **argv) {
  diff_args_t a;
  memset(&a, 0, sizeof a);
  if (!(a.rules = calloc(DIFF_MAX_RULES, sizeof(*a.rules)))) {
    fprintf(stderr, "metrale diff: out of memory\n");
    return 2;
  }
  const char *prefix;
  bool synopsis;
  met_error_t err;
  met_error_init(&err);
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  met_json_t *old_r = NULL, *new_r = NULL;
  int rc = 2;
  if (diff_args(argc, argv, &a, &prefix, &synopsis, &err)) {
    cli_say(prefix, &err);
    if (synopsis) cli_print_synopsis(stderr, "diff");
  } else if (load(&arena, a.files[0], &old_r, &err) || load(&arena, a.files[1], &new_r, &err)) {
    cli_say("metrale diff", &err);
  } else {
    met_diff_t d;
    met_status_t st = met_diff_compare(&arena, old_r, new_r, a.rules, a.nrules, a.force, &d);
    if (st == MET_ENOMEM) {
      fprintf(stderr, "metrale diff: out of memory\n");
    } else if (st) {
      fprintf(stderr, "metrale diff: %s%s\n", d.mismatch,
              strstr(d.mismatch, "only reports of one kind") || strstr(d.mismatch, "no report") ||
                      strstr(d.mismatch, "--fail-on")
                  ? "" : " (--force compares them anyway)");
    } else {
      bool ok = write_diff(&d, a.json, a.markdown, a.all, &err) == MET_OK;
      cli_say("metrale diff", &err);
      rc = cli_finish_stdout(!ok ? 2 : d.breaches ? 1 : 0);
      if (rc == 1 && !d.breaches) rc = 2;  // standard output could not be written
    }
  }
  met_arena_deinitialize(&arena);
  free(a.rules);
  return rc;
}
