// test_budget.c: the Budget analysis on hand-built graphs: fusion with and without
// epilogue fusion, materialization, lifetimes through views, widths, fast path, casts,
// params, DRAM, overflow and an allocator that fails on purpose; the fusion rules of
// lib/fusion.c without MLIR (IREE's loop count, a SiLU diamond, a detached init, TF.js's
// single-reader epilogue; upstream MLIR's fill folding, elementwise fusion and in-place
// inits of lib/fusion_mlir.c), a region op's cost (lib/region.c) and the dispatch stats (lib/dispatch.c).
// Every expected number has its arithmetic beside it.
#include <string.h>

#include "check.h"
#include "metrale/budget.h"
#include "metrale/dispatch.h"
#include "metrale/region.h"

static const met_target_t *target(const char *name) {
  const met_target_t *t = NULL;
  met_target_find(name, strlen(name), &t);
  return t;
}

static uint32_t arg(met_graph_t *g, uint64_t bytes, uint64_t f32b, int role) {
  met_value_t v = {bytes, f32b, -1, (int32_t)g->arg_count, -1, (uint8_t)role, 1, 0};
  uint32_t id;
  CHECK(met_graph_add_argument(g, &v, &id) == MET_OK);
  return id;
}

// Adds a node at the next position; returns its (single) result, or UINT32_MAX if none.
static uint32_t node(met_graph_t *g, const char *name, met_node_kind_t kind, met_op_class_t cls,
                     uint16_t flags, const uint32_t *ops, size_t nops, uint64_t bytes,
                     uint64_t f32b, int alias) {
  uint32_t n, id = UINT32_MAX;
  CHECK(met_graph_begin_node(g, name, strlen(name), kind, cls, -1, 0, &n) == MET_OK);
  g->nodes[n].flags = flags;
  for (size_t i = 0; i < nops; ++i) CHECK(met_graph_add_operand(g, ops[i]) == MET_OK);
  if (bytes || f32b) {
    met_value_t v = {bytes, f32b, 0, -1, alias,
                     (uint8_t)(kind == MET_NODE_COMPUTE ? MET_ROLE_ACTIVATION : MET_ROLE_OTHER),
                     1, 0};
    CHECK(met_graph_add_result(g, &v, &id) == MET_OK);
  }
  return id;
}

// One arena and one graph per test.
typedef struct fixture_t {
  met_arena_t arena;
  met_graph_t graph;
} fixture_t;

static met_graph_t *setup(fixture_t *f) {
  met_arena_initialize(met_allocator_system(), &f->arena);
  met_graph_initialize(&f->arena, &f->graph);
  return &f->graph;
}

#define EW MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE
#define OPS(...) (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / 4

// x -> addf -> mulf -> matmul(w) -> exp -> return, every tensor |b| bytes (|wb| widened).
static void chain(met_graph_t *g, uint64_t b, uint64_t wb) {
  uint32_t x = arg(g, b, wb, MET_ROLE_INPUT);
  uint32_t w = arg(g, 4 * b, 4 * wb, MET_ROLE_PARAM);
  uint32_t v0 = node(g, "arith.addf", EW, 0, OPS(x, x), b, wb, -1);
  uint32_t v1 = node(g, "arith.mulf", EW, 0, OPS(v0, x), b, wb, -1);
  uint32_t v2 = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, 0, OPS(v1, w), b, wb, -1);
  uint32_t v3 = node(g, "math.exp", EW, 0, OPS(v2), b, wb, -1);
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(v3), 0, 0, -1);
}

static void test_chain_epilogue(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  chain(g, 1024, 1024);
  met_budget_report_t r;
  CHECK(met_budget_analyze(g, target("host-cpu"), NULL, &f.arena, &r) == MET_OK);
  // Groups: {addf, mulf} (addf reads only x: a generator; mulf joins it) and
  // {matmul, exp} (epilogue fusion on host-cpu). v1 leaves group 0, v3 is returned.
  CHECK_EQ_U64(r.budget.dispatches, 2);
  CHECK_EQ_U64(r.slot_count, 2);
  // A dispatch runs as one kernel at its last member's position: {matmul, exp} at 3 reads
  // v1 while it writes v3. v1 lives [1,3], v3 [3,4] (pinned to the last position):
  // they overlap at 3, 2 x 1024.
  CHECK_EQ_U64(r.budget.materialized_bytes, 2048);
  CHECK_EQ_U64(r.budget.arena_bytes, 2048);
  CHECK_EQ_U64(r.budget.reuse_saved_bytes, 0);
  CHECK_EQ_U64(r.budget.peak_live_bytes, 2048);
  // Group 0 reads x once (1024) and writes v1 (1024); group 1 reads v1 (1024) and w (4096)
  // and writes v3 (1024): 2048 + 6144 = 8192.
  CHECK_EQ_U64(r.budget.dram_bytes, 8192);
  CHECK_EQ_U64(r.budget.host_io_bytes, 2048);  // x 1024 + result 1024
  CHECK_EQ_U64(r.budget.param_bytes, 4096);    // w
  CHECK_EQ_U64(r.budget.off_fast_path_ops, 0);
  CHECK_EQ_U64(r.budget.width_overhead_bytes, 0);
  CHECK(r.complete);
  met_arena_deinitialize(&f.arena);
}

static void test_chain_no_epilogue(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  chain(g, 1024, 1024);
  met_budget_report_t r;
  CHECK(met_budget_analyze(g, target("mobile-gpu-f32"), NULL, &f.arena, &r) == MET_OK);
  // TF.js's WebGL backend: a program per op; the fused matMul takes a bias add or an
  // activation, and exp is neither: 4 dispatches, every result materialized.
  CHECK_EQ_U64(r.budget.dispatches, 4);
  // v0 [0,1], v1 [1,2], v2 [2,3], v3 [3,4]: neighbours overlap, no three do: 2 x 1024.
  CHECK_EQ_U64(r.budget.materialized_bytes, 4096);
  CHECK_EQ_U64(r.budget.arena_bytes, 2048);
  CHECK_EQ_U64(r.budget.peak_live_bytes, 2048);
  // addf reads x once and writes v0: 2048; mulf reads v0 and x, writes v1: 3072; matmul
  // reads v1 and w (4096), writes v2: 6144; exp reads v2, writes v3: 2048. 13312.
  CHECK_EQ_U64(r.budget.dram_bytes, 13312);
  met_arena_deinitialize(&f.arena);
}

