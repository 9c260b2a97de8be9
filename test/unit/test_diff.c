// test_diff.c: the JSON reader (metrale/json.h) and the comparison of two reports
// (metrale/diff.h), on documents written here, each expected value worked out by hand.
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "metrale/diff.h"
#include "metrale/json.h"

static met_json_t *parse(met_arena_t *a, const char *s, met_status_t *st, size_t *at) {
  met_json_t *j = NULL;
  met_error_t err;
  met_error_init(&err);
  *st = met_json_parse(a, s, strlen(s), &j, &err);
  *at = err.offset == MET_NOWHERE ? 0 : err.offset;
  return j;
}

static void test_json(void) {
  met_arena_t a;
  met_arena_initialize(met_allocator_system(), &a);
  met_status_t st;
  size_t at;
  // 2^64 - 1 stays exact (a double would round it to 2^64).
  met_json_t *j = parse(&a, " {\"x\": 18446744073709551615, \"y\": -5, \"z\": 1.5e3,"
                            " \"s\": \"a\\\"b\\\\c\\u00e9\\ud83d\\ude00\", \"t\": [true, false, null],"
                            " \"e\": {}, \"n\": []} ", &st, &at);
  CHECK(st == MET_OK && j && j->kind == MET_JSON_OBJECT && j->count == 7);
  const met_json_t *x = met_json_get(j, "x");
  CHECK(x && x->kind == MET_JSON_NUMBER && x->is_int && !x->negative && x->u == UINT64_MAX);
  const met_json_t *y = met_json_get(j, "y");
  CHECK(y && y->is_int && y->negative && y->u == 5);
  const met_json_t *z = met_json_get(j, "z");
  CHECK(z && !z->is_int && z->d == 1500.0);
  const met_json_t *s = met_json_get(j, "s");
  // a " b \ c, then U+00E9 (2 bytes) and U+1F600 from its surrogate pair (4 bytes).
  CHECK(s && s->kind == MET_JSON_STRING && s->len == 5 + 2 + 4 &&
        !memcmp(s->str, "a\"b\\c\xc3\xa9\xf0\x9f\x98\x80", 11));
  const met_json_t *t = met_json_get(j, "t");
  CHECK(t && t->kind == MET_JSON_ARRAY && t->count == 3 && t->items[0].boolean &&
        t->items[1].kind == MET_JSON_BOOL && !t->items[1].boolean && t->items[2].kind == MET_JSON_NULL);
  CHECK(met_json_get(j, "e")->count == 0 && met_json_get(j, "n")->kind == MET_JSON_ARRAY);
  CHECK(met_json_get(j, "missing") == NULL && met_json_get(NULL, "x") == NULL);
  // 2^64 is no 64-bit integer: a number all the same.
  j = parse(&a, "18446744073709551616", &st, &at);
  CHECK(st == MET_OK && j->kind == MET_JSON_NUMBER && !j->is_int);
  // What is no JSON, and where it is found.
  static const struct { const char *text; size_t at; } bad[] = {
      {"", 0}, {"{", 1}, {"[1,]", 3}, {"{\"a\" 1}", 5}, {"{\"a\":1,}", 7}, {"01", 1},
      {"1.", 2}, {"-", 1}, {"tru", 0}, {"\"ab", 0}, {"\"a\x01\"", 2}, {"\"\\x\"", 1},
      {"\"\\ud800\"", 7}, {"\"\\udc00\"", 7}, {"[1] 2", 4}, {"{1: 2}", 1}, {"1e", 2},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    j = parse(&a, bad[i].text, &st, &at);
    CHECK(st == MET_EINVAL);
    if (at != bad[i].at) fprintf(stderr, "'%s': at %zu, expected %zu\n", bad[i].text, at, bad[i].at);
    CHECK(at == bad[i].at);
  }
  // The line of the fault: the third line's "}" where a value belongs ({ \n " a " : \n }:
  // byte 7, after the second line end).
  {
    met_error_t err;
    met_error_init(&err);
    met_json_t *jl = NULL;
    const char *three = "{\n\"a\":\n}";
    CHECK(met_json_parse(&a, three, strlen(three), &jl, &err) == MET_EINVAL);
    CHECK(err.code == MET_EINVAL && err.line == 3 && err.offset == 7 && err.message[0]);
  }
  // Nesting past the limit is an error, not a stack overflow.
  size_t deep = MET_JSON_MAX_DEPTH + 2;
  char *d = malloc(2 * deep + 1);
  for (size_t i = 0; i < deep; ++i) { d[i] = '['; d[2 * deep - 1 - i] = ']'; }
  d[2 * deep] = '\0';
  j = parse(&a, d, &st, &at);
  CHECK(st == MET_EINVAL);
  // At the limit it parses: MET_JSON_MAX_DEPTH + 1 arrays (depths 0 to the limit).
  d[deep - 1] = ' ';
  d[deep] = ' ';
  j = parse(&a, d, &st, &at);
  CHECK(st == MET_OK);
  met_arena_deinitialize(&a);
  free(d);
}

