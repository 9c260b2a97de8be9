// test_core.c: the op table, the pointer map, targets, width policies and the renderers'
// string building.
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "metrale/limits.h"
#include "metrale/opclass.h"
#include "metrale/options.h"
#include "metrale/parse.h"
#include "metrale/ptrmap.h"
#include "metrale/strmap.h"
#include "metrale/report.h"
#include "metrale/target.h"

static met_opinfo_t look(const char *n) { return met_opclass_lookup(n, strlen(n)); }

static void test_opclass(void) {
  CHECK(met_opclass_table_sorted());
  CHECK(met_opclass_table_size() > 150);
  CHECK(look("tosa.add").op_class == MET_CLASS_ELEMENTWISE);
  CHECK(look("tosa.cast").cast);
  // The softmax workspace family is a column of the table, not a guess from the name.
  CHECK(look("linalg.softmax").softmax && look("iree_linalg_ext.attention").softmax);
  CHECK(!look("tosa.reduce_sum").softmax && !look("my.attention").softmax);
  CHECK(look("arith.extf").cast && look("arith.truncf").cast && look("arith.sitofp").cast);
  CHECK(!look("arith.addf").cast && look("arith.addf").op_class == MET_CLASS_ELEMENTWISE);
  CHECK(look("math.erf").op_class == MET_CLASS_ELEMENTWISE);  // dialect rule
  CHECK(look("linalg.conv_2d_nhwc_hwcf").op_class == MET_CLASS_CONV);  // prefix rule
  CHECK(look("linalg.pooling_nchw_max").op_class == MET_CLASS_CONV);
  CHECK(look("tosa.matmul").op_class == MET_CLASS_MATMUL);
  CHECK(look("tosa.reduce_sum").op_class == MET_CLASS_REDUCTION);
  CHECK(look("tosa.reshape").kind == MET_NODE_VIEW);
  CHECK(look("tensor.extract_slice").kind == MET_NODE_VIEW);
  CHECK(look("tosa.const").kind == MET_NODE_LEAF && look("tosa.const").role == MET_ROLE_CONST);
  CHECK(look("tensor.empty").role == MET_ROLE_EMPTY);
  CHECK(look("memref.get_global").role == MET_ROLE_GLOBAL);
  CHECK(look("memref.alloc").kind == MET_NODE_ALLOC);
  CHECK(look("func.return").kind == MET_NODE_RETURN);
  met_opinfo_t u = look("mydialect.frobnicate");
  CHECK(!u.known && u.op_class == MET_CLASS_UNKNOWN && u.kind == MET_NODE_COMPUTE);
  // A prefix of a real name is not that name.
  CHECK(!look("tosa.ad").known);
}

static void test_ptrmap(void) {
  met_arena_t a;
  met_arena_initialize(met_allocator_system(), &a);
  met_ptrmap_t m;
  met_ptrmap_initialize(&a, &m);
  static char base[100000];  // distinct addresses to use as keys
  int bad = 0;
  for (uint32_t i = 0; i < 100000; ++i) bad += met_ptrmap_put(&m, base + i, i) != MET_OK;
  CHECK(bad == 0);
  int wrong = 0;
  for (uint32_t i = 0; i < 100000; ++i) wrong += met_ptrmap_get(&m, base + i) != i;
  CHECK(wrong == 0);
  CHECK(met_ptrmap_get(&m, &wrong) == UINT32_MAX);
  CHECK(met_ptrmap_put(&m, NULL, 1) == MET_EINVAL);
  CHECK_EQ_U64(m.count, 100000);
  // Keys one byte apart are denser than MLIR's objects: the table hashes every key.
  CHECK(m.scatter);
  met_arena_deinitialize(&a);
  // Keys 64 and 16 bytes apart (an MLIR op's size; its densest values) are found in their
  // pages' windows; at 64 bytes no put probes far enough to scatter the table.
  static char wide[64 * 50000];
  for (uint32_t stride = 64; stride >= 16; stride /= 4) {
    met_arena_initialize(met_allocator_system(), &a);
    met_ptrmap_initialize(&a, &m);
    uint32_t nk = (uint32_t)(sizeof(wide) / stride);
    for (uint32_t i = 0; i < nk; ++i) bad += met_ptrmap_put(&m, wide + stride * i, i) != MET_OK;
    for (uint32_t i = 0; i < nk; ++i) wrong += met_ptrmap_get(&m, wide + stride * i) != i;
    CHECK(bad == 0 && wrong == 0);
    CHECK_EQ_U64(m.count, nk);
    if (stride == 64) CHECK(!m.scatter);
    CHECK(met_ptrmap_get(&m, wide + 8) == UINT32_MAX);
    met_arena_deinitialize(&a);
  }
}