static void test_width_overhead(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  chain(g, 512, 1024);  // f16 tensors: 512 B native, 1024 B stored as f32
  met_budget_report_t r;
  CHECK(met_budget_analyze(g, target("mobile-gpu-f32"), NULL, &f.arena, &r) == MET_OK);
  // Same 3 slots as above at 1024 B: arena 2048; at native widths 2 x 512 = 1024.
  CHECK_EQ_U64(r.budget.arena_bytes, 2048);
  CHECK_EQ_U64(r.budget.width_overhead_bytes, 1024);
  CHECK(r.budget.width_policy == MET_WIDTH_F32_UNIFORM);
  // host I/O stays at declared types: x 512 + result 512.
  CHECK_EQ_U64(r.budget.host_io_bytes, 1024);
  met_budget_report_t h;
  CHECK(met_budget_analyze(g, target("h100"), NULL, &f.arena, &h) == MET_OK);
  // Native: slots 512 B, aligned to 256: 512; the two overlap at the {matmul, exp}
  // dispatch (see test_chain_epilogue): 1024.
  CHECK_EQ_U64(h.budget.arena_bytes, 1024);
  CHECK_EQ_U64(h.budget.width_overhead_bytes, 0);
  met_arena_deinitialize(&f.arena);
}

static void test_views_casts_fast_path(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t x = arg(g, 256, 256, MET_ROLE_INPUT);
  uint32_t w = arg(g, 256, 256, MET_ROLE_PARAM);
  uint32_t unused = arg(g, 999, 999, MET_ROLE_PARAM);
  (void)unused;
  uint32_t c = node(g, "tosa.const", MET_NODE_LEAF, MET_CLASS_OTHER, 0, NULL, 0, 64, 64, -1);
  g->values[c].role = MET_ROLE_CONST;
  uint32_t v0 = node(g, "arith.addf", EW, 0, OPS(x, c), 256, 256, -1);        // pos 1
  uint32_t v1 = node(g, "tosa.reshape", MET_NODE_VIEW, MET_CLASS_OTHER, 0, OPS(v0), 256, 256, (int)v0);
  uint32_t v2 = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, 0, OPS(v1, w), 256, 256, -1);
  uint32_t v3 = node(g, "tosa.cast", EW, MET_NODE_F_CAST, OPS(v2), 128, 256, -1);  // pos 4
  uint32_t v4 = node(g, "arith.addf", EW, 0, OPS(v3, v0), 128, 256, -1);        // pos 5
  uint32_t v5 = node(g, "foo.bar", MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_NODE_F_UNREGISTERED,
                     OPS(v4), 128, 256, -1);                                          // pos 6
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(v5), 0, 0, -1);    // pos 7
  met_budget_report_t r;
  CHECK(met_budget_analyze(g, target("h100"), NULL, &f.arena, &r) == MET_OK);
  // Groups: {addf} (generator, but v0 has 2 uses: matmul via the reshape and the last
  // addf, so nothing absorbs it), {matmul, cast, addf} (epilogue), {foo.bar} (off path).
  CHECK_EQ_U64(r.budget.dispatches, 3);
  CHECK_EQ_U64(r.budget.cast_nodes, 1);
  CHECK_EQ_U64(r.budget.off_fast_path_ops, 1);
  CHECK_EQ_U64(r.budget.off_fast_path_bytes, 128);
  CHECK_EQ_U64(r.budget.param_bytes, 256 + 64);  // w and the constant; the unused 999 not
  // Slots (aligned to 256): v0 [1,5] (its use through the view at 3 and at 5), v4 [5,6],
  // v5 [6,7]. v0 and v4 overlap at 5; v5 overlaps only v4: arena 2 x 256, peak 512.
  CHECK_EQ_U64(r.slot_count, 3);
  CHECK_EQ_U64(r.slots[0].value, v0);
  CHECK_EQ_U64(r.slots[0].first, 1);
  CHECK_EQ_U64(r.slots[0].last, 5);
  CHECK_EQ_U64(r.budget.materialized_bytes, 768);
  CHECK_EQ_U64(r.budget.arena_bytes, 512);
  CHECK_EQ_U64(r.budget.peak_live_bytes, 512);
  // DRAM: {addf} reads x 256 + const 64, writes v0 256 = 576; {matmul..} reads the view
  // v1 256, w 256, v0 256 and writes v4 128 = 896; {foo.bar} reads v4 128, writes v5 128.
  // 576 + 896 + 256 = 1728.
  CHECK_EQ_U64(r.budget.dram_bytes, 1728);
  met_arena_deinitialize(&f.arena);
}

static void test_incomplete_and_errors(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t x = arg(g, 8, 8, MET_ROLE_INPUT);
  g->values[x].flags = MET_VALUE_F_DYNAMIC;  // unbound dynamic dims: a lower bound
  uint32_t h1 = node(g, "arith.addf", EW, 0, OPS(x), 1ull << 63, 1ull << 63, -1);
  uint32_t h2 = node(g, "arith.mulf", EW, 0, OPS(x), 1ull << 63, 1ull << 63, -1);
  uint32_t s = node(g, "arith.addf", EW, 0, OPS(h1, h2), 8, 8, -1);
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(h1, h2, s), 0, 0, -1);
  met_budget_report_t r;
  // Two returned 2^63-byte slots: their sum overflows 64 bits.
  CHECK(met_budget_analyze(g, target("host-cpu"), NULL, &f.arena, &r) == MET_EOVERFLOW);
  g->values[h1].bytes = g->values[h1].f32_bytes = 8;
  g->values[h2].bytes = g->values[h2].f32_bytes = 8;
  CHECK(met_budget_analyze(g, target("host-cpu"), NULL, &f.arena, &r) == MET_OK);
  CHECK(!r.complete);
  // A malformed graph: an operand that refers to a value that does not exist.
  g->operands[0] = 12345;
  CHECK(met_budget_analyze(g, target("host-cpu"), NULL, &f.arena, &r) == MET_EINVAL);
  met_arena_deinitialize(&f.arena);
}

