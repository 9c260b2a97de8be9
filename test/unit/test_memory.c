// test_memory.c: the memory model's arithmetic: the KV pool formula, the budget, the
// driver terms and the inverse queries, on numbers worked out by hand.
#include <string.h>

#include "check.h"
#include "metrale/memory.h"
#include "metrale/memory_model.h"

#define GiB (1024ull * 1024 * 1024)

// LLaMA-2-7B: 32 layers, 32 KV heads, head dim 128, f16 KV, 16-token blocks.
static met_kv_pool_t llama_pool(void) {
  met_kv_pool_t p = {0};
  p.present = true;
  p.layers = 32;
  p.kv_heads = 32;
  p.head_dim = 128;
  p.block_size = 16;
  p.kv_bits = 16;
  return p;
}

static void test_kv_formula(void) {
  met_kv_pool_t p = llama_pool();
  uint64_t blocks, bytes;
  // One block = 16 tokens x 2 x 32 x 32 x 128 x 2 B = 16 x 524288 = 8388608 B (8 MiB):
  // 512 KiB a token. kv_blocks_for(1, 0, 16) = 1 x (0 / 16 + 1) + 1 = 2 blocks.
  CHECK(met_memory_kv_bytes(&p, 1, 1, &blocks, &bytes) == MET_OK);
  CHECK_EQ_U64(blocks, 2);                 // 1 x (1 / 16 + 1) + 1
  CHECK_EQ_U64(bytes, 2 * 8388608ull);
  // 4096 tokens: 4096 / 16 + 1 = 257 blocks a sequence; 8 sequences: 8 x 257 + 1 = 2057.
  CHECK(met_memory_kv_blocks_for(8, 4096, 16, &blocks) == MET_OK);
  CHECK_EQ_U64(blocks, 2057);
  CHECK(met_memory_kv_bytes(&p, 8, 4096, &blocks, &bytes) == MET_OK);
  CHECK_EQ_U64(bytes, 2057ull * 8388608ull);
  // 15 tokens still fit the prompt's block: 15 / 16 + 1 = 1 (vLLM: ceil(15/16) = 1 too);
  // 16 tokens take 2 (vLLM: 1): the block the next token writes.
  CHECK(met_memory_kv_blocks_for(1, 15, 16, &blocks) == MET_OK);
  CHECK_EQ_U64(blocks, 2);
  CHECK(met_memory_kv_blocks_for(1, 16, 16, &blocks) == MET_OK);
  CHECK_EQ_U64(blocks, 3);
  CHECK(met_memory_kv_blocks_for(1, 16, 0, &blocks) == MET_EINVAL);
  CHECK(met_memory_kv_blocks_for(UINT64_MAX, 16, 16, &blocks) == MET_EOVERFLOW);
  // Issue 26: 2^64 - 1 tokens in blocks of 1: tokens / 1 + 1 wrapped to 0 blocks a
  // sequence (kv 4 B, "fits"); now an overflow, for one sequence or two.
  CHECK(met_memory_kv_blocks_for(1, UINT64_MAX, 1, &blocks) == MET_EOVERFLOW);
  CHECK(met_memory_kv_blocks_for(2, UINT64_MAX, 1, &blocks) == MET_EOVERFLOW);
  {  // the same wrap through the byte count (the fuzz model once wrapped it itself)
    met_kv_pool_t one = llama_pool();
    one.block_size = 1;
    CHECK(met_memory_kv_bytes(&one, 1, UINT64_MAX, &blocks, &bytes) == MET_EOVERFLOW);
    CHECK_EQ_U64(bytes, 0);
  }
  // 2^64 - 2 tokens: 2^64 - 1 blocks, + 1 overflows.
  CHECK(met_memory_kv_blocks_for(1, UINT64_MAX - 1, 1, &blocks) == MET_EOVERFLOW);
  // 2^64 - 1 tokens in blocks of 2: 2^63 - 1 + 1 = 2^63 a sequence, + 1 = 2^63 + 1.
  CHECK(met_memory_kv_blocks_for(1, UINT64_MAX, 2, &blocks) == MET_OK);
  CHECK(blocks == (UINT64_C(1) << 63) + 1);
  // A draft head (2 layers, 8 heads, dim 64, f16) shares the 2057 blocks:
  // 2057 x 16 x 2 x 2 x 8 x 64 x 2 B = 2057 x 65536 B.
  p.has_draft = true;
  p.draft_layers = 2;
  p.draft_kv_heads = 8;
  p.draft_head_dim = 64;
  p.draft_kv_bits = 16;
  CHECK(met_memory_kv_bytes(&p, 8, 4096, &blocks, &bytes) == MET_OK);
  CHECK_EQ_U64(bytes, 2057ull * 8388608ull + 2057ull * 65536ull);
  // Sub-byte KV (4 bits): half of 8 bits, rounded up to whole bytes.
  met_kv_pool_t q = llama_pool();
  q.kv_bits = 4;
  CHECK(met_memory_kv_bytes(&q, 1, 1, &blocks, &bytes) == MET_OK);
  CHECK_EQ_U64(bytes, 2 * 8388608ull / 4);
}

