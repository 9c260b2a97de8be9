// fuzz_budget.c: libFuzzer harness of the fusion/budget core (metrale/budget.h) and of the
// memory model's pure functions (metrale/memory_graph.h, metrale/memory.h).
//
// Most inputs decode to a target (a built-in one with fuzzed alignment, width policy,
// fusion and workspace rules) and a WELL-FORMED graph built through the met_graph_* API:
// arguments, then nodes of every kind and class whose operands are earlier values, views
// aliasing earlier values, allocations and deallocations, nodes sharing a position (ops
// nested in a region), node scratch, and a return node. The Budget of the graph must then
// hold these invariants (each an oracle written from the definitions in budget.h, sharing
// no code with lib/budget_analysis.c):
//   - status OK, or EOVERFLOW only when some size is near 2^64 (never spuriously);
//   - slots: the materialized values exactly (compute results used outside their group or
//     returned, root allocations), in value order, lifetimes from producer to last use
//     (returned: to the end; with IREE's horizontal fusion at least that), sizes aligned, offsets inside the arena, and no two slots
//     with overlapping lifetimes overlapping in memory (O(N^2));
//   - arena_bytes >= peak_live_bytes == the live-sum oracle, reuse_saved = materialized -
//     arena, materialized = sum of slots, arena <= materialized;
//   - group_of_node < dispatches for compute nodes (dense, numbered in order of first
//     appearance), UINT32_MAX for the rest; the dispatch graph is acyclic; an off-fast-path
//     node is alone in its dispatch; a group holds at most one node that is neither
//     elementwise nor a fill; without epilogue fusion no elementwise node follows a matmul,
//     conv or reduction in its group;
//   - host_io_bytes, param_bytes, cast_nodes, off_fast_path_ops/bytes, use_count and
//     complete equal their definitions; dram_bytes covers every materialized result;
//   - the same graph under a failing allocator: MET_ENOMEM or the same report.
// Then met_memory_function: hoisting only on targets that hoist, kept slots, the run's
// arena against the kept slots' lower bound, the peak position, the allocation peak and
// the workspace families against oracles. A quarter of the inputs instead drive the
// memory model's arithmetic (KV blocks and bytes, evaluate, the inverse queries) against
// 128-bit oracles.
#include <stdbool.h>
#include <string.h>

#include "fuzz_common.h"
#include "metrale/budget.h"
#include "metrale/graph.h"
#include "metrale/memory.h"
#include "metrale/memory_graph.h"
#include "metrale/target.h"

typedef unsigned __int128 u128;

enum { MAX_NODES = 160, MAX_OPERANDS = 5 };

// Op names by class: real ones (so fast-path patterns match some and not others, and the
// memory model's softmax/attention rule fires) and made-up ones.
static const char *const kNames[MET_CLASS_UNKNOWN + 1][3] = {
    [MET_CLASS_OTHER] = {"func.call", "scf.execute_region", "foo.other"},
    [MET_CLASS_ELEMENTWISE] = {"arith.addf", "tosa.add", "linalg.softmax"},
    [MET_CLASS_FILL] = {"linalg.fill", "tosa.const_shape", "linalg.broadcast"},
    [MET_CLASS_MATMUL] = {"linalg.matmul", "tosa.matmul", "linalg.batch_matmul"},
    [MET_CLASS_CONV] = {"linalg.conv_2d_nhwc_hwcf", "tosa.conv2d", "tosa.max_pool2d"},
    [MET_CLASS_REDUCTION] = {"tosa.reduce_sum", "linalg.reduce", "my.attention"},
    [MET_CLASS_DATA_MOVEMENT] = {"tosa.transpose", "tensor.concat", "tensor.pad"},
    [MET_CLASS_LOOP] = {"scf.for", "affine.for", "scf.while"},
    [MET_CLASS_UNKNOWN] = {"mystery.op", "linalg.softmax", "x.attention_fused"},
};

// ----------------------------------------------------------------------------------------
// Decoding a graph.

// An earlier value: mostly a recent one (real graphs read what was just made).
static uint32_t pick_value(fuzz_reader_t *r, const met_graph_t *g) {
  uint32_t n = (uint32_t)g->value_count;
  uint8_t sel = fuzz_u8(r);
  if (sel & 0x80) return fuzz_below(r, n);
  uint32_t back = sel % (n < 8 ? n : 8);
  return n - 1 - back;
}

static met_value_t decode_value(fuzz_reader_t *r, uint16_t role, bool big_ok,
                                bool *huge) {
  met_value_t v;
  memset(&v, 0, sizeof(v));
  v.producer = -1;
  v.arg_index = -1;
  v.alias = -1;
  v.role = role;
  uint8_t f = fuzz_u8(r);
  v.bytes = fuzz_size(r);
  if (!big_ok && v.bytes > ((uint64_t)1 << 40)) v.bytes &= 0xffffff;
  v.flags = 0;
  if (f & 1) v.flags |= MET_VALUE_F_FLOAT;
  if ((f & 0x0e) == 0x02) v.flags |= MET_VALUE_F_DYNAMIC;
  if ((f & 0x0e) == 0x04) v.flags |= MET_VALUE_F_DYNAMIC | MET_VALUE_F_BOUND;
  if ((f & 0x0e) == 0x06) { v.flags |= MET_VALUE_F_UNRANKED; v.bytes = 0; }
  if (f & 0x10) v.flags |= MET_VALUE_F_MEMREF;
  // Float storage widened to f32: x1 (f32, f64), x2 (f16, bf16), x4 (f8).
  unsigned widen = (v.flags & MET_VALUE_F_FLOAT) ? (f >> 5) % 3 : 0;
  if (!__builtin_mul_overflow(v.bytes, (uint64_t)1 << widen, &v.f32_bytes)) {
    // fine
  } else {
    v.f32_bytes = v.bytes;
  }
  if (v.bytes > ((uint64_t)1 << 48) || v.f32_bytes > ((uint64_t)1 << 48)) *huge = true;
  return v;
}

typedef struct decoded_t {
  met_target_t target;
  met_plan_strategy_t strategy;
  bool huge;          // some size is near 2^64: an overflow is an acceptable answer
} decoded_t;

// Decodes the target from the reader.
static void decode_target(fuzz_reader_t *r, decoded_t *d) {
  size_t count = met_target_builtin_count();
  d->target = *met_target_builtin(fuzz_below(r, (uint32_t)count));
  uint8_t t = fuzz_u8(r);
  if (t & 1) {
    static const uint64_t aligns[] = {0, 1, 2, 4, 16, 64, 256, 4096, 3, 48};
    d->target.alignment = aligns[fuzz_below(r, 10)];
  }
  if (t & 2) d->target.width_policy = (met_width_policy_t)fuzz_below(r, 3);
  if (t & 4) d->target.epilogue_fusion = !d->target.epilogue_fusion;
  if (t & 8) d->target.hoists_parameters = !d->target.hoists_parameters;
  if (t & 128) d->target.attention_fusion = !d->target.attention_fusion;
  if (t & 16) {
    d->target.compute_units = fuzz_u16(r);
    d->target.workspace.conv_stages_operand = fuzz_u8(r) & 1;
    d->target.workspace.matmul_per_unit_bytes = fuzz_size(r);
    d->target.workspace.softmax_per_unit_bytes = fuzz_size(r);
    d->target.workspace.reduction_per_unit_bytes = fuzz_size(r);
    uint8_t m = fuzz_u8(r);  // IREE's modes (read by the IREE targets only)
    d->target.iree.aggressive_fusion = m & 1;
    d->target.iree.fuse_pad = (m & 2) != 0;
    d->target.iree.horizontal_fusion = (m & 4) != 0;
  }
  d->strategy = (met_plan_strategy_t)(t >> 5 & 3);
}