static void test_failing_allocator(void) {
  int budget, failures = 0;
  for (budget = 0; budget < 200; ++budget) {
    failing_t f = {0, budget};
    met_allocator_t al = {failing_alloc, failing_free, &f, NULL};
    met_arena_t a;
    met_arena_initialize(al, &a);
    a.block_bytes = 128;
    met_graph_t g;
    met_graph_initialize(&a, &g);
    // Build with the system allocator's help: skip when building itself runs out.
    met_status_t st = MET_OK;
    uint32_t id;
    met_value_t v = {64, 64, -1, 0, -1, MET_ROLE_INPUT, 1, 0};
    st = met_graph_add_argument(&g, &v, &id);
    uint32_t n;
    if (!st) st = met_graph_begin_node(&g, "arith.addf", 10, EW, -1, 0, &n);
    if (!st) st = met_graph_add_operand(&g, id);
    met_value_t res = {64, 64, 0, -1, -1, MET_ROLE_ACTIVATION, 1, 0};
    if (!st) st = met_graph_add_result(&g, &res, &id);
    if (!st) st = met_graph_begin_node(&g, "func.return", 11, MET_NODE_RETURN, MET_CLASS_OTHER, -1, 0, &n);
    if (!st) st = met_graph_add_operand(&g, id);
    met_budget_report_t r;
    if (!st) st = met_budget_analyze(&g, target("host-cpu"), NULL, &a, &r);
    met_arena_deinitialize(&a);
    if (st == MET_OK) { CHECK_EQ_U64(r.budget.dispatches, 1); break; }
    CHECK(st == MET_ENOMEM);
    ++failures;
  }
  CHECK(failures > 0 && budget < 200);
}

// The rows of the table and the remark: every field with a rank, ranks distinct, in
// rank order (met_budget_rows places each row by its rank).
static void test_rows(void) {
  size_t n, ranked = 0;
  const met_budget_field_t *f = met_budget_fields(&n);
  CHECK_EQ_U64(n, MET_BUDGET_FIELD_COUNT);
  for (size_t i = 0; i < n; ++i) {
    ranked += f[i].rank > 0;
    for (size_t k = 0; k < i; ++k) CHECK(f[i].rank == 0 || f[i].rank != f[k].rank);
  }
  const met_budget_field_t *rows[MET_BUDGET_FIELD_COUNT];
  CHECK_EQ_U64(met_budget_rows(rows), ranked);
  for (size_t r = 0; r < ranked; ++r) CHECK_EQ_U64(rows[r]->rank, r + 1);
  CHECK(strcmp(rows[0]->name, "arena_bytes") == 0);
}

// Printable names and locations (met_graph_set_value_name, met_graph_set_node_loc): kept
// beside the graph, NULL where none was recorded, refused for ids that do not exist.
static void test_names(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t x = arg(g, 100, 100, MET_ROLE_INPUT);
  CHECK(met_graph_value_name(g, x) == NULL && met_graph_node_loc(g, 0) == NULL);
  uint32_t y = node(g, "arith.addf", EW, 0, OPS(x, x), 100, 100, -1);
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(y), 0, 0, -1);
  CHECK(met_graph_set_value_name(g, y, "%y") == MET_OK);
  CHECK(met_graph_set_node_loc(g, 1, "f.mlir:3:3") == MET_OK);
  CHECK(met_graph_set_value_name(g, 2, "%z") == MET_EINVAL);  // values 0 and 1 only
  CHECK(met_graph_set_node_loc(g, 2, "f.mlir:9:9") == MET_EINVAL);
  CHECK(met_graph_value_name(g, x) == NULL);
  CHECK(met_graph_value_name(g, y) && !strcmp(met_graph_value_name(g, y), "%y"));
  CHECK(met_graph_node_loc(g, 0) == NULL);
  CHECK(met_graph_node_loc(g, 1) && !strcmp(met_graph_node_loc(g, 1), "f.mlir:3:3"));
  // Values added after the array was made have no name until given one.
  uint32_t z = node(g, "arith.mulf", EW, 0, OPS(y, y), 100, 100, -1);
  CHECK(met_graph_value_name(g, z) == NULL);
  CHECK(met_graph_set_value_name(g, z, "%z") == MET_OK);
  CHECK(met_graph_value_name(g, z) && !strcmp(met_graph_value_name(g, z), "%z"));
  met_arena_deinitialize(&f.arena);
}

// Axes (metrale/graph.h): where a dim goes through a node, and the attention rule of
// budget.h that follows the softmax's dim, on graphs built by hand (no MLIR).
static met_node_axes_t matmul_axes(bool a_transposed) {
  // Loops (m, n, k): A (m, k), B (k, n), C (m, n); k reduces. A read transposed: (k, m).
  met_node_axes_t a = {3, 3, {2, 2, 2}, {{0, 2}, {2, 1}, {0, 1}}, 1u << 2, MET_AXIS_NONE};
  if (a_transposed) { a.loop[0][0] = 2; a.loop[0][1] = 0; }
  return a;
}