static void test_strmap(void) {
  met_arena_t a;
  met_arena_initialize(met_allocator_system(), &a);
  met_strmap_t m;
  met_strmap_initialize(&a, &m);
  CHECK_EQ_U64(met_strmap_get(&m, NULL, "f", 1), SIZE_MAX);  // empty map
  static char names[20000][8];
  int s1 = 0, s2 = 0;  // two scopes: the same name is two keys
  bool ins;
  int bad = 0;
  for (size_t i = 0; i < 20000; ++i) {
    snprintf(names[i], sizeof names[i], "f%zu", i);
    bad += met_strmap_put(&m, &s1, names[i], strlen(names[i]), i, &ins) != MET_OK || !ins;
    bad += met_strmap_put(&m, &s2, names[i], strlen(names[i]), 2 * i, &ins) != MET_OK || !ins;
  }
  CHECK(bad == 0);
  CHECK_EQ_U64(m.count, 40000);
  int wrong = 0;
  for (size_t i = 0; i < 20000; ++i) {
    wrong += met_strmap_get(&m, &s1, names[i], strlen(names[i])) != i;
    wrong += met_strmap_get(&m, &s2, names[i], strlen(names[i])) != 2 * i;
  }
  CHECK(wrong == 0);
  // The first value of a key stays; a prefix and another scope are other keys.
  CHECK(met_strmap_put(&m, &s1, "f7", 2, 99, &ins) == MET_OK && !ins);
  CHECK_EQ_U64(met_strmap_get(&m, &s1, "f7", 2), 7);
  CHECK_EQ_U64(met_strmap_get(&m, &s1, "f1234", 2), 1);   // "f1": a prefix by length
  CHECK_EQ_U64(met_strmap_get(&m, NULL, "f7", 2), SIZE_MAX);
  CHECK_EQ_U64(met_strmap_get(&m, &s1, "g7", 2), SIZE_MAX);
  // The empty name is a key; a NULL name is not.
  CHECK(met_strmap_put(&m, NULL, "", 0, 5, NULL) == MET_OK);
  CHECK_EQ_U64(met_strmap_get(&m, NULL, "", 0), 5);
  CHECK(met_strmap_put(&m, NULL, NULL, 0, 1, NULL) == MET_EINVAL);
  met_arena_deinitialize(&a);
}

static void test_targets(void) {
  const met_target_t *t0;
  // host-cpu, h100, mobile-gpu-f32, npu, h100-megakernel, mlir-cpu.
  CHECK(met_target_builtin_count() == 6);
  CHECK(met_target_find("h100-megakernel", 15, &t0) == MET_OK &&
        t0->dispatch.execution_model == MET_EXEC_MEGAKERNEL && t0->dispatch.results_in_place);
  CHECK(met_target_find("mlir-cpu", 8, &t0) == MET_OK &&
        t0->dispatch.allocation_model == MET_ALLOC_PER_BUFFER && !t0->epilogue_fusion &&
        !t0->dispatch.offload && t0->dispatch.allocation_padding_bytes == 64);
  const met_target_t *t;
  CHECK(met_target_find("h100", 4, &t) == MET_OK && t->width_policy == MET_WIDTH_NATIVE);
  CHECK(met_target_find("mobile-gpu-f32", 14, &t) == MET_OK && t->width_policy == MET_WIDTH_F32_UNIFORM);
  CHECK(met_target_find("npu", 3, &t) == MET_OK && t->width_policy == MET_WIDTH_HYBRID);
  CHECK(met_target_is_fast(t, "tosa.conv2d"));
  CHECK(!met_target_is_fast(t, "tosa.gather"));
  CHECK(met_target_is_fast(t, "linalg.conv_2d_nchw_fchw"));  // "linalg.conv_*"
  CHECK(met_target_find("h10", 3, &t) == MET_ENOTFOUND);
  met_width_policy_t p;
  CHECK(met_width_policy_parse("hybrid", 6, &p) == MET_OK && p == MET_WIDTH_HYBRID);
  CHECK(met_width_policy_parse("f16", 3, &p) == MET_ENOTFOUND);
}

