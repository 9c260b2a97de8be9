// sarif.c: see sarif.h.
#include "report/sarif.h"

#include <stdlib.h>
#include <string.h>

#include "adapter/adapter.h"

// The README's home: help URIs point at its sections.
#define MET_README "https://github.com/metrale/metrale/blob/main/README.md"

// One rule per kind of finding. A diagnostic gets the first rule one of whose phrases
// its message contains: the messages are metrale's own, and every kind has one wording
// (test/BadInput holds each), so the phrase is the kind's name. "metrale.other" catches
// the rest.
typedef struct rule_t {
  const char *id, *text, *anchor;
  const char *phrases[4];
} rule_t;

static const rule_t kRules[] = {
    // First: a breach's message begins like the report's summary.
    {"metrale.limit", "A limit the run was given is breached",
     "budgets-that-fail-the-build", {"breaches its limit", "breaches its minimum", NULL}},
    {"metrale.budget", "The Budget of one run of a function on a target",
     "what-it-prints", {"metrale.budget @", NULL}},
    {"metrale.memory", "The memory model of the module on a target", "the-memory-model",
     {"memory on ", NULL}},
    {"metrale.dispatch", "Dispatch stats of one invocation, or one dispatch's roofline",
     "dispatch-stats-predicted-and-measured", {"metrale.dispatch @", "dispatch ", NULL}},
    {"metrale.does-not-fit", "The model does not fit the target's memory",
     "the-memory-model", {"does not fit", NULL}},
    {"metrale.off-fast-path", "An op off the target's fast path: its own dispatch",
     "what-is-counted-and-what-is-said", {"off the fast path", NULL}},
    {"metrale.unknown-flops", "FLOPs not known: the latency is a lower bound",
     "dispatch-stats-predicted-and-measured", {"the FLOPs of", NULL}},
    {"metrale.dynamic-dims", "Dynamic dims counted as 1: byte counts are lower bounds",
     "what-is-counted-and-what-is-said", {"dynamic dims", NULL}},
    {"metrale.loop-body", "A loop or branch body whose repetitions a static count cannot know",
     "what-is-counted-and-what-is-said", {"the body of '", "a region of '", "nested more than", NULL}},
    {"metrale.unresolved-call", "A call whose callee could not be counted",
     "what-is-counted-and-what-is-said", {"calls @", "calls a function not known", NULL}},
    {"metrale.weight-like-arguments", "Unmarked float arguments that look like weights",
     "the-metrale-command", {"unmarked float argument", NULL}},
    {"metrale.unsized-value", "A value without a dense byte size (counted as 0)",
     "what-is-counted-and-what-is-said", {"no dense size", "unranked", "no storage width", NULL}},
    {"metrale.overflow", "A size or sum that passes 2^64", "what-is-counted-and-what-is-said",
     {"overflows 64 bits", "more than 2^64", NULL}},
    {"metrale.option", "An invalid option", "metrale-opt-every-upstream-dialect-and-pass-plus-metrales",
     {"invalid ", "unknown target", "unknown planner", NULL}},
    {"metrale.declaration", "A malformed metrale or DLTI declaration",
     "what-is-counted-and-what-is-said", {"dlti.", "metrale.", "attribute", NULL}},
    {"metrale.parse-error", "The model file does not parse as MLIR", "the-metrale-command",
     {NULL}},
    {"metrale.input", "A model file that cannot be read or holds nothing to analyse",
     "the-metrale-command", {"cannot read '", "nothing to analyse", NULL}},
    {"metrale.other", "Other findings", "what-is-counted-and-what-is-said", {NULL}},
};
enum { kRuleCount = sizeof(kRules) / sizeof(kRules[0]) };

// The field a limit's breach names ("...: arena_bytes = 72000 (70.3 KiB) breaches its
// limit ..."), in |arena|; NULL when the message has none.
static const char *breached_field(met_arena_t *arena, const char *msg) {
  const char *eq = strstr(msg, " = ");
  if (!eq || !strstr(eq, " breaches its ")) return NULL;
  const char *k = eq;
  while (k > msg && (k[-1] == '_' || (k[-1] >= 'a' && k[-1] <= 'z') || (k[-1] >= '0' && k[-1] <= '9'))) --k;
  return k < eq ? met_arena_strndup(arena, k, (size_t)(eq - k)) : NULL;
}

static int rule_of(const char *msg) {
  for (int r = 0; r < kRuleCount; ++r)
    for (const char *const *p = kRules[r].phrases; *p; ++p)
      if (strstr(msg, *p)) return r;
  return kRuleCount - 1;
}