static void test_axis_through(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t a = arg(g, 64, 64, MET_ROLE_INPUT), b = arg(g, 64, 64, MET_ROLE_INPUT);
  uint32_t c = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, 0, OPS(a, b), 64, 64, -1);
  uint32_t d = node(g, "arith.exp", EW, MET_NODE_F_SAME_INDEX, OPS(c), 64, 64, -1);
  uint32_t e = node(g, "arith.exp", EW, 0, OPS(d), 64, 64, -1);
  g->values[a].rank = g->values[b].rank = g->values[c].rank = g->values[d].rank = 2;
  g->values[e].rank = 2;
  met_node_axes_t mm = matmul_axes(false);
  CHECK(met_graph_set_node_axes(g, 0, &mm) == MET_OK);
  // The result's dim 0 is loop m, A's dim 0; dim 1 is n, B's dim 1; A's dim 1 (k) is no
  // result dim.
  CHECK(met_graph_axis_through(g, 0, MET_AXES_RESULT, 0, 0) == 0);
  CHECK(met_graph_axis_through(g, 0, MET_AXES_RESULT, 1, 1) == 1);
  CHECK(met_graph_axis_through(g, 0, MET_AXES_RESULT, 0, 1) == MET_AXIS_NONE);
  CHECK(met_graph_axis_through(g, 0, 0, 1, MET_AXES_RESULT) == MET_AXIS_NONE);
  CHECK(met_graph_axis_through(g, 0, 0, 1, 1) == 0);  // k: A's dim 1 is B's dim 0
  CHECK(met_graph_axis_loop(g, 0, 1, 0) == 2);
  // A same-index node passes a dim through; one without the flag or axes says nothing.
  CHECK(met_graph_axis_through(g, 1, MET_AXES_RESULT, 1, 0) == 1);
  CHECK(met_graph_axis_through(g, 2, MET_AXES_RESULT, 1, 0) == MET_AXIS_NONE);
  // ... nor through an operand of another rank (a broadcast).
  g->values[c].rank = 1;
  CHECK(met_graph_axis_through(g, 1, MET_AXES_RESULT, 0, 0) == MET_AXIS_NONE);
  // Two dims on one loop (a diagonal read): no one dim.
  met_node_axes_t diag = {2, 2, {2, 2}, {{0, 0}, {0, 1}}, 0, MET_AXIS_NONE};
  CHECK(met_graph_set_node_axes(g, 2, &diag) == MET_OK);
  CHECK(met_graph_axis_through(g, 2, MET_AXES_RESULT, 0, 0) == MET_AXIS_NONE);
  CHECK(met_graph_axis_through(g, 2, 0, 1, MET_AXES_RESULT) == 0);
  // Axes that name a loop the node does not have, or too many maps, are refused.
  met_node_axes_t bad = {2, 2, {1, 1}, {{2}, {0}}, 0, MET_AXIS_NONE};
  CHECK(met_graph_set_node_axes(g, 2, &bad) == MET_EINVAL);
  bad.maps = MET_AXES_MAPS + 1;
  CHECK(met_graph_set_node_axes(g, 2, &bad) == MET_EINVAL);
  CHECK(met_graph_set_node_axes(g, 9, &mm) == MET_EINVAL);
  met_arena_deinitialize(&f.arena);
}

// Q.K^T -> softmax -> P.V on h100, with 64x32 f32 Q, K^T, V (8192 B) and 64x64 scores
// (16384 B): one dispatch when the softmax reduces the dim P.V contracts and that dim is
// a key's (n of Q.K^T: B's alone), else three.
static uint64_t attention_dispatches(int softmax_dim, bool p_transposed, uint64_t *dram) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t q = arg(g, 8192, 8192, MET_ROLE_INPUT), kt = arg(g, 8192, 8192, MET_ROLE_INPUT);
  uint32_t v = arg(g, 8192, 8192, MET_ROLE_INPUT);
  uint32_t s = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, 0, OPS(q, kt), 16384, 16384, -1);
  uint32_t p = node(g, "linalg.softmax", MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_NODE_F_SOFTMAX,
                    OPS(s), 16384, 16384, -1);
  uint32_t o = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, 0, OPS(p, v), 8192, 8192, -1);
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(o), 0, 0, -1);
  for (uint32_t k = 0; k < g->value_count; ++k) g->values[k].rank = 2;
  met_node_axes_t m1 = matmul_axes(false), m2 = matmul_axes(p_transposed);
  met_node_axes_t sm = {2, 2, {2, 2}, {{0, 1}, {0, 1}}, 0, (int8_t)softmax_dim};
  CHECK(met_graph_set_node_axes(g, 0, &m1) == MET_OK);
  CHECK(met_graph_set_node_axes(g, 1, &sm) == MET_OK);
  CHECK(met_graph_set_node_axes(g, 2, &m2) == MET_OK);
  met_budget_report_t r;
  CHECK(met_budget_analyze(g, target("h100"), NULL, &f.arena, &r) == MET_OK);
  *dram = r.budget.dram_bytes;
  uint64_t n = r.budget.dispatches;
  met_arena_deinitialize(&f.arena);
  return n;
}

static void test_attention_rule(void) {
  uint64_t dram;
  // Attention: Q, K^T, V in (24576), the context out (8192).
  CHECK_EQ_U64(attention_dispatches(1, false, &dram), 1);
  CHECK_EQ_U64(dram, 32768);
  // The softmax over the queries (dim 0, loop m: A's): P.V contracts k, P's dim 1. Three
  // dispatches: 16384 in and out of Q.K^T, 16384 in and out of the softmax, 16384 + 8192
  // in and 8192 out of P.V: 98304.
  CHECK_EQ_U64(attention_dispatches(0, false, &dram), 3);
  CHECK_EQ_U64(dram, 98304);
  // P^T.V: P.V contracts P's dim 0, the softmax reduced dim 1.
  CHECK_EQ_U64(attention_dispatches(1, true, &dram), 3);
  // Both: attention with the queries' and keys' roles swapped.
  CHECK_EQ_U64(attention_dispatches(0, true, &dram), 1);
}

// A region's graph: x (an input of 1024 B) -> addf -> exp -> yield. On host-cpu (IREE)
// addf and exp are one dispatch; exp's result is yielded, so it is the region's one slot:
// arena 1024. met_region_count reads that; met_region_summarize multiplies a loop's runs.
static void region_graph(met_graph_t *g) {
  uint32_t x = arg(g, 1024, 1024, MET_ROLE_INPUT);
  uint32_t v0 = node(g, "arith.addf", EW, 0, OPS(x, x), 1024, 1024, -1);
  uint32_t v1 = node(g, "math.exp", EW, 0, OPS(v0), 1024, 1024, -1);
  node(g, "scf.yield", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(v1), 0, 0, -1);
}