static void test_missing(void) {
  met_kv_pool_t p = llama_pool();
  CHECK(met_memory_kv_missing(&p, 8, 4096) == 0);
  CHECK(met_memory_kv_missing(&p, 0, 4096) == MET_KV_MISSING_SEQUENCES);
  CHECK(met_memory_kv_missing(&p, 8, 0) == MET_KV_MISSING_TOKENS);
  p.kv_bits = 0;
  CHECK(met_memory_kv_missing(&p, 8, 4096) == MET_KV_MISSING_DTYPE);
  uint64_t blocks, bytes;
  CHECK(met_memory_kv_bytes(&p, 8, 4096, &blocks, &bytes) == MET_OK);
  CHECK_EQ_U64(bytes, 0);  // nothing is defaulted: a missing format sizes nothing
  p = llama_pool();
  p.head_dim = 0;
  CHECK(met_memory_kv_missing(&p, 8, 4096) == MET_KV_MISSING_SHAPE);
  p = llama_pool();
  p.has_draft = true;
  CHECK(met_memory_kv_missing(&p, 8, 4096) == MET_KV_MISSING_DRAFT);
}

static void test_budget_and_inverse(void) {
  // 80 GiB at util 0.9: floor(85899345920 x 0.9) = 77309411328 B. 13.5 GB of f16 weights
  // (13500000000 B), no other term, no driver terms: 63809411328 B for KV, i.e.
  // floor(63809411328 / 8388608) = 7606 blocks of 8 MiB.
  met_memory_terms_t t = {0};
  t.weights_stored = 13500000000ull;
  met_kv_pool_t p = llama_pool();
  met_driver_terms_t d = {0, 0, 0};
  met_memory_totals_t tot;
  CHECK(met_memory_evaluate(&t, &p, &d, 80 * GiB, 900000, 29, 4096, &tot) == MET_OK);
  CHECK_EQ_U64(tot.budget_bytes, 77309411328ull);
  // 29 sequences of 4096: 29 x 257 + 1 = 7454 blocks; 7454 x 8388608 = 58720256000
  // (7000 blocks) + 3808428032 (454) = 62528684032 B of KV; device 13500000000 +
  // 62528684032 = 76028684032; headroom 77309411328 - 76028684032 = 1280727296.
  CHECK_EQ_U64(tot.kv_blocks, 7454);
  CHECK_EQ_U64(tot.kv_bytes, 62528684032ull);
  CHECK_EQ_U64(tot.device_bytes, 76028684032ull);
  CHECK(tot.fits && tot.headroom_bytes == 1280727296);
  // 30 sequences: 7711 blocks > 7606. 7711 x 8388608 = 58720256000 + 5964300288 (711)
  // = 64684556288; device 78184556288; over by 78184556288 - 77309411328 = 875144960.
  CHECK(met_memory_evaluate(&t, &p, &d, 80 * GiB, 900000, 30, 4096, &tot) == MET_OK);
  CHECK(!tot.fits && tot.headroom_bytes == -875144960);
  uint64_t n;
  bool found;
  CHECK(met_memory_max_sequences(&t, &p, &d, 80 * GiB, 900000, 4096, &n, &found) == MET_OK);
  CHECK(found);
  CHECK_EQ_U64(n, 29);  // 29 x 257 + 1 = 7454 <= 7606 < 7711 = 30 x 257 + 1
  // At 8 sequences: 8 x (t / 16 + 1) + 1 <= 7606  =>  t / 16 <= 949  =>  t <= 15199.
  CHECK(met_memory_max_tokens(&t, &p, &d, 80 * GiB, 900000, 8, &n, &found) == MET_OK);
  CHECK(found);
  CHECK_EQ_U64(n, 15199);
  // Weights alone over the budget: not even one sequence.
  t.weights_stored = 78000000000ull;
  CHECK(met_memory_max_sequences(&t, &p, &d, 80 * GiB, 900000, 4096, &n, &found) == MET_OK);
  CHECK(!found);
  // A pool without a format cannot answer.
  t.weights_stored = 13500000000ull;
  p.kv_bits = 0;
  CHECK(met_memory_max_sequences(&t, &p, &d, 80 * GiB, 900000, 4096, &n, &found) == MET_EINVAL);
  CHECK(met_memory_evaluate(&t, &p, &d, 80 * GiB, 0, 1, 1, &tot) == MET_EINVAL);
}