static void test_rules(void) {
  met_diff_rule_t r;
  met_error_t err;
  met_error_init(&err);
  CHECK((met_diff_rule_parse("arena_bytes>5%", 14, &r, &err) == MET_OK) && r.grow && r.percent &&
        r.amount == 50000 && !strcmp(r.field, "arena_bytes"));  // 5% in 1/10000 of a percent
  CHECK((met_diff_rule_parse("headroom<0.5%", 13, &r, &err) == MET_OK) && !r.grow && r.percent && r.amount == 5000);
  CHECK((met_diff_rule_parse("dram_bytes>1MiB", 15, &r, &err) == MET_OK) && !r.percent && r.amount == 1048576);
  CHECK((met_diff_rule_parse("dispatches>2", 12, &r, &err) == MET_OK) && r.amount == 2);
  CHECK((met_diff_rule_parse("x>0.0001%", 9, &r, &err) == MET_OK) && r.amount == 1);
  // A shrinking of 100% (to 0) is the most there is: 100% is a rule, past it none
  // (in 1/10000 of a percent: 100 x 10000 = 1000000).
  CHECK((met_diff_rule_parse("x<100%", 6, &r, &err) == MET_OK) && r.amount == 1000000);
  CHECK((met_diff_rule_parse("x>250%", 6, &r, &err) == MET_OK) && r.amount == 2500000);
  static const char *const bad[] = {"arena_bytes", ">5", "arena_bytes=5", "arena_bytes>",
                                    "arena_bytes>5.5", "arena_bytes>%", "arena_bytes>.5%",
                                    "arena_bytes>5.%", "arena_bytes>0.00001%", "Arena>5",
                                    "arena_bytes>-5", "arena_bytes>5 %",
                                    "arena_bytes<100.0001%", "headroom<101%"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i)
    CHECK(met_diff_rule_parse(bad[i], strlen(bad[i]), &r, &err) == MET_EINVAL && err.message[0]);
}

// A budget report of one function @f with |arena| and |dispatches|, and @|extra| when given.
static char *budget_doc(const char *target, const char *sig, uint64_t arena, uint64_t disp,
                        const char *extra) {
  char *s = malloc(1024);
  snprintf(s, 1024,
           "{\"target\": {\"name\": \"%s\"}, \"functions\": [{\"name\": \"f\", \"signature\": \"%s\","
           " \"complete\": true, \"budget\": {\"arena_bytes\": %llu, \"dispatches\": %llu,"
           " \"width_policy\": \"native\"}}%s%s%s]}",
           target, sig, (unsigned long long)arena, (unsigned long long)disp,
           extra ? ", {\"name\": \"" : "", extra ? extra : "", extra ? "\", \"budget\": {}}" : "");
  return s;
}