static void test_region_summaries(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  region_graph(g);
  met_region_tally_t t;
  memset(&t, 0, sizeof t);
  CHECK(met_region_count(g, target("host-cpu"), &f.arena, 1, 0, &t) == MET_OK);
  CHECK(t.region[0].present && !t.region[1].present);
  CHECK_EQ_U64(t.region[0].dispatches, 1);  // addf + exp, one dispatch
  CHECK_EQ_U64(t.region[0].arena, 1024);     // the yielded exp result
  CHECK_EQ_U64(t.bytes, 1024);
  CHECK(!t.incomplete);
  // The one dispatch reads x (1024) and writes exp's result (1024): 2048 bytes per run.
  uint64_t dram = t.region[0].dram_bytes;
  CHECK_EQ_U64(dram, 2048);
  // An scf.for of 3 runs: its dispatches and traffic times 3, its scratch the body's arena.
  met_region_plan_t loop = {true, 3, false, -1};
  met_node_extra_t x;
  met_region_outcome_t o;
  memset(&x, 0, sizeof x);
  met_region_summarize(&loop, &t, &x, &o);
  CHECK(x.replaces_dispatch && !o.host && !o.unknown_trips && !o.upper_bound && !o.lower_bound);
  CHECK_EQ_U64(x.dispatches, 3);
  CHECK_EQ_U64(x.dram_bytes, 3 * dram);
  CHECK_EQ_U64(x.scratch_bytes, 1024);
  // Trips not known: one run counted, and the outcome says so.
  loop.trips = -1;
  memset(&x, 0, sizeof x);
  met_region_summarize(&loop, &t, &x, &o);
  CHECK(o.unknown_trips && o.dispatches == 1);
  CHECK_EQ_U64(x.dispatches, 1);
  CHECK(!x.callee_flops_known);
  // A branch on a run-time value with this region as "then" and a larger "else" (the same
  // body counted twice, as if two dispatches): the larger one, an upper bound.
  t.region[1] = t.region[0];
  t.region[1].dispatches = 2;
  met_region_plan_t branch = {false, -1, true, -1};
  memset(&x, 0, sizeof x);
  met_region_summarize(&branch, &t, &x, &o);
  CHECK(o.upper_bound && !o.host);
  CHECK_EQ_U64(x.dispatches, 2);
  // The branch known to take "then": that region alone.
  branch.branch = 0;
  memset(&x, 0, sizeof x);
  met_region_summarize(&branch, &t, &x, &o);
  CHECK(!o.upper_bound);
  CHECK_EQ_U64(x.dispatches, 1);
  // Regions that run nothing of their own (no dispatch, no buffer): a branch is the
  // host's control flow, no dispatch of its own.
  met_region_tally_t empty;
  memset(&empty, 0, sizeof empty);
  empty.region[0].present = empty.region[1].present = true;
  branch.branch = -1;
  memset(&x, 0, sizeof x);
  met_region_summarize(&branch, &empty, &x, &o);
  CHECK(o.host && !x.replaces_dispatch);
  met_arena_deinitialize(&f.arena);
}

// The dispatch stats (metrale/dispatch.h) of the chain on host-cpu: an arena target,
// kernels, not offloading, the CPU calling convention (control bytes 0: a memref
// descriptor of (3 + 2 x rank) x 8 bytes per buffer argument).
static void test_dispatch_stats(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  chain(g, 1024, 1024);
  const met_target_t *t = target("host-cpu");
  met_budget_options_t bopt = {MET_PLAN_BEST, true, {0, 0, NULL, NULL, NULL}};
  met_budget_report_t r;
  CHECK(met_budget_analyze(g, t, &bopt, &f.arena, &r) == MET_OK);
  met_dispatch_report_t d;
  CHECK(met_dispatch_analyze(g, &r, t, &f.arena, &d) == MET_OK);
  const met_dispatch_stats_t *s = &d.stats;
  // x (an input of rank 1): 1024 B of data + a 40 B descriptor ((3 + 2) x 8); w (a
  // parameter, resident): its descriptor alone: 1024 + 40 + 40 = 1104.
  CHECK_EQ_U64(s->input_bytes, 1104);
  CHECK_EQ_U64(s->output_bytes, 1024);  // v3, returned
  CHECK_EQ_U64(s->output_buffers, 1);
  CHECK_EQ_U64(s->readback_bytes, 1024);  // not offloading: the results alone
  CHECK_EQ_U64(s->bytes_moved, 1104 + 1024);
  CHECK_EQ_U64(s->kernel_launches, 2);    // {addf, mulf}, {matmul, exp}: the Budget's
  CHECK_EQ_U64(s->sync_points, 1);        // collect the results; nothing off the fast path
  // Arena model: one allocation of arena_bytes (2048, test_chain_epilogue) and a fresh
  // buffer for the result (results not in place): 2 events, 2048 + 1024 bytes, all held
  // at once.
  CHECK_EQ_U64(s->device_allocation_events, 2);
  CHECK_EQ_U64(s->device_allocation_bytes, 3072);
  CHECK_EQ_U64(s->device_allocation_peak_bytes, 3072);
  CHECK_EQ_U64(s->resident_resource_rows, 1);     // w
  CHECK_EQ_U64(s->resident_resource_handles, 1);  // read by the matmul's kernel alone
  CHECK(!d.flops_complete);  // the graph has no FLOP counts: latency is a lower bound
  // Each of the 2 kernels costs at least host-cpu's launch floor (2,000 ns), and no FLOPs
  // are known: latency = 2 x 2,000 + the bytes over 200 GB/s. dram_bytes (8192,
  // test_chain_epilogue) at 200 B/ns is 40.96 ns, so the sum lies in [4,040, 4,042]
  // whatever each dispatch's share rounds to.
  CHECK(s->latency_ns >= 4040 && s->latency_ns <= 4042);
  // A megakernel runs the graph as one kernel.
  CHECK(met_dispatch_analyze(g, &r, target("h100-megakernel"), &f.arena, &d) == MET_OK);
  CHECK_EQ_U64(d.stats.kernel_launches, 1);
  met_arena_deinitialize(&f.arena);
}