// Builds the graph from the reader. The decoding consumes the same bytes whatever the
// allocator answers, so a second build from the same bytes is the same graph.
// |f32_uniform|: the target stores narrow floats as f32 (only then may scratch widen).
// |dps|: destination-passing nodes may be made (not on MET_FUSION_MLIR, whose in-place
// bufferization of inits the lit and differential tests check against real runs).
static met_status_t build_graph(fuzz_reader_t *r, met_graph_t *g, bool f32_uniform, bool dps,
                                bool *huge) {
#define TRY(x) do { met_status_t st_ = (x); if (st_) return st_; } while (0)
  uint32_t nargs = fuzz_below(r, 7);
  for (uint32_t i = 0; i < nargs; ++i) {
    static const uint16_t roles[] = {MET_ROLE_INPUT, MET_ROLE_PARAM, MET_ROLE_STATE,
                                     MET_ROLE_INPUT};
    met_value_t v = decode_value(r, roles[fuzz_below(r, 4)], true, huge);
    v.arg_index = (int32_t)i;
    uint32_t id;
    TRY(met_graph_add_argument(g, &v, &id));
  }
  uint32_t nodes = 0;
  while (!fuzz_done(r) && nodes < MAX_NODES) {
    uint8_t sel = fuzz_u8(r);
    uint8_t fl = fuzz_u8(r);
    met_node_kind_t kind;
    switch (sel % 10) {
      case 0: kind = MET_NODE_LEAF; break;
      case 1: kind = MET_NODE_VIEW; break;
      case 2: kind = MET_NODE_ALLOC; break;
      case 3: kind = MET_NODE_HOST; break;
      default: kind = MET_NODE_COMPUTE; break;
    }
    if (kind == MET_NODE_VIEW && g->value_count == 0) kind = MET_NODE_LEAF;
    met_op_class_t cls = kind == MET_NODE_COMPUTE ? (met_op_class_t)(fl % 9)
                         : kind == MET_NODE_VIEW  ? MET_CLASS_DATA_MOVEMENT
                                                  : MET_CLASS_OTHER;
    const char *name = kNames[cls][(fl >> 4) % 3];
    if (kind == MET_NODE_LEAF) name = (fl & 0x10) ? "arith.constant" : "tensor.empty";
    if (kind == MET_NODE_ALLOC) name = "memref.alloc";
    if (kind == MET_NODE_HOST) name = (fl & 0x10) ? "memref.dealloc" : "tensor.dim";
    if (kind == MET_NODE_VIEW) name = "tensor.collapse_shape";
    // An op nested in the previous op's region counts at that op's position.
    int32_t pos = (sel & 0xf0) == 0xf0 && g->position_count ? (int32_t)g->position_count - 1 : -1;
    uint32_t n;
    TRY(met_graph_begin_node(g, name, strlen(name), kind, cls, pos, nodes, &n));
    ++nodes;
    uint16_t nflags = 0;
    if (kind == MET_NODE_COMPUTE) {
      uint8_t x = fuzz_u8(r);
      if ((x & 3) == 1) nflags |= MET_NODE_F_CAST;
      if ((x & 0x60) == 0x60) nflags |= MET_NODE_F_SOFTMAX;
      if ((x & 0x1c) == 0x04) nflags |= MET_NODE_F_UNREGISTERED;
      if ((x & 0x1c) == 0x08) nflags |= MET_NODE_F_UNRANKED;
      if ((x & 0x1c) == 0x0c) nflags |= MET_NODE_F_DYNAMIC;
      if ((x & 0x1c) == 0x10) nflags |= MET_NODE_F_NO_SIZE;
      // A destination-passing node (its last operand the init), a zero fill: what
      // IREE's horizontal fusion and detached inits look for.
      if ((x & 0x80) && dps) nflags |= MET_NODE_F_DPS_INIT | MET_NODE_F_ZERO_FILL;
      uint8_t e = fuzz_u8(r);
      if (e & 3) {
        // graph.h: a region's own peak or a callee's arena (scratch), and a resolved
        // call whose callee's counts replace its dispatch.
        met_node_extra_t x;
        memset(&x, 0, sizeof(x));
        if (e & 1) {
          x.scratch_native_bytes = fuzz_size(r);
          x.scratch_bytes = x.scratch_native_bytes;
          if ((e & 4) && f32_uniform && x.scratch_native_bytes < ((uint64_t)1 << 62))
            x.scratch_bytes = 2 * x.scratch_native_bytes;  // widened under f32-uniform
          if (x.scratch_bytes > ((uint64_t)1 << 48)) *huge = true;
        }
        if (e & 2) {
          x.replaces_dispatch = true;
          x.dispatches = fuzz_u8(r) % 5;
          x.cast_nodes = fuzz_u8(r) % 3;
          x.off_fast_path_ops = fuzz_u8(r) % 3;
          x.off_fast_path_bytes = fuzz_u16(r);
          x.dram_bytes = fuzz_size(r);
          x.param_bytes = fuzz_u16(r);
          if (x.dram_bytes > ((uint64_t)1 << 48)) *huge = true;
        }
        TRY(met_graph_set_extra(g, &x));
      }
    }
    if (kind == MET_NODE_HOST && (fl & 0x10)) nflags |= MET_NODE_F_DEALLOC;
    g->nodes[n].flags = nflags;
    // Operands: earlier values only.
    uint32_t nops = 0;
    if (kind == MET_NODE_VIEW) nops = 1 + fuzz_below(r, 2);
    else if (kind == MET_NODE_COMPUTE || kind == MET_NODE_HOST) nops = fuzz_below(r, MAX_OPERANDS);
    if (!g->value_count) nops = 0;
    uint32_t first_op = UINT32_MAX;
    for (uint32_t i = 0; i < nops; ++i) {
      uint32_t v = pick_value(r, g);
      if (i == 0) first_op = v;
      TRY(met_graph_add_operand(g, v));
    }
    // Results.
    uint32_t nres = 0;
    uint16_t role = MET_ROLE_OTHER;
    switch (kind) {
      case MET_NODE_LEAF: {
        static const uint16_t leaf_roles[] = {MET_ROLE_CONST, MET_ROLE_GLOBAL, MET_ROLE_EMPTY,
                                              MET_ROLE_SPLAT};
        role = leaf_roles[fuzz_below(r, 4)];
        nres = 1;
        break;
      }
      case MET_NODE_VIEW: nres = 1; break;
      case MET_NODE_ALLOC: role = MET_ROLE_ALLOC; nres = 1; break;
      case MET_NODE_COMPUTE: role = MET_ROLE_ACTIVATION; nres = fuzz_below(r, 3); break;
      case MET_NODE_HOST: nres = (nflags & MET_NODE_F_DEALLOC) ? 0 : fuzz_below(r, 2); break;
      default: break;
    }
    for (uint32_t i = 0; i < nres; ++i) {
      met_value_t v = decode_value(r, role, true, huge);
      if (kind == MET_NODE_VIEW) {
        // A view keeps its source's kind and covers at most all of it (a slice less).
        const met_value_t *src = &g->values[first_op];
        v.alias = (int32_t)first_op;
        v.flags = src->flags;
        if (v.bytes > src->bytes || v.f32_bytes > src->f32_bytes) {
          v.bytes = src->bytes;
          v.f32_bytes = src->f32_bytes;
        }
      }
      if (kind == MET_NODE_ALLOC) v.flags |= MET_VALUE_F_MEMREF;
      uint32_t id;
      TRY(met_graph_add_result(g, &v, &id));
    }
  }
  // The terminator: a few earlier values.
  uint32_t n;
  TRY(met_graph_begin_node(g, "func.return", 11, MET_NODE_RETURN, MET_CLASS_OTHER, -1, nodes, &n));
  uint32_t nret = g->value_count ? fuzz_below(r, 4) : 0;
  for (uint32_t i = 0; i < nret; ++i) TRY(met_graph_add_operand(g, pick_value(r, g)));
  return MET_OK;
#undef TRY
}