void met_sarif_initialize(met_sarif_t *s, met_diag_fn_t next, void *next_user) {
  memset(s, 0, sizeof(*s));
  met_arena_initialize(met_allocator_system(), &s->arena);
  s->next = next;
  s->next_user = next_user;
}

void met_sarif_deinitialize(met_sarif_t *s) { met_arena_deinitialize(&s->arena); }

void met_sarif_diag(void *user, MlirLocation loc, met_diag_severity_t severity,
                    const char *message) {
  met_sarif_t *s = user;
  if (s->next) s->next(s->next_user, loc, severity, message);
  if (s->status) return;
  met_status_t st = met_arena_reserve(&s->arena, (void **)&s->items, &s->cap, s->count,
                                      sizeof(met_sarif_result_t));
  met_sarif_result_t r = {rule_of(message), severity, NULL, NULL, 0, 0, NULL};
  r.message = st ? NULL : met_arena_strndup(&s->arena, message, strlen(message));
  if (!st && r.rule == 0) r.field = breached_field(&s->arena, message);  // metrale.limit
  MlirStringRef file;
  if (!st && met_adapter_loc_parts(loc, &file, &r.line, &r.col) && file.length)
    r.file = met_arena_strndup(&s->arena, file.data, file.length);
  if (st || !r.message) { s->status = st ? st : MET_ENOMEM; return; }
  s->items[s->count++] = r;
}

void met_sarif_add(met_sarif_t *s, const char *rule, met_diag_severity_t severity,
                   const char *file, int line, int col, const char *message) {
  if (s->status) return;
  int r = rule_of(message);
  for (int k = 0; rule && k < kRuleCount; ++k)
    if (!strcmp(kRules[k].id, rule)) r = k;
  met_status_t st = met_arena_reserve(&s->arena, (void **)&s->items, &s->cap, s->count,
                                      sizeof(met_sarif_result_t));
  met_sarif_result_t it = {r, severity, NULL, NULL, line, col, NULL};
  if (!st) it.message = met_arena_strndup(&s->arena, message, strlen(message));
  if (!st && file && *file) it.file = met_arena_strndup(&s->arena, file, strlen(file));
  if (st || !it.message || (file && *file && !it.file)) { s->status = st ? st : MET_ENOMEM; return; }
  s->items[s->count++] = it;
}

static const char *level(met_diag_severity_t s) {
  return s == MET_DIAG_ERROR ? "error" : s == MET_DIAG_WARNING ? "warning" : "note";
}

// " name=123" pairs of a summary message, as JSON members.
static void metrics(met_strbuf_t *sb, const char *msg) {
  bool any = false;
  for (const char *p = msg; (p = strchr(p, '=')) != NULL; ++p) {
    const char *k = p;
    while (k > msg && (k[-1] == '_' || (k[-1] >= 'a' && k[-1] <= 'z'))) --k;
    const char *v = p + 1, *e = v;
    while (*e >= '0' && *e <= '9') ++e;
    bool boolean = !strncmp(v, "true", 4) || !strncmp(v, "false", 5);
    if (boolean) e = v + (*v == 't' ? 4 : 5);
    if (k == p || e == v || (*e && *e != ' ' && *e != ',' && *e != ')')) continue;
    met_strbuf_cstr(sb, any ? ", \"" : ", \"properties\": {\"metrics\": {\"");
    met_strbuf_append(sb, k, (size_t)(p - k));
    MET_STRBUF_LIT(sb, "\": ");
    met_strbuf_append(sb, v, (size_t)(e - v));
    any = true;
  }
  if (any) MET_STRBUF_LIT(sb, "}}");
}

// A file path as a URI reference: absolute paths as file:// URIs, others relative (SARIF
// resolves them against the log's location); characters outside the unreserved set and
// '/' percent-encoded.
static void uri(met_strbuf_t *sb, const char *path) {
  MET_STRBUF_LIT(sb, "\"");
  if (path[0] == '/') MET_STRBUF_LIT(sb, "file://");
  for (const unsigned char *c = (const unsigned char *)path; *c; ++c) {
    bool keep = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                strchr("-._~/", *c);
    if (keep) met_strbuf_append(sb, (const char *)c, 1);
    else met_strbuf_printf(sb, "%%%02X", *c);
  }
  MET_STRBUF_LIT(sb, "\"");
}