// The dispatch stats of an offloading target and of a per-buffer one (metrale/dispatch.h)
// on a plain graph with an op off the fast path: x (1024 B, input), w (4096 B, a
// parameter) -> v0 = addf(x, x) -> v1 = custom.op(v0) (no target's fast path has it)
// -> v2 = mulf(v1, x) -> v3 = matmul(v2, w) -> return v3; every result 1024 B.
static void test_dispatch_offload_per_buffer(void) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t x = arg(g, 1024, 1024, MET_ROLE_INPUT);
  uint32_t w = arg(g, 4096, 4096, MET_ROLE_PARAM);
  uint32_t v0 = node(g, "arith.addf", EW, 0, OPS(x, x), 1024, 1024, -1);
  uint32_t v1 = node(g, "custom.op", EW, 0, OPS(v0), 1024, 1024, -1);
  uint32_t v2 = node(g, "arith.mulf", EW, 0, OPS(v1, x), 1024, 1024, -1);
  uint32_t v3 = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, 0, OPS(v2, w), 1024, 1024, -1);
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(v3), 0, 0, -1);
  met_budget_options_t bopt = {MET_PLAN_BEST, true, {0, 0, NULL, NULL, NULL}};
  met_budget_report_t r;
  met_dispatch_report_t d;
  // h100 offloads: the custom op runs on the host.
  CHECK(met_budget_analyze(g, target("h100"), &bopt, &f.arena, &r) == MET_OK);
  CHECK_EQ_U64(r.budget.off_fast_path_ops, 1);
  // Four dispatches: addf, the custom op alone, mulf (IREE fuses no elementwise
  // producer into a matmul), matmul.
  CHECK_EQ_U64(r.budget.dispatches, 4);
  CHECK(met_dispatch_analyze(g, &r, target("h100"), &f.arena, &d) == MET_OK);
  // input: 8 control bytes per argument (x, w) + x's data + the custom op's result going
  // down again: 16 + 1024 + 1024. readback: the result v3 + the custom op's operand v0
  // read back: 1024 + 1024. One host round trip beside collecting the results.
  CHECK_EQ_U64(d.stats.input_bytes, 2064);
  CHECK_EQ_U64(d.stats.output_bytes, 1024);
  CHECK_EQ_U64(d.stats.readback_bytes, 2048);
  CHECK_EQ_U64(d.stats.bytes_moved, 4112);
  CHECK_EQ_U64(d.stats.sync_points, 2);
  CHECK_EQ_U64(d.stats.kernel_launches, 4);
  // Arena model: the arena (2 x 1024: the planner reuses v0's slot for v2) and a fresh
  // result buffer.
  CHECK_EQ_U64(r.budget.arena_bytes, 2048);
  CHECK_EQ_U64(d.stats.device_allocation_events, 2);
  CHECK_EQ_U64(d.stats.device_allocation_bytes, 3072);
  // Latency: 4 launch floors of 3,000 ns; DRAM 13,312 B (addf 1024 + 1024, custom 1024 +
  // 1024, mulf 2048 + 1024, matmul 5120 + 1024) at 3,350 B/ns = 3.97 ns; no FLOPs known;
  // bytes_moved 4,112 B over the 64 GB/s host link = 64.25 ns: 12,068.2 ns, each term
  // rounded up.
  CHECK(d.stats.latency_ns >= 12068 && d.stats.latency_ns <= 12072);
  // mlir-cpu: per-buffer allocations, no offload. Each of the 4 materialized values (the
  // result too) its own allocation of 1024 + 64 bytes of padding; no deallocation in a
  // plain graph, so all are held at the end: 4 x 1088 = 4352 at once.
  CHECK(met_budget_analyze(g, target("mlir-cpu"), &bopt, &f.arena, &r) == MET_OK);
  CHECK(met_dispatch_analyze(g, &r, target("mlir-cpu"), &f.arena, &d) == MET_OK);
  CHECK_EQ_U64(d.stats.device_allocation_events, 4);
  CHECK_EQ_U64(d.stats.device_allocation_bytes, 4352);
  CHECK_EQ_U64(d.stats.device_allocation_peak_bytes, 4352);
  // Not offloading: the CPU ABI's descriptors ((3 + 2 x 1) x 8 = 40 B for the rank-1 x
  // and w) + x's data; the results alone read back; one sync.
  CHECK_EQ_U64(d.stats.input_bytes, 1104);
  CHECK_EQ_U64(d.stats.readback_bytes, 1024);
  CHECK_EQ_U64(d.stats.sync_points, 1);
  met_arena_deinitialize(&f.arena);
}

// IREE's loop-count rule (metrale/budget.h; fusion.c iree_loops_fit) on a plain graph:
// x (1024 B) and w (a parameter) -> matmul (3 loops) -> an elementwise consumer of
// |consumer_loops| loops -> return. On host-cpu (IREE, epilogue fusion) the consumer
// joins the matmul's dispatch when it has no more loops than the matmul: 1 dispatch;
// with 4 (a broadcast into a larger space, which IREE does not fuse into a root): 2.
static uint64_t loops_rule_dispatches(uint8_t consumer_loops) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t x = arg(g, 1024, 1024, MET_ROLE_INPUT);
  uint32_t w = arg(g, 1024, 1024, MET_ROLE_PARAM);
  uint32_t m = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, 0, OPS(x, w), 1024, 1024, -1);
  g->nodes[g->node_count - 1].loops = 3;
  uint32_t e = node(g, "arith.addf", EW, 0, OPS(m, m), 1024, 1024, -1);
  g->nodes[g->node_count - 1].loops = consumer_loops;
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(e), 0, 0, -1);
  met_budget_report_t r;
  uint64_t d = UINT64_MAX;
  if (met_budget_analyze(g, target("host-cpu"), NULL, &f.arena, &r) == MET_OK) d = r.budget.dispatches;
  met_arena_deinitialize(&f.arena);
  return d;
}