static void test_driver_terms(void) {
  // Context 512 MiB, 1% of 1 GiB reserved (floor(1073741824 x 0.01) = 10737418), 2 MiB
  // chunks. Weights 3 MiB + 1 B round up to 4 MiB: slack 4194304 - 3145729 = 1048575;
  // activations exactly 4 MiB: 0. driver = 536870912 + 10737418 + 1048575 = 548656905.
  met_memory_terms_t t = {0};
  t.weights_stored = 3 * 1048576ull + 1;
  t.activations = 4 * 1048576ull;
  t.caches_host = 1ull << 40;  // host caches are not charged to the device
  met_driver_terms_t d = {512 * 1048576ull, 10000, 2 * 1048576ull};
  met_memory_totals_t tot;
  CHECK(met_memory_evaluate(&t, NULL, &d, GiB, 1000000, 0, 0, &tot) == MET_OK);
  CHECK_EQ_U64(tot.driver_bytes, 548656905ull);
  CHECK_EQ_U64(tot.device_bytes, 3 * 1048576ull + 1 + 4 * 1048576ull + 548656905ull);  // 555996938
  CHECK(tot.fits);
  // A driver reserving 4294.967295 x the device (reserved_ppm = 2^32 - 1) on a 2^63-byte
  // device: 2^63 x 4294.97 passes 2^64. It is an overflow naming the driver, not a
  // reserve cut to its low 64 bits (test/fuzz/crashes/memory-reserved-ppm).
  met_driver_terms_t greedy = {0, UINT32_MAX, 0};
  CHECK(met_memory_evaluate(&t, NULL, &greedy, 1ull << 63, 1000000, 0, 0, &tot) == MET_EOVERFLOW);
  CHECK(tot.overflow_term && !strcmp(tot.overflow_term, "driver"));
  // Terms that pass 2^64 name the first term whose addition overflows: (2^64 - 2) + 2
  // (no chunk rounding, which would overflow on weights_stored itself).
  met_memory_terms_t big = {0};
  big.weights_stored = UINT64_MAX - 1;
  big.activations = 2;
  met_driver_terms_t plain = {0, 0, 0};
  CHECK(met_memory_evaluate(&big, NULL, &plain, GiB, 1000000, 0, 0, &tot) == MET_EOVERFLOW);
  CHECK(tot.overflow_term && !strcmp(tot.overflow_term, "activations"));
}

// A zeroed report and a model assembling into it, storage from |arena|.
static void start_model(met_arena_t *arena, met_memory_report_t *r, met_memory_model_t *m) {
  memset(r, 0, sizeof(*r));
  met_memory_model_initialize(arena, r, m);
}