static void test_compare(void) {
  met_arena_t a;
  met_arena_initialize(met_allocator_system(), &a);
  met_status_t st;
  size_t at;
  char *o = budget_doc("npu", "(tensor<4xf32>) -> tensor<4xf32>", 1000, 4, "g");
  char *n = budget_doc("npu", "(tensor<4xf32>) -> tensor<4xf32>", 1051, 4, "h");
  met_json_t *jo = parse(&a, o, &st, &at), *jn = parse(&a, n, &st, &at);
  met_diff_rule_t rules[3];
  met_error_t err;
  met_error_init(&err);
  CHECK((met_diff_rule_parse("arena_bytes>5%", 14, &rules[0], &err) == MET_OK));
  CHECK((met_diff_rule_parse("arena_bytes>50", 14, &rules[1], &err) == MET_OK));
  CHECK((met_diff_rule_parse("dispatches<1", 12, &rules[2], &err) == MET_OK));
  met_diff_t d;
  // 1000 -> 1051: +51, 5.1%: beyond 5% (51 x 10^6 > 50000 x 1000) and beyond 50; the first
  // rule is named. dispatches unchanged.
  CHECK(met_diff_compare(&a, jo, jn, rules, 3, false, &d) == MET_OK);
  CHECK(d.kind == MET_REPORT_BUDGET && d.nfunctions == 1 && d.nrows == 2 && d.changed == 1);
  CHECK(d.nadded == 1 && !strcmp(d.added[0], "h") && d.nremoved == 1 && !strcmp(d.removed[0], "g"));
  CHECK(d.breaches == 1 && d.rows[0].broken == &rules[0]);
  CHECK(d.rows[0].change.mag == 51 && !d.rows[0].change.negative && d.rows[0].bytes);
  CHECK(!d.rows[1].bytes);
  // Exactly 5% (1000 -> 1050) breaks no percent rule; 50 is not beyond 50.
  free(n);
  n = budget_doc("npu", "(tensor<4xf32>) -> tensor<4xf32>", 1050, 4, NULL);
  jn = parse(&a, n, &st, &at);
  CHECK(met_diff_compare(&a, jo, jn, rules, 3, false, &d) == MET_OK && d.breaches == 0);
  // A shrinking breaks a '<' rule: 4 -> 2 dispatches is -2, beyond 1.
  free(n);
  n = budget_doc("npu", "(tensor<4xf32>) -> tensor<4xf32>", 1000, 2, NULL);
  jn = parse(&a, n, &st, &at);
  CHECK(met_diff_compare(&a, jo, jn, rules, 3, false, &d) == MET_OK && d.breaches == 1 &&
        d.rows[1].broken == &rules[2] && d.rows[1].change.negative && d.rows[1].change.mag == 2);
  // Any growth from 0 breaks a percent rule.
  char *z = budget_doc("npu", "(tensor<4xf32>) -> tensor<4xf32>", 0, 4, NULL);
  met_json_t *jz = parse(&a, z, &st, &at);
  CHECK(met_diff_compare(&a, jz, jo, rules, 1, false, &d) == MET_OK && d.breaches == 1);
  // Another target, other inputs: refused unless forced; another kind: always.
  free(n);
  n = budget_doc("h100", "(tensor<8xf32>) -> tensor<8xf32>", 1000, 4, NULL);
  jn = parse(&a, n, &st, &at);
  CHECK(met_diff_compare(&a, jo, jn, NULL, 0, false, &d) == MET_EINVAL);
  CHECK(strstr(d.mismatch, "the targets differ (old npu, new h100)") &&
        strstr(d.mismatch, "@f's inputs differ (old (tensor<4xf32>) -> tensor<4xf32>, new "
                           "(tensor<8xf32>) -> tensor<8xf32>)"));
  CHECK(met_diff_compare(&a, jo, jn, NULL, 0, true, &d) == MET_OK && d.forced);
  met_json_t *mem = parse(&a, "{\"target\": {\"name\": \"npu\"}, \"totals\": {\"device\": 5}}", &st, &at);
  CHECK(met_diff_compare(&a, jo, mem, NULL, 0, true, &d) == MET_EINVAL &&
        strstr(d.mismatch, "only reports of one kind compare"));
  // A rule on a field the kind has no number for.
  CHECK((met_diff_rule_parse("latency_ns>5%", 13, &rules[0], &err) == MET_OK));
  CHECK(met_diff_compare(&a, jo, jo, rules, 1, false, &d) == MET_EINVAL &&
        strstr(d.mismatch, "a budget report has no numeric field 'latency_ns'"));
  // Memory reports: the totals, signed (the headroom); parameters must agree.
  met_json_t *m1 = parse(&a, "{\"target\": {\"name\": \"npu\"}, \"parameters\": {\"tokens\": 8},"
                             " \"totals\": {\"headroom\": 100, \"fits\": true}}", &st, &at);
  met_json_t *m2 = parse(&a, "{\"target\": {\"name\": \"npu\"}, \"parameters\": {\"tokens\": 8},"
                             " \"totals\": {\"headroom\": -20, \"fits\": false}}", &st, &at);
  met_json_t *m3 = parse(&a, "{\"target\": {\"name\": \"npu\"}, \"parameters\": {\"tokens\": 16},"
                             " \"totals\": {\"headroom\": 100}}", &st, &at);
  CHECK((met_diff_rule_parse("headroom<100", 12, &rules[0], &err) == MET_OK));
  CHECK(met_diff_compare(&a, m1, m2, rules, 1, false, &d) == MET_OK && d.nrows == 1);
  CHECK(d.rows[0].change.negative && d.rows[0].change.mag == 120 && d.breaches == 1);  // -120
  CHECK(met_diff_compare(&a, m1, m3, NULL, 0, false, &d) == MET_EINVAL &&
        strstr(d.mismatch, "the run-time parameter tokens differs"));
  // Renderers: the text names the regression; Markdown escapes a '|' in a name.
  met_json_t *p1 = parse(&a, "{\"target\": {\"name\": \"npu\"}, \"functions\": [{\"name\": \"a|b\","
                             " \"budget\": {\"arena_bytes\": 64}}]}", &st, &at);
  met_json_t *p2 = parse(&a, "{\"target\": {\"name\": \"npu\"}, \"functions\": [{\"name\": \"a|b\","
                             " \"budget\": {\"arena_bytes\": 128}}]}", &st, &at);
  CHECK((met_diff_rule_parse("arena_bytes>10%", 15, &rules[0], &err) == MET_OK));
  CHECK(met_diff_compare(&a, p1, p2, rules, 1, false, &d) == MET_OK && d.breaches == 1);
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  met_diff_markdown(&sb, &d, false);
  CHECK(sb.data && strstr(sb.data, "| `@a\\|b` | `arena_bytes` | 64 | 128 | +64 (+64 B) | +100.0% | "
                                   "**regression**: `arena_bytes>10%` |"));
  sb.len = 0;
  met_diff_text(&sb, &d, false);
  CHECK(sb.data && strstr(sb.data, "REGRESSION (arena_bytes>10%)"));
  sb.len = 0;
  met_diff_json(&sb, &d);
  met_json_t *back = parse(&a, sb.data, &st, &at);
  CHECK(st == MET_OK && met_json_get(back, "regressions")->u == 1);
  met_strbuf_deinitialize(&sb);
  free(o);
  free(n);
  free(z);
  met_arena_deinitialize(&a);
}

int main(void) {
  test_json();
  test_rules();
  test_compare();
  return check_finish("test_diff");
}