// IREE's FuseMultiUseElementwiseProducer on a diamond (SiLU: x * sigmoid(x)): a is read
// by sigmoid and by the multiply, which meet again. The first elementwise reader takes the
// producer in, the multiply joins them: one dispatch on host-cpu, and no slot for a or s
// (each read only inside the dispatch): the arena holds the returned product alone.
static void test_fusion_rules(void) {
  CHECK_EQ_U64(loops_rule_dispatches(3), 1);
  CHECK_EQ_U64(loops_rule_dispatches(4), 2);
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t x = arg(g, 1024, 1024, MET_ROLE_INPUT);
  uint32_t a = node(g, "arith.addf", EW, 0, OPS(x, x), 1024, 1024, -1);
  uint32_t sg = node(g, "math.sigmoid", EW, 0, OPS(a), 1024, 1024, -1);
  uint32_t p = node(g, "arith.mulf", EW, 0, OPS(a, sg), 1024, 1024, -1);
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(p), 0, 0, -1);
  met_budget_report_t r;
  CHECK(met_budget_analyze(g, target("host-cpu"), NULL, &f.arena, &r) == MET_OK);
  CHECK_EQ_U64(r.budget.dispatches, 1);
  CHECK_EQ_U64(r.budget.arena_bytes, 1024);
  met_arena_deinitialize(&f.arena);
  // TF.js (mobile-gpu-f32): a fused matmul takes its bias add when the matmul's result
  // has no other reader (Grappler's remapper fuses a single consumer): 1 program; when the
  // result is also returned, the add is a program of its own: 2.
  for (int also_returned = 0; also_returned < 2; ++also_returned) {
    g = setup(&f);
    uint32_t xi = arg(g, 1024, 1024, MET_ROLE_INPUT);
    uint32_t wi = arg(g, 1024, 1024, MET_ROLE_PARAM);
    uint32_t bi = arg(g, 1024, 1024, MET_ROLE_PARAM);
    uint32_t mm = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, 0, OPS(xi, wi), 1024, 1024, -1);
    uint32_t ad = node(g, "arith.addf", EW, 0, OPS(mm, bi), 1024, 1024, -1);
    if (also_returned) node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(ad, mm), 0, 0, -1);
    else node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(ad), 0, 0, -1);
    CHECK(met_budget_analyze(g, target("mobile-gpu-f32"), NULL, &f.arena, &r) == MET_OK);
    CHECK_EQ_U64(r.budget.dispatches, also_returned ? 2 : 1);
    met_arena_deinitialize(&f.arena);
  }
}

// IREE's DetachElementwiseFromNamedOps on a plain graph (budget.h): a matmul accumulating
// into a broadcast bias (512 B -> 32768 B) is one dispatch on host-cpu, reading x (65536),
// w (131072) and the bias (512), writing 32768: dram 229888, and the broadcast has no
// slot (arena: the returned result, 32768). The same broadcast also returned: the add is
// not its one reader, so 2 dispatches, the broadcast written (32768) and read back:
// dram 229888 + 2 x 32768 = 295424. Through a view (a reshape between): not detached.
// On mobile-gpu-f32 (TF.js, no such pass) the broadcast is a program of its own: 2.
static uint64_t detach_case(const char *t, int variant, uint64_t *dram) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  uint32_t x = arg(g, 65536, 65536, MET_ROLE_INPUT);
  uint32_t w = arg(g, 131072, 131072, MET_ROLE_INPUT);
  uint32_t b = arg(g, 512, 512, MET_ROLE_INPUT);
  uint32_t bb = node(g, "linalg.broadcast", EW, 0, OPS(b), 32768, 32768, -1);
  uint32_t init = bb;
  if (variant == 2)
    init = node(g, "tensor.expand_shape", MET_NODE_VIEW, MET_CLASS_OTHER, 0, OPS(bb), 32768, 32768,
                (int)bb);
  uint32_t r = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_NODE_F_DPS_INIT,
                    OPS(x, w, init), 32768, 32768, -1);
  if (variant == 1) node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(r, bb), 0, 0, -1);
  else node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(r), 0, 0, -1);
  met_budget_report_t rep;
  uint64_t d = UINT64_MAX;
  if (met_budget_analyze(g, target(t), NULL, &f.arena, &rep) == MET_OK) {
    d = rep.budget.dispatches;
    *dram = rep.budget.dram_bytes;
    if (variant == 0 && !strcmp(t, "host-cpu")) CHECK_EQ_U64(rep.budget.arena_bytes, 32768);
  }
  met_arena_deinitialize(&f.arena);
  return d;
}

static void test_detach_init(void) {
  uint64_t dram = 0;
  CHECK_EQ_U64(detach_case("host-cpu", 0, &dram), 1);
  CHECK_EQ_U64(dram, 229888);
  CHECK_EQ_U64(detach_case("host-cpu", 1, &dram), 2);
  CHECK_EQ_U64(dram, 295424);
  CHECK_EQ_U64(detach_case("host-cpu", 2, &dram), 2);
  CHECK_EQ_U64(dram, 295424);
  CHECK_EQ_U64(detach_case("mobile-gpu-f32", 0, &dram), 2);
}

// Upstream MLIR's CPU pipeline (MET_FUSION_MLIR, lib/fusion_mlir.c; mlir-cpu) on plain
// graphs, every tensor 1,024 B: x is an input, g marks a linalg.generic.
//  fill: a linalg.fill read only as an input of a generic is folded into its body
//   (FoldFillWithGenericOp): 1 kernel, the add; also returned, it stays a kernel: 2.
//  chain: an all-parallel generic read once by another generic is fused into it
//   (linalg-fuse-elementwise-ops): 1 kernel; read twice (also returned): 2.
//  init: a matmul writing into a fill it alone reads bufferizes in place: 2 kernels (the
//   fill, the matmul) and one buffer for both (arena 1,024); into a constant init, the
//   constant is copied first: 2 kernels (memref.copy, the matmul), the copy's buffer the
//   one slot again.
static uint64_t mlir_case(int which, int variant, uint64_t *arena) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  const uint16_t gen = MET_NODE_F_GENERIC;
  uint32_t x = arg(g, 1024, 1024, MET_ROLE_INPUT), out;
  uint32_t w = which == 2 ? arg(g, 1024, 1024, MET_ROLE_PARAM) : UINT32_MAX;  // arguments first
  uint32_t e = node(g, "tensor.empty", MET_NODE_LEAF, MET_CLASS_OTHER, 0, NULL, 0, 1024, 1024, -1);
  g->values[e].role = MET_ROLE_EMPTY;
  uint32_t ret[2];
  size_t nret = 1;
  if (which == 0) {
    uint32_t fl = node(g, "linalg.fill", MET_NODE_COMPUTE, MET_CLASS_FILL, MET_NODE_F_DPS_INIT,
                       OPS(e), 1024, 1024, -1);
    out = node(g, "linalg.generic", EW, gen | MET_NODE_F_DPS_INIT, OPS(x, fl, e), 1024, 1024, -1);
    ret[1] = fl;
  } else if (which == 1) {
    uint32_t a = node(g, "linalg.generic", EW, gen | MET_NODE_F_DPS_INIT, OPS(x, e), 1024, 1024, -1);
    out = node(g, "linalg.generic", EW, gen | MET_NODE_F_DPS_INIT, OPS(a, x, e), 1024, 1024, -1);
    ret[1] = a;
  } else {
    uint32_t init;
    if (variant == 0) {
      init = node(g, "linalg.fill", MET_NODE_COMPUTE, MET_CLASS_FILL, MET_NODE_F_DPS_INIT,
                  OPS(e), 1024, 1024, -1);
    } else {
      init = node(g, "arith.constant", MET_NODE_LEAF, MET_CLASS_OTHER, 0, NULL, 0, 1024, 1024, -1);
      g->values[init].role = MET_ROLE_CONST;
    }
    out = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_NODE_F_DPS_INIT,
               OPS(x, w, init), 1024, 1024, -1);
    variant = 0;  // the init is read by the matmul alone
  }
  ret[0] = out;
  if (variant) nret = 2;
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, ret, nret, 0, 0, -1);
  met_budget_report_t r;
  uint64_t d = UINT64_MAX;
  if (met_budget_analyze(g, target("mlir-cpu"), NULL, &f.arena, &r) == MET_OK) {
    d = r.budget.dispatches;
    *arena = r.budget.arena_bytes;
  }
  met_arena_deinitialize(&f.arena);
  return d;
}