// ----------------------------------------------------------------------------------------
// The Budget's invariants.

static uint32_t root_of(const met_graph_t *g, uint32_t v) {
  while (g->values[v].alias >= 0) v = (uint32_t)g->values[v].alias;
  return v;
}

static uint64_t align_up(uint64_t v, uint64_t a, bool *overflow) {
  if (a <= 1 || v % a == 0) return v;
  u128 up = (u128)v + (a - v % a);
  if (up > UINT64_MAX) { *overflow = true; return 0; }
  return (uint64_t)up;
}

static bool is_call(const met_graph_t *g, size_t n) {
  const met_node_extra_t *x = met_graph_extra(g, &g->nodes[n]);
  return x && x->replaces_dispatch;
}

static uint64_t policy_bytes(const met_value_t *v, met_width_policy_t p) {
  return p == MET_WIDTH_F32_UNIFORM ? v->f32_bytes : v->bytes;
}

// Every invariant of one OK report. Scratch arrays are static (single-threaded harness).
static void check_report(const met_graph_t *g, const met_target_t *t,
                         const met_budget_report_t *rep) {
  static uint32_t root[MAX_NODES * 4 + 64], uses[MAX_NODES * 4 + 64];
  static int32_t last_use[MAX_NODES * 4 + 64];
  static uint8_t returned[MAX_NODES * 4 + 64], mat[MAX_NODES * 4 + 64];
  const met_budget_t *b = &rep->budget;
  size_t nv = g->value_count, nn = g->node_count;
  FUZZ_CHECK(nv <= sizeof(root) / sizeof(root[0]));
  for (size_t v = 0; v < nv; ++v) {
    root[v] = root_of(g, (uint32_t)v);
    uses[v] = 0;
    last_use[v] = -1;
    returned[v] = mat[v] = 0;
  }
  // Uses (views resolved; a view's own operand and a deallocation are not uses).
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW || (node->flags & MET_NODE_F_DEALLOC)) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = root[g->operands[node->operand_begin + i]];
      uses[r]++;
      if (node->position > last_use[r]) last_use[r] = node->position;
      if (node->kind == MET_NODE_RETURN) returned[r] = 1;
    }
  }
  for (size_t v = 0; v < nv; ++v)
    if (root[v] == v) FUZZ_CHECK_EQ(rep->use_count[v], uses[v]);

  // Load time (budget.h): on a target that hoists, the parameter-only nodes, recomputed
  // here from the definition: every operand a weight, splat, tensor.empty or hoisted
  // result, one a weight or hoisted result, results no larger than the operands.
  static uint8_t hoisted[MAX_NODES + 1], param_value[MAX_NODES * 4 + 64];
  for (size_t v = 0; v < nv; ++v) {
    uint16_t role = g->values[v].role;
    param_value[v] = met_role_is_weight(role) || role == MET_ROLE_EMPTY || role == MET_ROLE_SPLAT;
  }
  uint64_t load_time = 0;
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    hoisted[n] = 0;
    if (!t->hoists_parameters || node->kind != MET_NODE_COMPUTE || node->result_count == 0 ||
        is_call(g, n))
      continue;
    bool all = node->operand_count > 0, any = false;
    u128 in = 0, out = 0;
    for (uint32_t i = 0; i < node->operand_count && all; ++i) {
      uint32_t o = g->operands[node->operand_begin + i], r = root[o];
      all = param_value[r];
      if (g->values[r].role == MET_ROLE_EMPTY || g->values[r].role == MET_ROLE_SPLAT) continue;
      any = true;
      in += g->values[o].bytes;
    }
    if (!all || !any) continue;
    for (uint32_t r = 0; r < node->result_count; ++r) out += g->values[node->result_begin + r].bytes;
    if (in > UINT64_MAX) in = UINT64_MAX;  // the core saturates the sums it compares
    if (out > UINT64_MAX) out = UINT64_MAX;
    if (out > in) continue;
    hoisted[n] = 1;
    ++load_time;
    for (uint32_t r = 0; r < node->result_count; ++r) param_value[node->result_begin + r] = 1;
  }
  for (size_t n = 0; n < nn; ++n) FUZZ_CHECK((rep->hoisted ? rep->hoisted[n] : 0) == hoisted[n]);
  FUZZ_CHECK_EQ(b->load_time_dispatches, load_time);

  // Cloned fills (budget.h): on a TF.js or IREE target, a fill on the fast path with one
  // result, run (not at load time), not returned and read, every read by a compute node
  // on the fast path that runs: no group, never in memory.
  static uint8_t cloned[MAX_NODES + 1], off_path[MAX_NODES + 1];
  static uint32_t fill_reads[MAX_NODES * 4 + 64];
  for (size_t v = 0; v < nv; ++v) fill_reads[v] = 0;
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    off_path[n] = node->kind == MET_NODE_COMPUTE &&
                  (is_call(g, n) || node->op_class == MET_CLASS_UNKNOWN ||
                   (node->flags & (MET_NODE_F_UNREGISTERED | MET_NODE_F_UNRANKED)) ||
                   !met_target_is_fast(t, node->name));
    if (node->kind != MET_NODE_COMPUTE || off_path[n] || hoisted[n]) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i)
      fill_reads[root[g->operands[node->operand_begin + i]]]++;
  }
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    uint32_t r = node->result_begin;
    cloned[n] = (t->fusion == MET_FUSION_IREE || t->fusion == MET_FUSION_TFJS) &&
                node->kind == MET_NODE_COMPUTE && node->op_class == MET_CLASS_FILL &&
                !off_path[n] && !hoisted[n] && node->result_count == 1 && uses[r] > 0 &&
                fill_reads[r] == uses[r] && !returned[r];
  }

  // Groups: dense, in order of first appearance, only compute nodes. A resolved call is a
  // group of its own whose dispatches are its callee's.
  // On TF.js a group with a softmax runs its Softmax kernel's five programs.
  uint32_t next = 0, ncompute = 0;
  u128 callee_dispatches = 0, calls = 0, softmax_extra = 0;
  static uint8_t softmax_group[MAX_NODES + 1];
  for (size_t n = 0; n < nn; ++n) {
    uint32_t grp = rep->group_of_node[n];
    if (g->nodes[n].kind != MET_NODE_COMPUTE || hoisted[n] || cloned[n]) {
      FUZZ_CHECK(grp == UINT32_MAX);
      continue;
    }
    ++ncompute;
    FUZZ_CHECK(grp <= next);
    if (grp == next) softmax_group[next++] = 0;
    if (is_call(g, n)) {
      callee_dispatches += met_graph_extra(g, &g->nodes[n])->dispatches;
      ++calls;
    } else if (t->fusion == MET_FUSION_TFJS && (g->nodes[n].flags & MET_NODE_F_SOFTMAX) &&
               !softmax_group[grp]) {
      softmax_group[grp] = 1;
      softmax_extra += 4;
    }
  }
  // IREE: a group of fills of a tensor.empty that no compute node reads (returned) is a
  // flow.tensor.splat: no kernel (budget.h).
  u128 splats = 0;
  for (uint32_t k = 0; k < next && t->fusion == MET_FUSION_IREE; ++k) {
    bool all = true;
    for (size_t n = 0; n < nn && all; ++n) {
      if (rep->group_of_node[n] != k) continue;
      const met_node_t *node = &g->nodes[n];
      all = !strcmp(node->name, "linalg.fill") && !is_call(g, n) && node->operand_count > 0 &&
            node->result_count == 1 &&
            g->values[root[g->operands[node->operand_begin + node->operand_count - 1]]].role ==
                MET_ROLE_EMPTY;
      for (size_t m = 0; m < nn && all; ++m) {
        const met_node_t *u = &g->nodes[m];
        if (u->kind != MET_NODE_COMPUTE) continue;
        for (uint32_t i = 0; i < u->operand_count; ++i)
          all &= root[g->operands[u->operand_begin + i]] != node->result_begin;
      }
    }
    splats += all;
  }
  u128 dispatches = next - calls + callee_dispatches + softmax_extra - splats;
  FUZZ_CHECK(next <= ncompute);
  FUZZ_CHECK((u128)b->dispatches == dispatches);
  uint32_t ngroups = next;

  // Fast path, casts (a call brings its callee's counts).
  uint64_t off_ops = 0, casts = 0;
  u128 off_bytes = 0;
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE || hoisted[n]) { FUZZ_CHECK(rep->off_fast_path[n] == 0); continue; }
    if (is_call(g, n)) {
      const met_node_extra_t *x = met_graph_extra(g, node);
      FUZZ_CHECK(rep->off_fast_path[n] == 0);
      off_ops += x->off_fast_path_ops;
      casts += x->cast_nodes;
      off_bytes += x->off_fast_path_bytes;
      continue;
    }
    bool off = node->op_class == MET_CLASS_UNKNOWN ||
               (node->flags & (MET_NODE_F_UNREGISTERED | MET_NODE_F_UNRANKED)) ||
               !met_target_is_fast(t, node->name);
    FUZZ_CHECK(rep->off_fast_path[n] == off);
    if (node->flags & MET_NODE_F_CAST) ++casts;
    if (!off) continue;
    ++off_ops;
    for (uint32_t i = 0; i < node->result_count; ++i)
      off_bytes += g->values[node->result_begin + i].bytes;
    if (node->result_count == 0)
      for (uint32_t i = 0; i < node->operand_count; ++i) {
        const met_value_t *v = &g->values[g->operands[node->operand_begin + i]];
        if (v->flags & MET_VALUE_F_MEMREF) off_bytes += v->bytes;
      }
  }
  FUZZ_CHECK_EQ(b->off_fast_path_ops, off_ops);
  FUZZ_CHECK_EQ(b->cast_nodes, casts);
  FUZZ_CHECK((u128)b->off_fast_path_bytes == off_bytes);

  // Each group: an off-fast-path node is alone; at most one node that is neither
  // elementwise nor a fill; without epilogue fusion nothing elementwise after an anchor.
  // IREE's modes (budget.h): a horizontal fusion is up to 3 contractions (with their
  // truncations, whatever the epilogue rule); iree.fuse_pad puts a pad in its conv's group.
  bool horizontal = t->fusion == MET_FUSION_IREE && t->iree.horizontal_fusion;
  bool pads_join = t->fusion == MET_FUSION_IREE && t->iree.fuse_pad;
  for (uint32_t grp = 0; grp < ngroups; ++grp) {
    uint32_t members = 0, starters = 0, offs = 0, pads = 0;
    bool anchor_seen = false;
    // An attention (budget.h) is one group of Q.K^T, a softmax and P.V with elementwise
    // ops between: three starters, elementwise ops after an anchor.
    bool attention = false;
    for (size_t n = 0; n < nn && t->fusion == MET_FUSION_IREE && t->attention_fusion; ++n)
      attention |= rep->group_of_node[n] == grp && (g->nodes[n].flags & MET_NODE_F_SOFTMAX) &&
                   g->nodes[n].kind == MET_NODE_COMPUTE;
    for (size_t n = 0; n < nn; ++n) {
      if (rep->group_of_node[n] != grp) continue;
      const met_node_t *node = &g->nodes[n];
      ++members;
      offs += rep->off_fast_path[n] || is_call(g, n);
      bool gen = node->op_class == MET_CLASS_ELEMENTWISE || node->op_class == MET_CLASS_FILL;
      starters += !gen;
      pads += pads_join && (!strcmp(node->name, "tensor.pad") || !strcmp(node->name, "tosa.pad"));
      if (!t->epilogue_fusion && anchor_seen && !attention && !horizontal)
        FUZZ_CHECK(node->op_class != MET_CLASS_ELEMENTWISE);
      anchor_seen |= node->op_class == MET_CLASS_MATMUL || node->op_class == MET_CLASS_CONV ||
                     node->op_class == MET_CLASS_REDUCTION;
    }
    FUZZ_CHECK(members > 0);
    if (offs) FUZZ_CHECK(members == 1);
    FUZZ_CHECK(starters - pads <= (attention ? 3u : 1u) + (horizontal ? 2u : 0u));
    if (t->fusion == MET_FUSION_TFJS) {
      // A program per op: one node, with fills and broadcasts it broadcasts implicitly;
      // a matmul or conv (not a pooling window) with a bias add and an activation.
      uint32_t ops = 0;
      bool fused_op = false;
      for (size_t n = 0; n < nn; ++n) {
        if (rep->group_of_node[n] != grp) continue;
        const met_node_t *node = &g->nodes[n];
        ops += node->op_class != MET_CLASS_FILL && strcmp(node->name, "linalg.broadcast");
        fused_op |= node->op_class == MET_CLASS_MATMUL ||
                    (node->op_class == MET_CLASS_CONV && !strstr(node->name, "pool"));
      }
      FUZZ_CHECK(ops <= (fused_op ? 3u : 1u));
    }
  }

  // The dispatch graph is acyclic: Kahn's algorithm over group edges.
  {
    static uint8_t edge[MAX_NODES + 1][MAX_NODES + 1];
    static uint32_t indeg[MAX_NODES + 1];
    uint32_t ng = ngroups;
    FUZZ_CHECK(ng <= MAX_NODES + 1);
    for (uint32_t i = 0; i < ng; ++i) { indeg[i] = 0; memset(edge[i], 0, ng); }
    for (size_t n = 0; n < nn; ++n) {
      const met_node_t *node = &g->nodes[n];
      if (node->kind != MET_NODE_COMPUTE) continue;
      for (uint32_t i = 0; i < node->operand_count; ++i) {
        int32_t p = g->values[root[g->operands[node->operand_begin + i]]].producer;
        if (p < 0 || g->nodes[p].kind != MET_NODE_COMPUTE || hoisted[p] || hoisted[n] ||
            cloned[p] || cloned[n])
          continue;
        uint32_t a = rep->group_of_node[p], c = rep->group_of_node[n];
        if (a != c && !edge[a][c]) { edge[a][c] = 1; indeg[c]++; }
      }
    }
    static uint32_t queue[MAX_NODES + 1];
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < ng; ++i) if (!indeg[i]) queue[tail++] = i;
    while (head < tail) {
      uint32_t a = queue[head++];
      for (uint32_t c = 0; c < ng; ++c)
        if (edge[a][c] && --indeg[c] == 0) queue[tail++] = c;
    }
    FUZZ_CHECK_EQ(tail, ng);
  }

  // Materialized values (budget.h): allocations, and compute results used outside their
  // group or returned.
  for (size_t v = 0; v < nv; ++v) mat[v] = g->values[v].role == MET_ROLE_ALLOC && root[v] == v;
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = root[g->operands[node->operand_begin + i]];
      int32_t p = g->values[r].producer;
      if (p < 0 || g->nodes[p].kind != MET_NODE_COMPUTE || hoisted[p] || cloned[p]) continue;
      if (node->kind != MET_NODE_COMPUTE || rep->group_of_node[n] != rep->group_of_node[p])
        mat[r] = 1;
    }
  }
  // MET_FUSION_MLIR: a tensor.empty a compute node reads as an input (not its init) is
  // allocated (budget.h).
  for (size_t n = 0; t->fusion == MET_FUSION_MLIR && n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE) continue;
    bool dps = (node->flags & MET_NODE_F_DPS_INIT) && node->operand_count > 0;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = root[g->operands[node->operand_begin + i]];
      if ((!dps || i + 1 != node->operand_count) && g->values[r].role == MET_ROLE_EMPTY &&
          g->values[r].producer >= 0)
        mat[r] = 1;
    }
  }
  uint64_t align = t->alignment ? t->alignment : 1;
  uint32_t last_pos = g->position_count ? g->position_count - 1 : 0;
  size_t s = 0;
  u128 materialized = 0, dram_floor = 0;
  // budget.h: a dispatch runs at its last member's position; a value lives from its
  // producing dispatch's run to the run of the last dispatch that reads it.
  static int32_t glast[MAX_NODES + 1], uselast[MAX_NODES * 4 + 64];
  for (uint32_t k = 0; k < ngroups; ++k) glast[k] = -1;
  for (size_t n = 0; n < nn; ++n) {
    uint32_t k = rep->group_of_node[n];
    if (k != UINT32_MAX && g->nodes[n].position > glast[k]) glast[k] = g->nodes[n].position;
  }
  for (size_t v = 0; v < nv; ++v) uselast[v] = last_use[v];
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    uint32_t k = rep->group_of_node[n];
    if (k == UINT32_MAX || node->kind == MET_NODE_VIEW) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = root[g->operands[node->operand_begin + i]];
      if (glast[k] > uselast[r]) uselast[r] = glast[k];
    }
  }
  for (size_t v = 0; v < nv; ++v) {
    if (!mat[v]) continue;
    FUZZ_CHECK(s < rep->slot_count);
    const met_slot_t *slot = &rep->slots[s++];
    const met_value_t *val = &g->values[v];
    FUZZ_CHECK_EQ(slot->value, v);
    FUZZ_CHECK(slot->node == val->producer);
    uint32_t pk = rep->group_of_node[val->producer];
    FUZZ_CHECK(slot->first == (pk != UINT32_MAX ? glast[pk] : g->nodes[val->producer].position));
    int32_t last = returned[v] ? (int32_t)last_pos : uselast[v];
    if (last < slot->first) last = slot->first;
    // IREE's horizontal fusion: the outputs of one fused op are slices of one tensor, each
    // live until the last of them is read (budget.h): at least its own last use.
    bool horizontal = t->fusion == MET_FUSION_IREE && t->iree.horizontal_fusion;
    FUZZ_CHECK(horizontal ? slot->last >= last && (uint32_t)slot->last <= last_pos
                          : slot->last == last);
    bool ovf = false;
    FUZZ_CHECK_EQ(slot->bytes, align_up(policy_bytes(val, t->width_policy), align, &ovf));
    FUZZ_CHECK(!ovf);
    materialized += slot->bytes;
    if (g->nodes[val->producer].kind == MET_NODE_COMPUTE && !is_call(g, (size_t)val->producer))
      dram_floor += policy_bytes(val, t->width_policy);
  }
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    const met_node_extra_t *x = met_graph_extra(g, node);
    if (!x || !x->scratch_bytes || hoisted[n]) continue;
    FUZZ_CHECK(s < rep->slot_count);
    const met_slot_t *slot = &rep->slots[s++];
    FUZZ_CHECK(slot->value == MET_SLOT_SCRATCH);
    FUZZ_CHECK(slot->node == (int32_t)n);
    FUZZ_CHECK(slot->first == node->position && slot->last == node->position);
    bool ovf = false;
    FUZZ_CHECK_EQ(slot->bytes, align_up(x->scratch_bytes, align, &ovf));
    materialized += slot->bytes;
  }
  FUZZ_CHECK_EQ(s, rep->slot_count);
  FUZZ_CHECK((u128)b->materialized_bytes == materialized);
  FUZZ_CHECK((u128)b->dram_bytes >= dram_floor);

  // The plan: inside the arena, aligned, disjoint where lifetimes overlap, the bound.
  u128 top = 0, peak = 0;
  for (size_t i = 0; i < rep->slot_count; ++i) {
    const met_slot_t *a = &rep->slots[i];
    FUZZ_CHECK(a->first >= 0 && a->first <= a->last && (uint32_t)a->last < g->position_count);
    FUZZ_CHECK(a->bytes % align == 0);
    u128 end = (u128)a->offset + a->bytes;
    if (end > top) top = end;
    u128 live = 0;
    for (size_t j = 0; j < rep->slot_count; ++j) {
      const met_slot_t *c = &rep->slots[j];
      if (c->first <= a->first && a->first <= c->last) live += c->bytes;
      if (j <= i || !a->bytes || !c->bytes) continue;
      if (a->last < c->first || c->last < a->first) continue;
      FUZZ_CHECK((u128)a->offset + a->bytes <= c->offset || (u128)c->offset + c->bytes <= a->offset);
    }
    if (live > peak) peak = live;
  }
  FUZZ_CHECK((u128)b->arena_bytes == top);
  FUZZ_CHECK((u128)b->peak_live_bytes == peak);
  FUZZ_CHECK(b->arena_bytes >= b->peak_live_bytes);
  FUZZ_CHECK(b->arena_bytes <= b->materialized_bytes);
  FUZZ_CHECK_EQ(b->reuse_saved_bytes, b->materialized_bytes - b->arena_bytes);
  FUZZ_CHECK(b->width_overhead_bytes <= b->arena_bytes);
  if (t->width_policy != MET_WIDTH_F32_UNIFORM) FUZZ_CHECK_EQ(b->width_overhead_bytes, 0);
  FUZZ_CHECK(b->width_policy == t->width_policy);

  // Host I/O, parameters, completeness.
  u128 host_io = 0, params = 0;
  bool complete = !g->incomplete;
  static uint8_t splat_seen[MAX_NODES * 4 + 64], view_seen[MAX_NODES * 4 + 64];
  static u128 run_read[MAX_NODES * 4 + 64];
  memset(splat_seen, 0, nv);
  memset(view_seen, 0, nv);
  for (size_t v = 0; v < nv; ++v) run_read[v] = 0;
  // What a run reads (budget_fields.def, param_bytes): by the uses above less hoisted
  // nodes', all of a root read whole, else its distinct views summed, at most the root.
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW || (node->flags & MET_NODE_F_DEALLOC) || hoisted[n]) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t o = g->operands[node->operand_begin + i], r = root[o];
      if (view_seen[o]) continue;
      view_seen[o] = 1;
      run_read[r] += o == r ? g->values[r].bytes : g->values[o].bytes;
      if (run_read[r] > g->values[r].bytes) run_read[r] = g->values[r].bytes;
    }
  }
  u128 load_bytes = 0;
  for (size_t v = 0; v < nv; ++v) {
    const met_value_t *val = &g->values[v];
    if (val->role == MET_ROLE_INPUT) host_io += val->bytes;
    bool derived = val->producer >= 0 && hoisted[val->producer];
    if ((val->role == MET_ROLE_PARAM || val->role == MET_ROLE_CONST ||
         val->role == MET_ROLE_GLOBAL || derived) && root[v] == v)
      params += run_read[v];
    if (derived && root[v] == v && run_read[v]) load_bytes += val->bytes;
    if ((val->flags & MET_VALUE_F_DYNAMIC) && !(val->flags & MET_VALUE_F_BOUND)) complete = false;
    if (val->flags & MET_VALUE_F_UNRANKED) complete = false;
  }
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->flags & (MET_NODE_F_UNRANKED | MET_NODE_F_DYNAMIC | MET_NODE_F_NO_SIZE))
      complete = false;
    if (node->kind == MET_NODE_RETURN)
      for (uint32_t i = 0; i < node->operand_count; ++i)
        host_io += g->values[g->operands[node->operand_begin + i]].bytes;
    // budget.h: a splat is no weight, except a global that MET_FUSION_MLIR reads (once).
    for (uint32_t i = 0; node->kind == MET_NODE_COMPUTE && i < node->operand_count; ++i) {
      uint32_t r = root[g->operands[node->operand_begin + i]];
      if (g->values[r].role != MET_ROLE_SPLAT || splat_seen[r] || !met_budget_splat_read(t, node, i))
        continue;
      splat_seen[r] = 1;
      params += g->values[r].bytes;
    }
    // graph.h: a resolved call adds the parameters its callee reads.
    const met_node_extra_t *x = met_graph_extra(g, node);
    if (node->kind == MET_NODE_COMPUTE && x && x->replaces_dispatch) params += x->param_bytes;
  }
  FUZZ_CHECK((u128)b->host_io_bytes == host_io);
  FUZZ_CHECK((u128)b->param_bytes == params);
  FUZZ_CHECK((u128)b->load_time_bytes == load_bytes);
  // complete may also be cleared for reasons the graph API does not show (a newer core
  // may add some); it is never set over an incomplete count.
  if (!complete) FUZZ_CHECK(!rep->complete);
}

