// test_adapter: the adapter's own behaviour (passes/adapter/adapter.h), by concern: what
// met_adapter_build records of a func.func (values and their bytes, nodes, operands, the
// facts a target asks for, FLOPs, a gather's read bound, diagnostics of what it cannot
// size) and how it prints locations. Each graph is parsed from MLIR text with the C API;
// every number is worked by hand beside its check. The rules that decide what a target
// does with these facts are lib/'s, tested without MLIR (test_budget.c, test_core.c).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/adapter.h"
#include "check.h"
#include "metrale/target.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

static MlirContext g_ctx;

static MlirLogicalResult quiet(MlirDiagnostic d, void *user) {
  (void)d;
  (void)user;
  return mlirLogicalResultSuccess();
}

// One built graph and what it holds on to.
typedef struct built_t {
  MlirModule module;
  met_adapter_cache_t cache;
  met_arena_t arena;
  met_graph_t g;
  met_diag_list_t diags;
  bool failed;
  met_status_t st;
} built_t;

static MlirOperation first_func(MlirModule m) {
  MlirBlock b = mlirModuleGetBody(m);
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirIdentifier id = mlirOperationGetName(op);
    MlirStringRef s = mlirIdentifierStr(id);
    if (s.length == 9 && !memcmp(s.data, "func.func", 9)) return op;
  }
  return (MlirOperation){NULL};
}

// Parses |text| and builds the graph of its first function for target |tname|.
static void build(built_t *b, const char *text, const char *tname, bool flops) {
  memset(b, 0, sizeof *b);
  b->module = mlirModuleCreateParse(g_ctx, mlirStringRefCreateFromCString(text));
  CHECK(!mlirModuleIsNull(b->module));
  if (mlirModuleIsNull(b->module)) exit(1);
  const met_target_t *t = NULL;
  CHECK(met_target_find(tname, strlen(tname), &t) == MET_OK);
  met_adapter_options_t o;
  memset(&o, 0, sizeof o);
  o.target = t;
  o.count_flops = flops;
  o.record_names = true;
  met_adapter_cache_initialize(&b->cache);
  met_arena_initialize(met_allocator_system(), &b->arena);
  b->st = met_adapter_build(first_func(b->module), &o, &b->cache, &b->arena, &b->g, &b->diags,
                            &b->failed);
}

static void release(built_t *b) {
  met_arena_deinitialize(&b->arena);
  met_adapter_cache_deinitialize(&b->cache);
  mlirModuleDestroy(b->module);
}

// The index of the first node named |name|, or -1.
static int node_named(const met_graph_t *g, const char *name) {
  for (size_t i = 0; i < g->node_count; ++i)
    if (!strcmp(g->nodes[i].name, name)) return (int)i;
  return -1;
}

// A matmul on a zero-filled init: the arguments are values 0 and 1, the ops nodes in
// program order, each result a value with its producer, and the matmul reads its operands.
static void test_values_and_nodes(void) {
  built_t b;
  build(&b,
        "func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf16>) -> tensor<4x16xf32> {\n"
        "  %e = tensor.empty() : tensor<4x16xf32>\n"
        "  %c0 = arith.constant 0.0 : f32\n"
        "  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>\n"
        "  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf16>)\n"
        "                     outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>\n"
        "  return %m : tensor<4x16xf32>\n"
        "}\n",
        "host-cpu", true);
  const met_graph_t *g = &b.g;
  CHECK(b.st == MET_OK && !b.failed && !g->incomplete);
  CHECK(g->arg_count == 2);
  CHECK(g->values[0].bytes == 128);      // 4 x 8 x 4 B
  CHECK(g->values[1].bytes == 256);      // 8 x 16 x 2 B (f16 stored natively)
  CHECK(g->values[1].f32_bytes == 512);  // the same as f32: 8 x 16 x 4 B
  CHECK(g->values[0].producer == -1 && g->values[0].arg_index == 0);
  CHECK(g->values[1].arg_index == 1);
  CHECK(g->values[0].rank == 2 && (g->values[0].flags & MET_VALUE_F_FLOAT));
  int mm = node_named(g, "linalg.matmul"), fill = node_named(g, "linalg.fill");
  CHECK(mm >= 0 && fill >= 0 && fill < mm);
  const met_node_t *n = &g->nodes[mm];
  CHECK(n->result_count == 1);
  CHECK(g->values[n->result_begin].bytes == 256);  // 4 x 16 x 4 B
  CHECK(g->values[n->result_begin].producer == mm);
  // ins(%a, %b) outs(%z): the arguments first, then the fill's result.
  CHECK(n->operand_count == 3);
  CHECK(g->operands[n->operand_begin] == 0 && g->operands[n->operand_begin + 1] == 1);
  CHECK(g->values[g->operands[n->operand_begin + 2]].producer == fill);
  CHECK(n->flags & MET_NODE_F_DPS_INIT);
  // Loops: 4 (rows), 16 (columns), 8 (the contraction): none is unit.
  CHECK(n->loops == 3);
  // FLOPs (passes/adapter/flops.c): the iteration domain times the arith ops of the body.
  // The f16 operand is extended in the body (arith.extf), then multiplied and added: 3
  // ops per (i, j, k), 3 x 4 x 16 x 8 = 1,536 (an all-f32 matmul is 2 x 512 = 1,024).
  CHECK(g->flops && g->flops[mm] == 1536);
  // The fill writes 64 elements: 64 FLOPs is not what a fill costs; it counts none.
  CHECK(g->flops[fill] == 0);
  // Names and locations were asked for: %a prints as %arg0, each node has a location.
  CHECK(!strcmp(met_graph_value_name(g, 0), "%arg0"));
  release(&b);
}