// lib/memory_model.c: runs, weights merged by name, states, caches, and the sums.
static void test_model(void) {
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  met_memory_report_t r;
  met_memory_model_t m;
  start_model(&arena, &r, &m);
  // Run "a": arena 1000 after hoisting, 300 derived bytes, matmul workspace 64.
  // Run "b": bufferized, allocation peak 5000 (its charge), arena 800, matmul 128, conv 32;
  // its Budget is incomplete.
  met_function_memory_t fa, fb;
  memset(&fa, 0, sizeof(fa));
  memset(&fb, 0, sizeof(fb));
  for (int f = 0; f < MET_FAMILY_COUNT; ++f) fa.family_node[f] = fb.family_node[f] = -1;
  fa.run_arena = 1000; fa.derived_bytes = 300;
  fa.family_bytes[MET_FAMILY_MATMUL] = 64; fa.family_node[MET_FAMILY_MATMUL] = 0;
  fb.run_arena = 800; fb.bufferized = true; fb.allocated_peak = 5000;
  fb.family_bytes[MET_FAMILY_MATMUL] = 128; fb.family_node[MET_FAMILY_MATMUL] = 1;
  fb.family_bytes[MET_FAMILY_CONV] = 32; fb.family_node[MET_FAMILY_CONV] = 2;
  met_budget_report_t ba, bb;
  memset(&ba, 0, sizeof(ba));
  memset(&bb, 0, sizeof(bb));
  ba.complete = true;
  bb.complete = false;
  CHECK(met_memory_model_run(&m, "a", &ba, &fa, NULL) == MET_OK);
  CHECK(met_memory_model_run(&m, "b", &bb, &fb, NULL) == MET_OK);
  CHECK_EQ_U64(r.terms.activations, 5000);          // max(1000, 5000): b's allocation peak
  CHECK(r.peak_run && !strcmp(r.peak_run, "b"));
  CHECK_EQ_U64(r.terms.activations_planned, 1000);  // max(1000, 800)
  CHECK_EQ_U64(r.terms.weights_derived, 300);
  CHECK(!r.complete);
  // Weights: "w" in both runs (4096 stored, 2048 served copy): uses 1 + 2 = 3, outside
  // only if no run reads it (false), leaked only if both leak (false). "u" read by none:
  // outside. "x" leaked.
  met_memory_weight_t w1 = {"w", "bf16", 4096, 2048, 1, false, true, 0};
  met_memory_weight_t w2 = {"w", "bf16", 4096, 2048, 2, true, false, 0};
  met_memory_weight_t u = {"u", NULL, 100, 0, 0, true, false, 0};
  met_memory_weight_t x = {"x", NULL, 10, 0, 0, false, true, 0};
  CHECK(met_memory_model_weight(&m, &w1, true) == MET_OK);
  CHECK(met_memory_model_weight(&m, &w2, true) == MET_OK);
  CHECK(met_memory_model_weight(&m, &u, true) == MET_OK);
  CHECK(met_memory_model_weight(&m, &x, true) == MET_OK);
  CHECK_EQ_U64(r.weight_count, 3);
  CHECK_EQ_U64(r.weights[0].uses, 3);
  CHECK(!r.weights[0].outside && !r.weights[0].leaked);
  // The same name with another size is a conflict, reporting the first size.
  met_memory_weight_t w3 = {"w", NULL, 8192, 0, 0, false, false, 0};
  CHECK(met_memory_model_weight(&m, &w3, true) == MET_EINVAL);
  CHECK_EQ_U64(m.conflict_bytes, 4096);
  // States once per name; another size is a conflict.
  CHECK(met_memory_model_state(&m, "kv", 512, NULL) == MET_OK);
  CHECK(met_memory_model_state(&m, "kv", 512, NULL) == MET_OK);
  CHECK(met_memory_model_state(&m, "kv", 256, NULL) == MET_EINVAL);
  CHECK_EQ_U64(r.terms.states, 512);
  // Caches: 4 x 1024 on the device, 2 x 10 on the host; a product past 2^64 names itself.
  met_memory_cache_t dev = {"prefix", 4, 1024, 0, false}, host = {"swap", 2, 10, 0, true};
  met_memory_cache_t huge = {"huge", 1ull << 32, 1ull << 32, 0, false};
  CHECK(met_memory_model_cache(&m, &dev) == MET_OK);
  CHECK(met_memory_model_cache(&m, &host) == MET_OK);
  CHECK_EQ_U64(r.terms.caches_device, 4096);
  CHECK_EQ_U64(r.terms.caches_host, 20);
  CHECK(met_memory_model_cache(&m, &huge) == MET_EOVERFLOW);
  CHECK(!strcmp(m.overflow_term, MET_MEMORY_CACHE_PRODUCT));
  // Finish: workspace = max matmul 128 + max conv 32 = 160; stored 4096 + 100 + 10 = 4206;
  // derived 300 + served 2048 = 2348; outside 100 (u); leaked 10 (x).
  CHECK(met_memory_model_finish(&m) == MET_OK);
  CHECK_EQ_U64(r.terms.workspace, 160);
  CHECK_EQ_U64(r.terms.weights_stored, 4206);
  CHECK_EQ_U64(r.terms.weights_derived, 2348);
  CHECK_EQ_U64(r.terms.weights_outside, 100);
  CHECK_EQ_U64(r.terms.weights_leaked, 10);
  // The rows' columns sum to the terms: stored, derived, workspace, state.
  uint64_t stored = 0, derived = 0, ws = 0, state = 0;
  for (size_t i = 0; i < r.row_count; ++i) {
    stored += r.rows[i].stored; derived += r.rows[i].derived;
    ws += r.rows[i].workspace; state += r.rows[i].state;
  }
  CHECK_EQ_U64(stored, 4206);
  CHECK_EQ_U64(derived, 2348);
  CHECK_EQ_U64(ws, 160);
  CHECK_EQ_U64(state, 512 + 4096);  // the state and the device cache
  // A sum past 2^64 names its term: weights of 2^64 - 1 and 1 bytes.
  met_memory_report_t r2;
  met_memory_model_t m2;
  start_model(&arena, &r2, &m2);
  met_memory_weight_t big = {"big", NULL, UINT64_MAX, 0, 0, false, false, 0};
  met_memory_weight_t one = {"one", NULL, 1, 0, 0, false, false, 0};
  CHECK(met_memory_model_weight(&m2, &big, true) == MET_OK);
  CHECK(met_memory_model_weight(&m2, &one, true) == MET_OK);
  CHECK(met_memory_model_finish(&m2) == MET_EOVERFLOW);
  CHECK(!strcmp(m2.overflow_term, "weights_stored"));
  met_arena_deinitialize(&arena);
}