// ----------------------------------------------------------------------------------------
// The memory model on one analysed function.

static void check_memory_function(const met_graph_t *g, const met_target_t *t,
                                  const met_budget_report_t *rep, met_arena_t *arena) {
  met_function_memory_t fm;
  met_status_t st = met_memory_function(g, rep, t, NULL, arena, &fm);
  FUZZ_CHECK(st == MET_OK || st == MET_EOVERFLOW);
  if (st) return;
  size_t nn = g->node_count, nv = g->value_count;
  bool any_alloc = false;
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    any_alloc |= node->kind == MET_NODE_ALLOC;
    if (fm.hoisted[n])
      FUZZ_CHECK(t->hoists_parameters && node->kind == MET_NODE_COMPUTE && node->result_count > 0);
  }
  if (!t->hoists_parameters) {
    FUZZ_CHECK_EQ(fm.derived_bytes, 0);
    for (size_t v = 0; v < nv; ++v) FUZZ_CHECK_EQ(fm.param_uses[v], rep->use_count[v]);
  }
  // Kept slots and the run's plan.
  u128 kept_sum = 0, kept_peak = 0;
  int32_t kept_peak_pos = -1;
  size_t kept = 0;
  for (size_t s = 0; s < rep->slot_count; ++s) {
    FUZZ_CHECK(fm.slot_kept[s] == !fm.hoisted[rep->slots[s].node]);
    if (!fm.slot_kept[s]) continue;
    ++kept;
    kept_sum += rep->slots[s].bytes;
  }
  for (uint32_t p = 0; p < g->position_count && kept; ++p) {
    u128 live = 0;
    for (size_t s = 0; s < rep->slot_count; ++s)
      if (fm.slot_kept[s] && rep->slots[s].first <= (int32_t)p && (int32_t)p <= rep->slots[s].last)
        live += rep->slots[s].bytes;
    if (live > kept_peak || kept_peak_pos < 0) { kept_peak = live; kept_peak_pos = (int32_t)p; }
  }
  if (!kept) {
    FUZZ_CHECK_EQ(fm.run_arena, 0);
    FUZZ_CHECK(fm.peak_position == -1);
  } else {
    FUZZ_CHECK((u128)fm.run_arena >= kept_peak);
    FUZZ_CHECK((u128)fm.run_arena <= kept_sum);
    FUZZ_CHECK(fm.peak_position == kept_peak_pos);
  }
  // The allocation peak: an allocation lives from its position to its first
  // deallocation's position (inclusive), else to the end.
  {
    static int32_t freed_at[MAX_NODES * 4 + 64];
    for (size_t v = 0; v < nv; ++v) freed_at[v] = INT32_MAX;
    for (size_t n = 0; n < nn; ++n) {
      const met_node_t *node = &g->nodes[n];
      if (!(node->flags & MET_NODE_F_DEALLOC)) continue;
      for (uint32_t i = 0; i < node->operand_count; ++i) {
        uint32_t r = root_of(g, g->operands[node->operand_begin + i]);
        if (g->values[r].role == MET_ROLE_ALLOC && freed_at[r] == INT32_MAX)
          freed_at[r] = node->position;
      }
    }
    u128 peak = 0;
    for (uint32_t p = 0; p < g->position_count; ++p) {
      u128 live = 0;
      for (size_t n = 0; n < nn; ++n) {
        const met_node_t *node = &g->nodes[n];
        if (node->kind != MET_NODE_ALLOC || node->position > (int32_t)p) continue;
        for (uint32_t i = 0; i < node->result_count; ++i) {
          uint32_t v = node->result_begin + i;
          if (freed_at[v] >= (int32_t)p) live += g->values[v].bytes;
        }
      }
      if (live > peak) peak = live;
    }
    FUZZ_CHECK((u128)fm.allocated_peak == peak);
  }
  bool bufferized = any_alloc;
  // memory_graph.c: a scratch slot (a body's or a callee's allocations) is not in the
  // allocation peak, so such a run is charged its plan: not bufferized.
  for (size_t s = 0; s < rep->slot_count; ++s) {
    if (rep->slots[s].value == MET_SLOT_SCRATCH ||
        g->values[rep->slots[s].value].role != MET_ROLE_ALLOC)
      bufferized = false;
  }
  FUZZ_CHECK(fm.bufferized == bufferized);
  // Workspace families: each set by a node of its family that runs (not hoisted).
  for (int f = 0; f < MET_FAMILY_COUNT; ++f) {
    int32_t n = fm.family_node[f];
    if (n < 0) { FUZZ_CHECK_EQ(fm.family_bytes[f], 0); continue; }
    FUZZ_CHECK((size_t)n < nn);
    FUZZ_CHECK(g->nodes[n].kind == MET_NODE_COMPUTE && !fm.hoisted[n]);
    const met_workspace_rules_t *w = &t->workspace;
    uint64_t per = f == MET_FAMILY_MATMUL ? w->matmul_per_unit_bytes
                 : f == MET_FAMILY_SOFTMAX ? w->softmax_per_unit_bytes
                 : f == MET_FAMILY_REDUCTION ? w->reduction_per_unit_bytes : 0;
    if (f != MET_FAMILY_CONV) FUZZ_CHECK((u128)fm.family_bytes[f] == (u128)t->compute_units * per);
  }
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE || fm.hoisted[n]) continue;
    if (node->op_class == MET_CLASS_MATMUL) FUZZ_CHECK(fm.family_node[MET_FAMILY_MATMUL] >= 0);
  }
}