// An embedding lookup spelled as a generic: the table (1000 x 64 f32) is captured and read
// through tensor.extract in the body, one element per iteration; the generic iterates
// 8 tokens x 64 = 512 times, so it reads at most 512 x 4 B = 2,048 B of the 256,000 B
// table (graph.h, operand_bound).
static void test_gather_bound(void) {
  built_t b;
  build(&b,
        "#id = affine_map<(d0, d1) -> (d0)>\n"
        "#out = affine_map<(d0, d1) -> (d0, d1)>\n"
        "func.func @f(%table: tensor<1000x64xf32>, %ids: tensor<8xindex>) -> tensor<8x64xf32> {\n"
        "  %e = tensor.empty() : tensor<8x64xf32>\n"
        "  %r = linalg.generic {indexing_maps = [#id, #out],\n"
        "                       iterator_types = [\"parallel\", \"parallel\"]}\n"
        "      ins(%ids : tensor<8xindex>) outs(%e : tensor<8x64xf32>) {\n"
        "  ^bb0(%i: index, %o: f32):\n"
        "    %j = linalg.index 1 : index\n"
        "    %v = tensor.extract %table[%i, %j] : tensor<1000x64xf32>\n"
        "    linalg.yield %v : f32\n"
        "  } -> tensor<8x64xf32>\n"
        "  return %r : tensor<8x64xf32>\n"
        "}\n",
        "host-cpu", false);
  const met_graph_t *g = &b.g;
  CHECK(b.st == MET_OK && !b.failed);
  CHECK(g->values[0].bytes == 256000);  // 1000 x 64 x 4 B
  int gen = node_named(g, "linalg.generic");
  CHECK(gen >= 0);
  const met_node_t *n = &g->nodes[gen];
  // The captured table is an operand of the node, with its bound.
  bool seen = false;
  for (uint32_t k = 0; k < n->operand_count; ++k) {
    size_t at = n->operand_begin + k;
    if (g->operands[at] != 0) continue;
    seen = true;
    CHECK(g->operand_bound && at < g->operand_bound_cap && g->operand_bound[at] == 2048);
  }
  CHECK(seen);
  release(&b);
}

// What cannot be sized is said at the op, and the graph keeps what it knows: a dynamic dim
// with no size bound counts as 1 (a lower bound, MET_VALUE_F_DYNAMIC), and the node is
// flagged dynamic.
static void test_dynamic(void) {
  built_t b;
  build(&b,
        "func.func @f(%a: tensor<?x16xf32>) -> tensor<?x16xf32> {\n"
        "  %r = math.exp %a : tensor<?x16xf32>\n"
        "  return %r : tensor<?x16xf32>\n"
        "}\n",
        "host-cpu", false);
  const met_graph_t *g = &b.g;
  CHECK(b.st == MET_OK);
  CHECK(g->values[0].bytes == 64);  // 1 x 16 x 4 B, a lower bound
  CHECK(g->values[0].flags & MET_VALUE_F_DYNAMIC);
  int e = node_named(g, "math.exp");
  CHECK(e >= 0 && (g->nodes[e].flags & MET_NODE_F_DYNAMIC));
  release(&b);
}

