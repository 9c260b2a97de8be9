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

// The report in |path| parsed into |arena|; NULL after a message naming the line.
static met_json_t *load(met_arena_t *arena, const char *path) {
  char *text;
  size_t len;
  if (!cli_read_file("metrale diff", path, DIFF_MAX_BYTES, "larger than 1 GiB, no report metrale writes", &text, &len)) return NULL;
  met_json_t *root = NULL;
  met_error_t err;
  met_error_init(&err);
  met_status_t st = met_json_parse(arena, text, len, &root, &err);
  if (st) {
    size_t at = err.offset == MET_NOWHERE ? 0 : err.offset, line = 1, col = 1;
    for (size_t i = 0; i < at && i < len; ++i) {
      if (text[i] == '\n') { ++line; col = 1; } else ++col;
    }
    fprintf(stderr, "metrale diff: %s:%zu:%zu: not JSON: %s\n", path, line, col,
            met_error_message(&err));
    root = NULL;
  }
  free(text);
  return root;
}

// The rules of one --fail-on flag, separated by ',' (the flag may be given again), added
// to |rules|. False after saying which is invalid.
static bool take_rules(const char *rule, met_diff_rule_t *rules, size_t *nrules) {
  for (const char *p = rule; *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    met_error_t err;
    met_error_init(&err);
    if (*nrules == DIFF_MAX_RULES) {
      fprintf(stderr, "metrale diff: more than %d --fail-on rules\n", DIFF_MAX_RULES);
      return false;
    }
    if (met_diff_rule_parse(p, n, &rules[*nrules], &err) != MET_OK) {
      fprintf(stderr, "metrale diff: invalid --fail-on '%.*s': %s\n", (int)n, p,
              met_error_message(&err));
      return false;
    }
    // Two thresholds of one kind on one field (arena_bytes>5% and arena_bytes>10%): one
    // is dead, the stricter always breaks first, so the pair is a slip, said by name.
    const met_diff_rule_t *r = &rules[*nrules];
    for (size_t k = 0; k < *nrules; ++k)
      if (!strcmp(rules[k].field, r->field) && rules[k].grow == r->grow &&
          rules[k].percent == r->percent) {
        fprintf(stderr, "metrale diff: invalid --fail-on '%s': '%s' is already a rule on %s's %s in %s\n",
                r->text, rules[k].text, r->field, r->grow ? "growth" : "shrinking",
                r->percent ? "percent" : "units");
        return false;
      }
    ++*nrules;
    p += n + (e ? 1 : 0);
    if (e && !*p) {
      fprintf(stderr, "metrale diff: invalid --fail-on '%s': a rule after each ','\n", rule);
      return false;
    }
  }
  return true;
}

// --json never names one of the reports (nor a stream they are read from). False after
// saying so.
static bool outputs_ok(const char *const *files, const char *json) {
  met_error_t err;
  met_error_init(&err);
  const char *flags[] = {"--json"}, *paths[] = {json};
  if (met_output_paths_check(files, 2, flags, paths, 1, &err) == MET_OK &&
      met_output_streams_check(files, 2, &err) == MET_OK)
    return true;
  char *why = err.message;
  if (!why[0]) return false;  // standard error is an input: not a word there
  // The inputs here are reports, not models.
  char *m = strstr(why, "input model");
  if (m && strlen(why) + 1 < sizeof err.message) {
    memmove(m + 12, m + 11, strlen(m + 11) + 1);
    memcpy(m, "input report", 12);
  }
  char *d = strstr(why, "destroy the model");
  if (d) fprintf(stderr, "metrale diff: %.*sdestroy it; give another file\n", (int)(d - why), why);
  else fprintf(stderr, "metrale diff: %s\n", why);
  return false;
}

// The comparison: its JSON to |json| ('-': standard output, in place of the text), the
// text or Markdown (|all|: unchanged rows too) to standard output. False when something
// cannot be written.
static bool write_diff(const met_diff_t *d, const char *json, bool markdown, bool all) {
  bool ok = true;
  if (json) {
    met_strbuf_t js;
    met_strbuf_initialize(met_allocator_system(), &js);
    met_diff_json(&js, d);
    ok = cli_write_output("metrale diff", json, NULL, &js) == MET_OK;
    met_strbuf_deinitialize(&js);
  }
  if (!json || strcmp(json, "-")) {
    met_strbuf_t out;
    met_strbuf_initialize(met_allocator_system(), &out);
    if (markdown) met_diff_markdown(&out, d, all);
    else met_diff_text(&out, d, all);
    ok = ok && !out.status && fwrite(out.data, 1, out.len, stdout) == out.len;
    met_strbuf_deinitialize(&out);
  }
  return ok;
}