// ----------------------------------------------------------------------------------------
// The memory model's arithmetic.

static u128 mul_sat(u128 a, u128 b) {
  if (a && b > ~(u128)0 / a) return ~(u128)0;
  return a * b;
}

static void fuzz_memory_arith(fuzz_reader_t *r) {
  // Mostly modest numbers (so answers exist), now and then extreme ones.
  uint64_t seq = fuzz_u8(r) & 1 ? fuzz_size(r) : fuzz_u16(r);
  uint64_t tok = fuzz_u8(r) & 1 ? fuzz_size(r) : fuzz_u16(r);
  uint64_t bs = fuzz_u8(r) & 1 ? fuzz_size(r) : 1 + fuzz_u8(r) % 64;
  uint64_t blocks = 0;
  met_status_t st = met_memory_kv_blocks_for(seq, tok, bs, &blocks);
  if (!bs) {
    FUZZ_CHECK(st == MET_EINVAL);
  } else {
    u128 want = (u128)seq * ((u128)(tok / bs) + 1) + 1;  // tok / bs + 1 may pass 2^64
    if (want > UINT64_MAX) FUZZ_CHECK(st == MET_EOVERFLOW);
    else { FUZZ_CHECK(st == MET_OK); FUZZ_CHECK((u128)blocks == want); }
  }

  met_kv_pool_t p;
  memset(&p, 0, sizeof(p));
  uint8_t shape = fuzz_u8(r);
  p.present = shape & 1;
  p.layers = shape & 2 ? fuzz_size(r) : fuzz_u8(r);
  p.kv_heads = fuzz_u8(r);
  p.head_dim = shape & 4 ? fuzz_size(r) : fuzz_u8(r);
  p.block_size = bs;
  static const uint32_t bits[] = {0, 4, 8, 16, 32, 6, 1};
  p.kv_bits = bits[fuzz_below(r, 7)];
  p.has_draft = shape & 8;
  if (p.has_draft) {
    p.draft_layers = fuzz_u8(r);
    p.draft_kv_heads = fuzz_u8(r);
    p.draft_head_dim = fuzz_u8(r);
    p.draft_kv_bits = bits[fuzz_below(r, 7)];
  }
  uint32_t missing = met_memory_kv_missing(&p, seq, tok);
  uint32_t want_missing = 0;
  if (p.present) {
    if (!seq) want_missing |= MET_KV_MISSING_SEQUENCES;
    if (!tok) want_missing |= MET_KV_MISSING_TOKENS;
    if (!p.layers || !p.kv_heads || !p.head_dim || !p.block_size) want_missing |= MET_KV_MISSING_SHAPE;
    if (!p.kv_bits) want_missing |= MET_KV_MISSING_DTYPE;
    if (p.has_draft && (!p.draft_layers || !p.draft_kv_heads || !p.draft_head_dim || !p.draft_kv_bits))
      want_missing |= MET_KV_MISSING_DRAFT;
  }
  FUZZ_CHECK_EQ(missing, want_missing);
  uint64_t kv_blocks = 0, kv_bytes = 0;
  st = met_memory_kv_bytes(&p, seq, tok, &kv_blocks, &kv_bytes);
  if (!p.present || missing) {
    FUZZ_CHECK(st == MET_OK && kv_bytes == 0 && kv_blocks == 0);
  } else {
    // blocks x block_size x 2 x layers x heads x dim x bits / 8, rounded up per head set;
    // every partial product is formed in 64 bits, so any of them past 2^64 overflows.
    const u128 M = UINT64_MAX, SAT = ~(u128)0;
    u128 bl = (u128)seq * ((u128)(tok / bs) + 1) + 1;  // as above: may pass 2^64
    u128 x = mul_sat(mul_sat(mul_sat(mul_sat(mul_sat(bl, bs), 2), p.layers), p.kv_heads), p.head_dim);
    u128 main = x == SAT ? x : (mul_sat(x, p.kv_bits) + 7) / 8;
    bool over = bl > M || x > M || main > M;
    u128 total = main;
    if (p.has_draft) {
      u128 y = mul_sat(mul_sat(mul_sat(mul_sat(mul_sat(bl, bs), 2), p.draft_layers),
                               p.draft_kv_heads), p.draft_head_dim);
      u128 draft = y == SAT ? y : (mul_sat(y, p.draft_kv_bits) + 7) / 8;
      over |= y > M || draft > M;
      total = total + draft < total ? SAT : total + draft;
    }
    over |= total > M;
    if (over) {
      FUZZ_CHECK(st == MET_EOVERFLOW);
    } else {
      FUZZ_CHECK(st == MET_OK);
      FUZZ_CHECK((u128)kv_bytes == total);
      FUZZ_CHECK((u128)kv_blocks == bl);
    }
  }

  met_memory_terms_t t;
  memset(&t, 0, sizeof(t));
  uint8_t which = fuzz_u8(r);
  t.weights_stored = which & 1 ? fuzz_size(r) : 0;
  t.weights_derived = which & 2 ? fuzz_size(r) : 0;
  t.activations = which & 4 ? fuzz_size(r) : 0;
  t.workspace = which & 8 ? fuzz_size(r) : 0;
  t.states = which & 16 ? fuzz_size(r) : 0;
  t.caches_device = which & 32 ? fuzz_size(r) : 0;
  t.caches_host = which & 64 ? fuzz_size(r) : 0;
  met_driver_terms_t d = {fuzz_u8(r) & 1 ? fuzz_size(r) : 0, fuzz_u16(r) * 16u,
                          fuzz_u8(r) & 1 ? (uint64_t)1 << fuzz_below(r, 32) : 0};
  uint64_t memory = fuzz_size(r);
  uint32_t util = fuzz_u8(r) & 1 ? 1000000 - fuzz_u16(r) : (uint32_t)fuzz_u16(r) * 20u;
  met_memory_totals_t tot;
  st = met_memory_evaluate(&t, &p, &d, memory, util, seq, tok, &tot);
  if (util == 0 || util > 1000000) { FUZZ_CHECK(st == MET_EINVAL); return; }
  FUZZ_CHECK(st == MET_OK || st == MET_EOVERFLOW || (st == MET_EINVAL && d.reserved_ppm > 1000000));
  if (st == MET_OK) {
    FUZZ_CHECK((u128)tot.budget_bytes == (u128)memory * util / 1000000u);
    FUZZ_CHECK_EQ(tot.kv_bytes, kv_bytes);
    u128 dev = (u128)t.weights_stored + t.weights_derived + t.activations + t.workspace +
               t.states + kv_bytes + t.caches_device + tot.driver_bytes;
    FUZZ_CHECK((u128)tot.device_bytes == dev);
    // A reserved share above the whole device is either refused or kept whole.
    u128 reserved = (u128)memory * d.reserved_ppm / 1000000u;
    FUZZ_CHECK((u128)tot.driver_bytes >= (u128)d.context_bytes + reserved);
    FUZZ_CHECK(tot.fits == (tot.device_bytes <= tot.budget_bytes));
    __int128 h = (__int128)tot.budget_bytes - (__int128)tot.device_bytes;
    if (h > INT64_MAX) h = INT64_MAX;
    if (h < INT64_MIN) h = INT64_MIN;
    FUZZ_CHECK(tot.headroom_bytes == (int64_t)h);
  }

  // The inverse queries: the answer fits, one more does not.
  uint64_t n = 0;
  bool found = false;
  st = met_memory_max_sequences(&t, &p, &d, memory, util, tok, &n, &found);
  FUZZ_CHECK(st == MET_OK || st == MET_EINVAL);
  if (st == MET_OK) {
    met_memory_totals_t a;
    if (found) {
      FUZZ_CHECK(n >= 1);
      FUZZ_CHECK(met_memory_evaluate(&t, &p, &d, memory, util, n, tok, &a) == MET_OK && a.fits);
      if (n < UINT64_MAX) {
        met_status_t s2 = met_memory_evaluate(&t, &p, &d, memory, util, n + 1, tok, &a);
        FUZZ_CHECK(s2 == MET_EOVERFLOW || (s2 == MET_OK && !a.fits));
      }
    } else {
      met_status_t s2 = met_memory_evaluate(&t, &p, &d, memory, util, 1, tok, &a);
      FUZZ_CHECK(s2 == MET_EOVERFLOW || (s2 == MET_OK && !a.fits));
    }
  }
  st = met_memory_max_tokens(&t, &p, &d, memory, util, seq, &n, &found);
  FUZZ_CHECK(st == MET_OK || st == MET_EINVAL);
  if (st == MET_OK) {
    met_memory_totals_t a;
    if (found) {
      FUZZ_CHECK(n >= 1);
      FUZZ_CHECK(met_memory_evaluate(&t, &p, &d, memory, util, seq, n, &a) == MET_OK && a.fits);
      if (n < UINT64_MAX) {
        met_status_t s2 = met_memory_evaluate(&t, &p, &d, memory, util, seq, n + 1, &a);
        FUZZ_CHECK(s2 == MET_EOVERFLOW || (s2 == MET_OK && !a.fits));
      }
    }
  }
}