// The facts a target asks for (met_target_graph_facts) and nothing else: the same IR, a
// transpose of a splat weight added to an input, built for three targets.
static void test_facts_by_target(void) {
  static const char *ir =
      "func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
      "  %w = arith.constant dense<1.0> : tensor<4x8xf32>\n"
      "  %e = tensor.empty() : tensor<8x4xf32>\n"
      "  %t = linalg.transpose ins(%w : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>)\n"
      "       permutation = [1, 0]\n"
      "  %s = arith.addf %x, %t : tensor<8x4xf32>\n"
      "  return %s : tensor<8x4xf32>\n"
      "}\n";
  static const struct { const char *target; bool folds, loops; } cases[] = {
      {"h100", true, true},             // IREE: splats folded, loops counted
      {"mobile-gpu-f32", true, false},  // TF.js: its converter folds; no loop rule
      {"mlir-cpu", false, false},       // upstream's pipeline: the program as it is
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    built_t b;
    build(&b, ir, cases[i].target, false);
    const met_graph_t *g = &b.g;
    CHECK(b.st == MET_OK && !b.failed);
    int tr = node_named(g, "linalg.transpose"), add = node_named(g, "arith.addf");
    CHECK(tr >= 0 && add >= 0);
    if (tr < 0 || add < 0) { release(&b); continue; }
    // Folded: the transpose is a leaf whose result is a splat (no dispatch, no slot).
    const met_value_t *t = &g->values[g->nodes[tr].result_begin];
    CHECK((g->nodes[tr].kind == MET_NODE_LEAF) == cases[i].folds);
    CHECK((t->role == MET_ROLE_SPLAT) == cases[i].folds);
    CHECK(t->bytes == 128);  // 8 x 4 x 4 B either way
    // The add iterates over its 8 x 4 result: 2 loops, recorded where IREE's rule reads it.
    CHECK(g->nodes[add].loops == (cases[i].loops ? 2 : 0));
    release(&b);
  }
}

// Locations print as "file:line:col" through names, call sites and fusions; a location
// with no file has none.
static void test_locations(void) {
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  MlirStringRef model = mlirStringRefCreateFromCString("model.mlir");
  MlirLocation plain = mlirLocationFileLineColGet(g_ctx, model, 3, 7);
  MlirLocation other = mlirLocationFileLineColGet(g_ctx, mlirStringRefCreateFromCString("b.mlir"), 9, 4);
  MlirLocation named = mlirLocationNameGet(g_ctx, mlirStringRefCreateFromCString("x"), plain);
  MlirLocation call = mlirLocationCallSiteGet(named, other);  // the callee's place first
  MlirLocation parts[2] = {mlirLocationUnknownGet(g_ctx), other};
  MlirLocation fused = mlirLocationFusedGet(g_ctx, 2, parts, (MlirAttribute){NULL});
  struct { MlirLocation loc; const char *want; } cases[] = {
      {plain, "model.mlir:3:7"}, {named, "model.mlir:3:7"}, {call, "model.mlir:3:7"},
      {fused, "b.mlir:9:4"},  // the first part with a file
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    const char *s = met_adapter_loc_string(&arena, cases[i].loc);
    CHECK(s && !strcmp(s, cases[i].want));
    if (!s || strcmp(s, cases[i].want)) fprintf(stderr, "  case %zu: %s\n", i, s ? s : "NULL");
  }
  MlirStringRef file;
  int line = 0, col = 0;
  CHECK(met_adapter_loc_parts(call, &file, &line, &col) && line == 3 && col == 7 &&
        file.length == 10 && !memcmp(file.data, "model.mlir", 10));
  CHECK(met_adapter_loc_string(&arena, mlirLocationUnknownGet(g_ctx)) == NULL);
  met_arena_deinitialize(&arena);
}

int main(void) {
  g_ctx = mlirContextCreate();
  MlirDialectRegistry reg = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(reg);
  mlirContextAppendDialectRegistry(g_ctx, reg);
  mlirDialectRegistryDestroy(reg);
  mlirContextLoadAllAvailableDialects(g_ctx);
  mlirContextAttachDiagnosticHandler(g_ctx, quiet, NULL, NULL);
  test_values_and_nodes();
  test_gather_bound();
  test_dynamic();
  test_facts_by_target();
  test_locations();
  mlirContextDestroy(g_ctx);
  return check_finish("test_adapter");
}