int cmd_diff(int argc, char **argv) {
  const char *files[2] = {NULL, NULL}, *json = NULL;
  size_t nfiles = 0;
  bool markdown = false, force = false, all = false, operands = false;
  met_diff_rule_t *rules = calloc(DIFF_MAX_RULES, sizeof(*rules));
  size_t nrules = 0;
  if (!rules) { fprintf(stderr, "metrale diff: out of memory\n"); return 2; }
  int rc = 2;
  for (int i = 0; i < argc; ++i) {
    const char *rule = NULL;
    if (!operands && !strcmp(argv[i], "--")) { operands = true; continue; }
    if (operands || argv[i][0] != '-' || !argv[i][1]) {
      if (nfiles == 2) {
        fprintf(stderr, "metrale diff: two reports are compared: OLD.json NEW.json\n");
        goto done;
      }
      files[nfiles++] = argv[i];
      continue;
    }
    if (!strcmp(argv[i], "--markdown")) { markdown = true; continue; }
    if (!strcmp(argv[i], "--force")) { force = true; continue; }
    if (!strcmp(argv[i], "--all")) { all = true; continue; }
    if (cli_take_nonempty(argc, argv, &i, "--json", &json)) continue;
    if (cli_take_nonempty(argc, argv, &i, "--fail-on", &rule)) {
      if (!take_rules(rule, rules, &nrules)) goto done;
      continue;
    }
    fprintf(stderr, "metrale diff: unknown option '%s'\n", argv[i]);
    cli_print_synopsis(stderr, "diff");
    goto done;
  }
  if (nfiles == 2 && !strcmp(files[0], "-") && !strcmp(files[1], "-")) {
    fprintf(stderr, "metrale diff: standard input ('-') can be one of the reports, not both\n");
    goto done;
  }
  if (nfiles != 2) {
    fprintf(stderr, "metrale diff: two reports are needed, OLD.json and NEW.json\n");
    cli_print_synopsis(stderr, "diff");
    goto done;
  }
  if (json && !strcmp(json, "-") && !markdown) {
    // The JSON replaces the text on standard output.
  } else if (json && !strcmp(json, "-") && markdown) {
    fprintf(stderr, "metrale diff: --json - and --markdown both write to standard output; "
                    "give --json a file\n");
    goto done;
  }
  if (!outputs_ok(files, json)) goto done;
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  met_json_t *old_r = load(&arena, files[0]);
  met_json_t *new_r = old_r ? load(&arena, files[1]) : NULL;
  // Exit status 1 is the verdict alone (a --fail-on rule broke): a report that cannot be
  // read, or the comparison that cannot be made or written, is 2, so a CI step never takes
  // a missing baseline for a regression.
  if (!old_r || !new_r) {
    met_arena_deinitialize(&arena);
    goto done;
  }
  met_diff_t d;
  met_status_t st = met_diff_compare(&arena, old_r, new_r, rules, nrules, force, &d);
  if (st == MET_ENOMEM) {
    fprintf(stderr, "metrale diff: out of memory\n");
    met_arena_deinitialize(&arena);
    goto done;
  }
  if (st) {
    fprintf(stderr, "metrale diff: %s%s\n", d.mismatch,
            strstr(d.mismatch, "only reports of one kind") || strstr(d.mismatch, "no report") ||
                    strstr(d.mismatch, "--fail-on")
                ? "" : " (--force compares them anyway)");
    met_arena_deinitialize(&arena);
    goto done;
  }
  bool ok = write_diff(&d, json, markdown, all);
  rc = cli_finish_stdout(!ok ? 2 : d.breaches ? 1 : 0);
  if (rc == 1 && !d.breaches) rc = 2;  // standard output could not be written
  met_arena_deinitialize(&arena);
done:
  free(rules);
  return rc;
}