// ----------------------------------------------------------------------------------------

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_reader_t r = {data, size, 0};
  uint8_t mode = fuzz_u8(&r);
  if ((mode & 3) == 3) {
    fuzz_memory_arith(&r);
    return 0;
  }
  bool failing = (mode & 0x0c) == 0x0c;
  uint32_t fail_budget = fuzz_u8(&r);
  uint32_t block_bytes = 128 + 32 * (uint32_t)fuzz_u8(&r);
  decoded_t d;
  decode_target(&r, &d);
  size_t graph_start = r.pos;

  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  met_graph_t g;
  met_graph_initialize(&arena, &g);
  d.huge = false;
  FUZZ_CHECK(build_graph(&r, &g, d.target.width_policy == MET_WIDTH_F32_UNIFORM,
                         d.target.fusion != MET_FUSION_MLIR, &d.huge) == MET_OK);  // well-formed by construction
  // A small node budget: the exact search runs too, the same on every run.
  met_budget_options_t opt = {d.strategy, true, {2000, 0, NULL, NULL, NULL}};
  met_budget_report_t rep;
  met_status_t st = met_budget_analyze(&g, &d.target, &opt, &arena, &rep);
  if (d.huge) FUZZ_CHECK(st == MET_OK || st == MET_EOVERFLOW);
  else FUZZ_CHECK(st == MET_OK);
  if (st == MET_OK) {
    // The per-dispatch traffic the dispatch stats use partitions dram_bytes exactly.
    uint64_t sum = 0;
    for (uint32_t k = 0; k < rep.group_count; ++k) sum += rep.group_bytes[k];
    FUZZ_CHECK(sum == rep.budget.dram_bytes);
  }
  if (st == MET_OK) {
    check_report(&g, &d.target, &rep);
    check_memory_function(&g, &d.target, &rep, &arena);
  }

  // The same graph and analysis from an arena that fails after |fail_budget| blocks.
  if (failing) {
    fuzz_failing_t f = {0, fail_budget};
    met_arena_t fa;
    fuzz_failing_arena(&f, block_bytes, &fa);
    met_graph_t fg;
    met_graph_initialize(&fa, &fg);
    fuzz_reader_t r2 = {data, size, graph_start};
    bool huge2 = false;
    met_status_t fst = build_graph(&r2, &fg, d.target.width_policy == MET_WIDTH_F32_UNIFORM,
                                   d.target.fusion != MET_FUSION_MLIR, &huge2);
    FUZZ_CHECK(fst == MET_OK || fst == MET_ENOMEM);
    met_budget_report_t frep;
    if (!fst) {
      fst = met_budget_analyze(&fg, &d.target, &opt, &fa, &frep);
      FUZZ_CHECK(fst == MET_ENOMEM || fst == st);
      if (!fst) {
        FUZZ_CHECK(memcmp(&frep.budget, &rep.budget, sizeof(rep.budget)) == 0);
        FUZZ_CHECK(frep.slot_count == rep.slot_count && frep.complete == rep.complete);
        for (size_t s = 0; s < rep.slot_count; ++s)
          FUZZ_CHECK(memcmp(&frep.slots[s], &rep.slots[s], sizeof(met_slot_t)) == 0);
        met_function_memory_t fm;
        fst = met_memory_function(&fg, &frep, &d.target, NULL, &fa, &fm);
        FUZZ_CHECK(fst == MET_OK || fst == MET_ENOMEM || fst == MET_EOVERFLOW);
      }
    }
    met_arena_deinitialize(&fa);
  }
  met_arena_deinitialize(&arena);
  return 0;
}