// MET_RESIDENCY_REPLACE (memory_model.h): a derived copy replaces the source bytes no run
// reads. "p" (1000 B) replaces 600 in one run and 400 in another: the least, 400, since
// what one run reads stays. "q" (200 B stored as bf16, a 400 B served f32 copy) is read
// only at load time: all 200 replaced, and its served copy with them. "r" is leaked, but a
// replacing target keeps nothing that no run reads: weights_leaked 0.
static void test_replace_sources(void) {
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  met_memory_report_t r;
  met_memory_model_t m;
  start_model(&arena, &r, &m);
  m.replace_sources = true;
  met_memory_weight_t p1 = {"p", NULL, 1000, 0, 1, false, false, 600};
  met_memory_weight_t p2 = {"p", NULL, 1000, 0, 1, false, false, 400};
  met_memory_weight_t q = {"q", "bf16", 200, 400, 0, false, true, 200};
  met_memory_weight_t rr = {"r", NULL, 50, 0, 0, false, true, 50};
  CHECK(met_memory_model_weight(&m, &p1, true) == MET_OK);
  CHECK(met_memory_model_weight(&m, &p2, true) == MET_OK);
  CHECK(met_memory_model_weight(&m, &q, true) == MET_OK);
  CHECK(met_memory_model_weight(&m, &rr, true) == MET_OK);
  CHECK_EQ_U64(r.weights[0].replaced, 400);
  CHECK(met_memory_model_finish(&m) == MET_OK);
  // stored 1000 + 200 + 50 = 1250; replaced 400 + 200 + 50 = 650; derived: q's served copy
  // 400 less its replaced share (all of it) = 0.
  CHECK_EQ_U64(r.terms.weights_stored, 1250);
  CHECK_EQ_U64(r.terms.weights_replaced, 650);
  CHECK_EQ_U64(r.terms.weights_derived, 0);
  CHECK_EQ_U64(r.terms.weights_leaked, 0);
  // The rows hold what stays: 600 of "p", nothing of "q" and "r".
  uint64_t stored = 0;
  for (size_t i = 0; i < r.row_count; ++i) stored += r.rows[i].stored;
  CHECK_EQ_U64(stored, 600);
  // Device: 1250 - 650 = 600 of weights, no driver: 600.
  met_driver_terms_t none = {0, 0, 0};
  met_memory_totals_t tot;
  met_kv_pool_t pool;
  memset(&pool, 0, sizeof(pool));
  CHECK(met_memory_evaluate(&r.terms, &pool, &none, 1 << 20, 1000000, 0, 0, &tot) == MET_OK);
  CHECK_EQ_U64(tot.device_bytes, 600);
  // Half of a weight replaced keeps half of its served copy: stored 100, served 300,
  // replaced 50: derived 300 - 150 = 150.
  met_memory_report_t r2;
  met_memory_model_t m2;
  start_model(&arena, &r2, &m2);
  m2.replace_sources = true;
  met_memory_weight_t h = {"h", "bf16", 100, 300, 1, false, false, 50};
  CHECK(met_memory_model_weight(&m2, &h, true) == MET_OK);
  CHECK(met_memory_model_finish(&m2) == MET_OK);
  CHECK_EQ_U64(r2.terms.weights_replaced, 50);
  CHECK_EQ_U64(r2.terms.weights_derived, 150);
  met_arena_deinitialize(&arena);
}