// One rule of the log: a table rule, or for a breached limit the table's limit rule for
// one field ("metrale.limit.arena_bytes": code scanning then tells the fields apart).
typedef struct used_rule_t { int rule; const char *field; } used_rule_t;

static int used_index(const used_rule_t *u, size_t n, int rule, const char *field) {
  for (size_t i = 0; i < n; ++i)
    if (u[i].rule == rule && (u[i].field == field || (u[i].field && field && !strcmp(u[i].field, field))))
      return (int)i;
  return -1;
}

void met_sarif_render(const met_sarif_t *s, met_strbuf_t *sb) {
  used_rule_t *used = s->count ? calloc(s->count, sizeof(*used)) : NULL;
  size_t nused = 0;
  if (s->count && !used) { sb->status = sb->status ? sb->status : MET_ENOMEM; return; }
  // The rules in table order, a limit's fields in the order they first occur.
  for (int r = 0; r < kRuleCount; ++r)
    for (size_t i = 0; i < s->count; ++i)
      if (s->items[i].rule == r && used_index(used, nused, r, s->items[i].field) < 0)
        used[nused++] = (used_rule_t){r, s->items[i].field};
  MET_STRBUF_LIT(sb, "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", "
                     "\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": "
                     "\"metrale\", \"informationUri\": \"" MET_README "\", \"rules\": [");
  for (size_t n = 0; n < nused; ++n) {
    const rule_t *r = &kRules[used[n].rule];
    met_strbuf_cstr(sb, n ? ",\n    {\"id\": " : "\n    {\"id\": ");
    if (used[n].field) {
      met_strbuf_t id;
      met_strbuf_initialize(sb->allocator, &id);
      met_strbuf_printf(&id, "%s.%s", r->id, used[n].field);
      met_strbuf_json_string(sb, id.data ? id.data : r->id);
      met_strbuf_deinitialize(&id);
      MET_STRBUF_LIT(sb, ", \"shortDescription\": {\"text\": ");
      met_strbuf_t text;
      met_strbuf_initialize(sb->allocator, &text);
      met_strbuf_printf(&text, "A limit on %s the run was given is breached", used[n].field);
      met_strbuf_json_string(sb, text.data ? text.data : r->text);
      met_strbuf_deinitialize(&text);
    } else {
      met_strbuf_json_string(sb, r->id);
      MET_STRBUF_LIT(sb, ", \"shortDescription\": {\"text\": ");
      met_strbuf_json_string(sb, r->text);
    }
    MET_STRBUF_LIT(sb, "}, \"helpUri\": \"" MET_README "#");
    met_strbuf_cstr(sb, r->anchor);
    MET_STRBUF_LIT(sb, "\"}");
  }
  MET_STRBUF_LIT(sb, "]}}, \"results\": [");
  for (size_t i = 0; i < s->count; ++i) {
    const met_sarif_result_t *r = &s->items[i];
    met_strbuf_cstr(sb, i ? ",\n  {\"ruleId\": " : "\n  {\"ruleId\": ");
    if (r->field) {
      met_strbuf_t id;
      met_strbuf_initialize(sb->allocator, &id);
      met_strbuf_printf(&id, "%s.%s", kRules[r->rule].id, r->field);
      met_strbuf_json_string(sb, id.data ? id.data : kRules[r->rule].id);
      met_strbuf_deinitialize(&id);
    } else {
      met_strbuf_json_string(sb, kRules[r->rule].id);
    }
    met_strbuf_printf(sb, ", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ",
                      used_index(used, nused, r->rule, r->field), level(r->severity));
    met_strbuf_json_string(sb, r->message);
    MET_STRBUF_LIT(sb, "}");
    if (r->file) {
      MET_STRBUF_LIT(sb, ", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
      uri(sb, r->file);
      MET_STRBUF_LIT(sb, "}");
      if (r->line > 0)
        met_strbuf_printf(sb, ", \"region\": {\"startLine\": %d, \"startColumn\": %d}", r->line,
                          r->col > 0 ? r->col : 1);
      MET_STRBUF_LIT(sb, "}}]");
    }
    // Only the reports' summaries carry metrics ("name=value" pairs); a breach's message
    // holds its limit's source ("max-dispatches=3"), no metric.
    const char *rid = kRules[r->rule].id;
    if (!strcmp(rid, "metrale.budget") || !strcmp(rid, "metrale.memory") ||
        !strcmp(rid, "metrale.dispatch"))
      metrics(sb, r->message);
    MET_STRBUF_LIT(sb, "}");
  }
  MET_STRBUF_LIT(sb, "]}]}\n");
  free(used);
}