static void test_strbuf(void) {
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  met_strbuf_json_string(&sb, "a\"b\\c\n");
  CHECK(strcmp(sb.data, "\"a\\\"b\\\\c\\u000a\"") == 0);
  sb.len = 0;
  // UTF-8 kept whole (e-acute C3 A9, euro E2 82 AC, U+1F600 F0 9F 98 80); a lone byte
  // (FF), an overlong form (C0 80: two bytes of no character), a surrogate (ED A0 80) and a
  // lead byte cut short by the end become U+FFFD each byte.
  met_strbuf_json_string(&sb, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  CHECK(strcmp(sb.data, "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"") == 0);
  sb.len = 0;
  met_strbuf_json_string(&sb, "a\xff\xc0\x80\xed\xa0\x80\xe2\x82");
  CHECK(strcmp(sb.data, "\"a\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"") == 0);
  sb.len = 0;
  met_report_bytes(&sb, 512);
  CHECK(strcmp(sb.data, "512 B") == 0);
  sb.len = 0;
  met_report_bytes(&sb, 1536);  // 1536 / 1024 = 1.5
  CHECK(strcmp(sb.data, "1.5 KiB") == 0);
  sb.len = 0;
  met_report_bytes(&sb, 3ull << 30);
  CHECK(strcmp(sb.data, "3.0 GiB") == 0);
  sb.len = 0;
  for (int i = 0; i < 1000; ++i) met_strbuf_printf(&sb, "%04d", i);  // grows past 256
  CHECK(sb.len == 4000 && !sb.status && memcmp(sb.data + 3996, "0999", 4) == 0);
  sb.len = 0;
  // Decimal without printf: the extremes and a number with inner zeros.
  met_strbuf_u64(&sb, 0);
  met_strbuf_cstr(&sb, " ");
  met_strbuf_u64(&sb, 1000200);
  met_strbuf_cstr(&sb, " ");
  met_strbuf_u64(&sb, UINT64_MAX);
  CHECK(strcmp(sb.data, "0 1000200 18446744073709551615") == 0);
  met_strbuf_deinitialize(&sb);
  // A failing allocator leaves a status, not a crash.
  failing_t f = {0, 0};
  met_allocator_t al = {failing_alloc, failing_free, &f, NULL};
  met_strbuf_initialize(al, &sb);
  met_strbuf_append(&sb, "x", 1);
  CHECK(sb.status == MET_ENOMEM);
  met_strbuf_deinitialize(&sb);
}

// Counts live blocks, to see what met_arena_release_to returns.
typedef struct live_t { int blocks; } live_t;
static void *live_alloc(void *self, size_t n) { ((live_t *)self)->blocks++; return malloc(n); }
static void live_free(void *self, void *p) {
  if (p) ((live_t *)self)->blocks--;
  free(p);
}

static void test_arena_marks(void) {
  live_t l = {0};
  met_allocator_t al = {live_alloc, live_free, &l, NULL};
  met_arena_t a;
  met_arena_initialize(al, &a);
  char *keep = met_arena_alloc(&a, 100);  // the first block (1 KiB)
  CHECK(keep && l.blocks == 1);
  keep[0] = 'k';
  met_arena_mark_t m = met_arena_mark(&a);
  // After the mark: the rest of the first block, a second default block (2 KiB), and a
  // large block (100 KiB, linked in behind the head): 2 blocks more.
  CHECK(met_arena_alloc(&a, 900) && l.blocks == 1);
  CHECK(met_arena_alloc(&a, 1500) && l.blocks == 2);
  CHECK(met_arena_alloc(&a, 100 * 1024) && l.blocks == 3);
  met_arena_release_to(&a, m);
  CHECK_EQ_U64(l.blocks, 1);
  CHECK(keep[0] == 'k');
  // Allocation resumes where the mark was: the next 100 bytes follow |keep| in its block.
  char *next = met_arena_alloc(&a, 100);
  CHECK(next == keep + 112 && l.blocks == 1);  // 100 rounded up to 16: 112
  // A large block behind the mark's own head, then released: gone too.
  m = met_arena_mark(&a);
  CHECK(met_arena_alloc(&a, 200 * 1024) && l.blocks == 2);
  met_arena_release_to(&a, m);
  CHECK_EQ_U64(l.blocks, 1);
  // A mark on an empty arena releases everything.
  met_arena_deinitialize(&a);
  CHECK_EQ_U64(l.blocks, 0);
  m = met_arena_mark(&a);
  CHECK(met_arena_alloc(&a, 10) && l.blocks == 1);
  met_arena_release_to(&a, m);
  CHECK_EQ_U64(l.blocks, 0);
  met_arena_deinitialize(&a);
}

// An arena on the caller's buffer: what fits there takes no block; the buffer is never
// given back, through a mark, a release or the end.
static void test_arena_buffer(void) {
  live_t l = {0};
  met_allocator_t al = {live_alloc, live_free, &l, NULL};
  _Alignas(16) unsigned char buf[1024];
  met_arena_t a;
  met_arena_initialize_buffer(al, buf, sizeof(buf), &a);
  // 1024 - 16 B header = 1008 B hold 100 (rounded to 112) and 800: no block.
  char *p = met_arena_alloc(&a, 100), *q = met_arena_alloc(&a, 800);
  CHECK(p == (char *)buf + 16 && q == p + 112 && l.blocks == 0 && a.total_bytes == 0);
  met_arena_mark_t m = met_arena_mark(&a);
  // 112 + 800 = 912 used, 96 left: 200 B take a block (it grows from the buffer's 1008 B).
  CHECK(met_arena_alloc(&a, 200) && l.blocks == 1);
  met_arena_release_to(&a, m);
  CHECK_EQ_U64(l.blocks, 0);
  CHECK(met_arena_alloc(&a, 96) == q + 800);  // back in the buffer where the mark was
  CHECK(met_arena_alloc(&a, 3000) && l.blocks == 1);
  met_arena_deinitialize(&a);  // frees the block, not the buffer (free() on it would abort)
  CHECK_EQ_U64(l.blocks, 0);
  CHECK(a.head == NULL && a.first == NULL);
  // A buffer too small for a header, or misaligned, is not used: the arena allocates.
  met_arena_initialize_buffer(al, buf + 1, sizeof(buf) - 1, &a);
  CHECK(a.head == NULL && met_arena_alloc(&a, 8) && l.blocks == 1);
  met_arena_deinitialize(&a);
  met_arena_initialize_buffer(al, buf, 16, &a);
  CHECK(a.head == NULL);
  met_arena_deinitialize(&a);
  CHECK_EQ_U64(l.blocks, 0);
  // Zero bytes from an arena without a block is a pointer (a block is taken), not NULL + 0;
  // with a full head block it is the end of the block, no new one.
  met_arena_initialize(al, &a);
  CHECK(met_arena_alloc(&a, 0) != NULL && l.blocks == 1);
  met_arena_deinitialize(&a);
  met_arena_initialize_buffer(al, buf, sizeof(buf), &a);
  CHECK(met_arena_alloc(&a, 1008) == (char *)buf + 16);
  CHECK(met_arena_alloc(&a, 0) == (char *)buf + 1024 && l.blocks == 0);
  met_arena_deinitialize(&a);
  CHECK_EQ_U64(l.blocks, 0);
}

// An allocator that hands out whole units of |unit| bytes and says so (alloc_at_least).
typedef struct units_t { int blocks; size_t unit, last, refuse_over; } units_t;
static void *units_alloc_at_least(void *self, size_t n, size_t *got) {
  units_t *u = self;
  if (u->refuse_over && n > u->refuse_over) return NULL;
  u->blocks++;
  u->last = *got = (n + u->unit - 1) / u->unit * u->unit;
  return malloc(*got);
}
static void *units_alloc(void *self, size_t n) {
  size_t got;
  return units_alloc_at_least(self, n, &got);
}
static void units_free(void *self, void *p) {
  if (p) ((units_t *)self)->blocks--;
  free(p);
}

static void test_arena_at_least(void) {
  // Whole 64 KiB units: the arena bumps into all of a unit it was given.
  units_t u = {0, 65536, 0, 0};
  met_allocator_t al = {units_alloc, units_free, &u, units_alloc_at_least};
  met_arena_t a;
  met_arena_initialize(al, &a);
  char *small = met_arena_alloc(&a, 100);  // asks 1.5 KiB, gets a unit: 65536 - 16 B header
  CHECK(small && u.blocks == 1 && u.last == 65536);
  // 112 B used, 61,440 more fit in the same unit (65520 - 112 = 65408 left).
  char *more = met_arena_alloc(&a, 60 * 1024);
  CHECK(more == small + 112 && u.blocks == 1);
  met_arena_mark_t m = met_arena_mark(&a);
  // A large request (100 KiB > the 64 KiB default block) gets 2 units, 131,056 B: its
  // leftover (131056 - 102400 = 28656 B) is more than the head's (65408 - 61440 = 3968 B),
  // so its block becomes the head and the next 20 KiB follow it there.
  char *big = met_arena_alloc(&a, 100 * 1024);
  CHECK(big && u.blocks == 2 && u.last == 131072);
  char *after = met_arena_alloc(&a, 20 * 1024);
  CHECK(after == big + 100 * 1024 && u.blocks == 2);
  // The mark still releases exactly what came after it.
  met_arena_release_to(&a, m);
  CHECK_EQ_U64(u.blocks, 1);
  CHECK(met_arena_alloc(&a, 16) == more + 60 * 1024);
  met_arena_deinitialize(&a);
  CHECK_EQ_U64(u.blocks, 0);

  // A large request gets at least half of what the arena holds: after 200 KiB (one block
  // of 204,800 + 16 B header = 204,816), a request of 70 KiB gets 204816 / 2 = 102,408 B,
  // asked with its header as 102,424, handed out in units of 16: 102,432.
  units_t e = {0, 16, 0, 0};
  met_allocator_t ex = {units_alloc, units_free, &e, units_alloc_at_least};
  met_arena_initialize(ex, &a);
  CHECK(met_arena_alloc(&a, 200 * 1024) && e.last == 204816);
  CHECK(met_arena_alloc(&a, 70 * 1024) && e.last == 102432);
  met_arena_deinitialize(&a);
  CHECK_EQ_U64(e.blocks, 0);
  // An allocator that refuses the grown size still serves the request itself. Nothing
  // over 100 KiB is given. Three requests of 90 KiB (92,160 B) take blocks of 92,176,
  // 92,176 and (half of 184,352 is 92,176 > 92,160) 92,176 + 16 = 92,192 B: 276,544 in all.
  // Then 70 KiB would get half of that, 138,272 B (138,288 with the header): refused, so
  // the arena asks for the 71,680 B needed (71,696 with the header).
  e.refuse_over = 100 * 1024;
  e.last = 0;
  met_arena_initialize(ex, &a);
  CHECK(met_arena_alloc(&a, 200 * 1024) == NULL);  // 204,816 B: refused, nothing smaller helps
  for (int i = 0; i < 3; ++i) CHECK(met_arena_alloc(&a, 90 * 1024) != NULL);
  CHECK_EQ_U64(e.last, 92192);
  CHECK(met_arena_alloc(&a, 70 * 1024) && e.last == 71696);
  met_arena_deinitialize(&a);
  CHECK_EQ_U64(e.blocks, 0);
}

// Sizes with units (metrale/parse.h, met_parse_size), each value worked out by hand.
static uint64_t size_of(const char *s, met_status_t *st) {
  uint64_t v = 0;
  *st = met_parse_size(s, strlen(s), 0, UINT64_MAX, &v);
  return v;
}

static void test_parse_size(void) {
  met_status_t st;
  CHECK(size_of("0", &st) == 0 && st == MET_OK);
  CHECK(size_of("65536", &st) == 65536 && st == MET_OK);
  CHECK(size_of("64B", &st) == 64 && st == MET_OK);
  CHECK(size_of("8MiB", &st) == 8388608 && st == MET_OK);          // 8 x 2^20
  CHECK(size_of("1.5GB", &st) == 1500000000 && st == MET_OK);      // 1.5 x 10^9
  CHECK(size_of("1.5KiB", &st) == 1536 && st == MET_OK);           // 1.5 x 1024
  CHECK(size_of("2.25kB", &st) == 2250 && st == MET_OK);
  CHECK(size_of("2.25KB", &st) == 2250 && st == MET_OK);
  CHECK(size_of("0.5KiB", &st) == 512 && st == MET_OK);
  CHECK(size_of("0.001kB", &st) == 1 && st == MET_OK);
  CHECK(size_of("0.000976562KiB", &st) == 0 && st == MET_EINVAL);   // 0.99999949 B
  CHECK(size_of("0.0009765625KiB", &st) == 1 && st == MET_OK);      // 1024 / 2^10: 1 B
  CHECK(size_of("1.5000000000GB", &st) == 1500000000 && st == MET_OK);
  CHECK(size_of("0.0000000000000000001KB", &st) == 0 && st == MET_EINVAL);  // 19 decimals
  CHECK(size_of("0.125KiB", &st) == 128 && st == MET_OK);
  CHECK(size_of("1.0001KiB", &st) == 0 && st == MET_EINVAL);       // 1024.1024 B
  CHECK(size_of("0.3B", &st) == 0 && st == MET_EINVAL);
  CHECK(size_of("1.5", &st) == 0 && st == MET_EINVAL);             // a fraction of what?
  CHECK(size_of("8 MiB", &st) == 0 && st == MET_EINVAL);
  CHECK(size_of("8mib", &st) == 0 && st == MET_EINVAL);
  CHECK(size_of("8MiBx", &st) == 0 && st == MET_EINVAL);
  CHECK(size_of("MiB", &st) == 0 && st == MET_EINVAL);
  CHECK(size_of(".5MiB", &st) == 0 && st == MET_EINVAL);
  CHECK(size_of("5.MiB", &st) == 0 && st == MET_EINVAL);
  CHECK(size_of("-1", &st) == 0 && st == MET_EINVAL);
  CHECK(size_of("", &st) == 0 && st == MET_EINVAL);
  // The top of the range: 15 PiB + 1023 TiB + ... fits; 16384 PiB = 2^64 does not.
  CHECK(size_of("18446744073709551615", &st) == UINT64_MAX && st == MET_OK);
  CHECK(size_of("18446744073709551616", &st) == 0 && st == MET_EOVERFLOW);
  CHECK(size_of("16383PiB", &st) == 16383ull << 50 && st == MET_OK);
  CHECK(size_of("16384PiB", &st) == 0 && st == MET_EOVERFLOW);
  CHECK(size_of("18446.744073709551615PB", &st) == 18446744073709551615ull && st == MET_OK);
  CHECK(size_of("18446.744073PB", &st) == 18446744073000000000ull && st == MET_OK);
  CHECK(size_of("18447PB", &st) == 0 && st == MET_EOVERFLOW);
  uint64_t v;
  CHECK(met_parse_size("2KiB", 4, 0, 1024, &v) == MET_EOVERFLOW);  // above max
  CHECK(met_parse_size("1KiB", 4, 2048, 4096, &v) == MET_EOVERFLOW);  // below min
  // Which limits take a size: those on bytes (arena_bytes, headroom), not counts.
  CHECK(met_limit_field_is_bytes("arena_bytes", 11));
  CHECK(met_limit_field_is_bytes("headroom", 8));
  CHECK(met_limit_field_is_bytes("device_allocation_peak_bytes", 28));
  CHECK(!met_limit_field_is_bytes("dispatches", 10));
  CHECK(!met_limit_field_is_bytes("latency_ns", 10));
  met_error_t err;
  met_error_init(&err);
  CHECK(met_option_parse_num(MET_OPT_arena_bytes, "max-arena", "8MiB", 4, &v, &err) == MET_OK &&
        v == 8388608 && err.code == MET_OK && !err.message[0]);
  // "8kB" is a size, not a whole number: MET_EINVAL from met_parse_u64, said in the message.
  CHECK(met_option_parse_num(MET_OPT_dispatches, "max-dispatches", "8kB", 3, &v, &err) == MET_EINVAL);
  CHECK(err.code == MET_EINVAL && strstr(err.message, "expected a whole number") != NULL);
  CHECK(strcmp(met_error_message(&err), err.message) == 0);
  // A number past the option's range: MET_EOVERFLOW, the same message form.
  CHECK(met_option_parse_num(MET_OPT_dispatches, "max-dispatches", "99999999999999999999", 20,
                             &v, &err) == MET_EOVERFLOW);
}

// The one error idiom (metrale/status.h): a code, a message and a place.
static met_status_t fails_at_third(met_error_t *err) {
  return met_error_at_line(err, MET_EINVAL, 3, 17, "bad cell '%s'", "x");
}

static met_status_t propagates(met_error_t *err, int *after) {
  MET_RETURN_IF_ERROR(fails_at_third(err));
  *after = 1;  // not reached: the failure returned first
  return MET_OK;
}

static void test_error(void) {
  met_error_t e;
  met_error_init(&e);
  CHECK(e.code == MET_OK && !e.message[0] && e.loc == NULL);
  CHECK(e.node == MET_NOWHERE && e.line == MET_NOWHERE && e.offset == MET_NOWHERE);
  // No message: the code's own name.
  CHECK(!strcmp(met_error_message(&e), "ok"));
  int after = 0;
  CHECK(propagates(&e, &after) == MET_EINVAL && after == 0);
  CHECK(e.code == MET_EINVAL && e.line == 3 && e.offset == 17);
  CHECK(!strcmp(e.message, "bad cell 'x'") && met_error_message(&e) == e.message);
  // met_error_set keeps the place, replaces code and message.
  CHECK(met_error_set(&e, MET_ENOMEM, "%s", "") == MET_ENOMEM && e.line == 3);
  CHECK(!strcmp(met_error_message(&e), "out of memory"));  // empty text: the code's name
  // A NULL error still returns the code (callers that want no message).
  CHECK(met_error_set(NULL, MET_EOVERFLOW, "x") == MET_EOVERFLOW);
  CHECK(met_error_at_line(NULL, MET_EUNSUPPORTED, 1, 0, "x") == MET_EUNSUPPORTED);
  CHECK(!strcmp(met_error_message(NULL), "invalid argument"));
  // A message past the room is cut, and still terminated: 5000 'a's keep
  // MET_ERROR_MESSAGE_MAX - 1 of them.
  char *big = malloc(5001);
  memset(big, 'a', 5000);
  big[5000] = 0;
  CHECK(met_error_set(&e, MET_EINVAL, "%s", big) == MET_EINVAL);
  CHECK(strlen(e.message) == MET_ERROR_MESSAGE_MAX - 1 && e.message[0] == 'a');
  free(big);
  // MET_KEEP_FIRST keeps the first failure of a loop that goes on.
  met_status_t st = MET_OK;
  MET_KEEP_FIRST(st, MET_OK);
  MET_KEEP_FIRST(st, MET_ELIMIT);
  MET_KEEP_FIRST(st, MET_ENOMEM);
  CHECK(st == MET_ELIMIT);
  // Every code has its own name.
  static const met_status_t codes[] = {MET_OK, MET_ENOMEM, MET_EOVERFLOW, MET_EINVAL,
                                       MET_ENOTFOUND, MET_EUNSUPPORTED, MET_EEXTERNAL,
                                       MET_ELIMIT};
  for (size_t i = 0; i < sizeof codes / sizeof *codes; ++i) {
    CHECK(strcmp(met_status_str(codes[i]), "unknown status") != 0);
    for (size_t k = 0; k < i; ++k) CHECK(strcmp(met_status_str(codes[i]), met_status_str(codes[k])));
  }
}

// What each target records of the IR (met_target_graph_facts), and the splat-folding
// rule on plain facts (met_fold_to_splat): no MLIR.
static void test_graph_facts_and_folds(void) {
  const met_target_t *t;
  met_graph_facts_t f;
  // IREE (host-cpu: epilogue and IREE fusion, attention off): folds, counts loops, no axes.
  CHECK(met_target_find("host-cpu", 8, &t) == MET_OK);
  f = met_target_graph_facts(t);
  CHECK(f.fold_splats && f.loops && !f.axes);
  // h100 (IREE with attention_fusion): the axes the attention rule follows too.
  CHECK(met_target_find("h100", 4, &t) == MET_OK);
  f = met_target_graph_facts(t);
  CHECK(f.fold_splats && f.loops && f.axes);
  // mlir-cpu: its graph is upstream's own program, which folds only some of these.
  CHECK(met_target_find("mlir-cpu", 8, &t) == MET_OK);
  met_graph_facts_t m = met_target_graph_facts(t);
  CHECK(!m.fold_splats && !m.loops && !m.axes);
  f.fold_splats = true;
  met_opinfo_t add = met_opclass_lookup("arith.addf", 10);
  met_opinfo_t mm = met_opclass_lookup("linalg.matmul", 13);
  met_opinfo_t red = met_opclass_lookup("tosa.reduce_sum", 15);
  met_opinfo_t tile = met_opclass_lookup("tosa.tile", 9);
  met_opinfo_t gather = met_opclass_lookup("tensor.gather", 13);
  met_opinfo_t pad = met_opclass_lookup("tosa.pad", 8);
  met_opinfo_t concat = met_opclass_lookup("tosa.concat", 11);
  met_opinfo_t conv = met_opclass_lookup("tosa.conv2d", 11);
  CHECK(tile.uniform && gather.uniform && !pad.uniform && !concat.uniform && !add.uniform);
  // One splat operand and one tensor.empty init (not counted): a splat.
  CHECK(met_fold_to_splat(&f, &add, 1, 0, 1, false));
  CHECK(met_fold_to_splat(&f, &mm, 2, 0, 1, false));
  CHECK(met_fold_to_splat(&f, &red, 1, 0, 1, false));
  CHECK(met_fold_to_splat(&f, &tile, 1, 0, 1, false));
  CHECK(met_fold_to_splat(&f, &gather, 2, 0, 1, false));
  // Any other operand (a run-time tensor or scalar), no splat at all, no result, or a
  // payload reading a run-time value or the position: no fold.
  CHECK(!met_fold_to_splat(&f, &add, 1, 1, 1, false));
  CHECK(!met_fold_to_splat(&f, &add, 0, 0, 1, false));
  CHECK(!met_fold_to_splat(&f, &add, 1, 0, 0, false));
  CHECK(!met_fold_to_splat(&f, &add, 1, 0, 1, true));
  // Ops that mix values: never, splats or not.
  CHECK(!met_fold_candidate(&f, &pad) && !met_fold_to_splat(&f, &pad, 2, 0, 1, false));
  CHECK(!met_fold_to_splat(&f, &concat, 2, 0, 1, false));
  CHECK(!met_fold_to_splat(&f, &conv, 3, 0, 1, false));
  // A target that does not fold (mlir-cpu) folds nothing.
  CHECK(!met_fold_candidate(&m, &add) && !met_fold_to_splat(&m, &add, 1, 0, 1, false));
}

int main(void) {
  test_error();
  test_graph_facts_and_folds();
  test_arena_marks();
  test_arena_buffer();
  test_arena_at_least();
  test_opclass();
  test_ptrmap();
  test_strmap();
  test_targets();
  test_strbuf();
  test_parse_size();
  return check_finish("test_core");
}