static void test_fusion_mlir_rules(void) {
  uint64_t arena = 0;
  CHECK_EQ_U64(mlir_case(0, 0, &arena), 1);  // the fill folded into the add
  CHECK_EQ_U64(mlir_case(0, 1, &arena), 2);  // the fill returned too: a kernel of its own
  CHECK_EQ_U64(mlir_case(1, 0, &arena), 1);  // the producer fused into its one reader
  CHECK_EQ_U64(mlir_case(1, 1, &arena), 2);  // read twice: two kernels
  CHECK_EQ_U64(mlir_case(2, 0, &arena), 2);  // the fill and the matmul
  CHECK_EQ_U64(arena, 1024);                 // in place: one buffer for both
  CHECK_EQ_U64(mlir_case(2, 1, &arena), 2);  // the constant's copy and the matmul
  CHECK_EQ_U64(arena, 1024);                 // the copy's buffer, written in place
}

// IREE's modes on plain graphs (budget.h), every tensor 1,024 B, on host-cpu with the mode
// set. Horizontal: two matmuls of x, each on a zero fill of a tensor.empty, one dispatch
// with the mode (x read once: 1024 + 2 x 1024 weights + 2 x 1024 written = 5120), two
// without (6144); with the second reading the first's result, two either way. Pad: a
// tensor.pad read only by a conv joins it (1 dispatch) with fuse_pad, else 2.
static uint64_t modes_case(int which, bool mode, uint64_t *dram) {
  fixture_t f;
  met_graph_t *g = setup(&f);
  met_target_t t = *target("host-cpu");
  t.iree.horizontal_fusion = which < 2 && mode;
  t.iree.fuse_pad = which == 2 && mode;
  uint32_t x = arg(g, 1024, 1024, MET_ROLE_INPUT);
  uint32_t w1 = arg(g, 1024, 1024, MET_ROLE_INPUT), w2 = arg(g, 1024, 1024, MET_ROLE_INPUT);
  uint32_t e = node(g, "tensor.empty", MET_NODE_LEAF, MET_CLASS_OTHER, 0, NULL, 0, 1024, 1024, -1);
  g->values[e].role = MET_ROLE_EMPTY;
  uint32_t r1, r2;
  if (which < 2) {
    uint32_t z = node(g, "linalg.fill", MET_NODE_COMPUTE, MET_CLASS_FILL,
                      MET_NODE_F_DPS_INIT | MET_NODE_F_ZERO_FILL, OPS(e), 1024, 1024, -1);
    const uint16_t dps = MET_NODE_F_DPS_INIT;
    r1 = node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, dps, OPS(x, w1, z), 1024, 1024, -1);
    r2 = which == 0
             ? node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, dps, OPS(x, w2, z), 1024, 1024, -1)
             : node(g, "linalg.matmul", MET_NODE_COMPUTE, MET_CLASS_MATMUL, dps, OPS(x, r1, z), 1024, 1024, -1);
  } else {
    uint32_t p = node(g, "tensor.pad", MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, 0, OPS(x), 1024, 1024, -1);
    r1 = node(g, "linalg.conv_2d_nhwc_hwcf", MET_NODE_COMPUTE, MET_CLASS_CONV, 0, OPS(p, w1), 1024, 1024, -1);
    r2 = w2;
  }
  node(g, "func.return", MET_NODE_RETURN, MET_CLASS_OTHER, 0, OPS(r1, r2), 0, 0, -1);
  met_budget_report_t r;
  uint64_t d = UINT64_MAX;
  if (met_budget_analyze(g, &t, NULL, &f.arena, &r) == MET_OK) {
    d = r.budget.dispatches;
    *dram = r.budget.dram_bytes;
  }
  met_arena_deinitialize(&f.arena);
  return d;
}

static void test_iree_modes(void) {
  uint64_t dram = 0;
  CHECK_EQ_U64(modes_case(0, true, &dram), 1);
  CHECK_EQ_U64(dram, 5120);  // x once, two weights, two results
  CHECK_EQ_U64(modes_case(0, false, &dram), 2);
  CHECK_EQ_U64(dram, 6144);  // x twice
  CHECK_EQ_U64(modes_case(1, true, &dram), 2);  // the second reads the first: not horizontal
  // The pad joins the conv: x and w1 read, the result written (3072); without, the pad
  // writes 1024 that the conv reads back (5120).
  CHECK_EQ_U64(modes_case(2, true, &dram), 1);
  CHECK_EQ_U64(dram, 3072);
  CHECK_EQ_U64(modes_case(2, false, &dram), 2);
  CHECK_EQ_U64(dram, 5120);
}

int main(void) {
  test_detach_init();
  test_names();
  test_axis_through();
  test_attention_rule();
  test_rows();
  test_chain_epilogue();
  test_chain_no_epilogue();
  test_width_overhead();
  test_views_casts_fast_path();
  test_incomplete_and_errors();
  test_failing_allocator();
  test_region_summaries();
  test_dispatch_stats();
  test_dispatch_offload_per_buffer();
  test_fusion_rules();
  test_fusion_mlir_rules();
  test_iree_modes();
  return check_finish("test_budget");
}