// The kv-pool= text (met_memory_kv_pool_parse): any order, each key once, N >= 1.
static void test_kv_pool_parse(void) {
  met_kv_pool_t p;
  memset(&p, 0, sizeof(p));
  const char *ok = "block_size=16,layers=32,head_dim=128,kv_heads=8";
  met_error_t err;
  met_error_init(&err);
  CHECK(met_memory_kv_pool_parse(ok, strlen(ok), &p, &err) == MET_OK);
  CHECK(p.present);
  CHECK_EQ_U64(p.layers, 32);
  CHECK_EQ_U64(p.kv_heads, 8);
  CHECK_EQ_U64(p.head_dim, 128);
  CHECK_EQ_U64(p.block_size, 16);
  const char *bad[] = {"layers=2,layers=3", "heads=2", "layers", "layers=0", "layers=-1",
                       "layers=1,", "layers=18446744073709551616", ""};
  const char *why[] = {"a key is given twice", "each entry is key=N", "each entry is key=N",
                       "each N is a whole number", "each N is a whole number",
                       "each entry is key=N", "each N is a whole number", "each entry is key=N"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
    memset(&p, 0, sizeof(p));
    met_error_init(&err);
    met_status_t st = met_memory_kv_pool_parse(bad[i], strlen(bad[i]), &p, &err);
    // layers=0 is below N's range [1, 2^64) and layers=18446744073709551616 past it:
    // MET_EOVERFLOW (met_parse_u64's "out of range"); every other MET_EINVAL.
    bool range = !strcmp(bad[i], "layers=0") || strstr(bad[i], "551616");
    CHECK(st == (range ? MET_EOVERFLOW : MET_EINVAL) && st == err.code);
    CHECK(!strncmp(err.message, why[i], strlen(why[i])));
  }
}

int main(void) {
  test_kv_pool_parse();
  test_replace_sources();
  test_kv_formula();
  test_missing();
  test_budget_and_inverse();
  test_driver_terms();
  test_model();
  return check_finish("test_memory");
}
