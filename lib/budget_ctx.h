// lib/budget_ctx.h: internal to lib/: the Budget analysis' working state, shared by
// budget_analysis.c (the driver: liveness, slots, planning, DRAM), budget_counts.c (the
// counters no part of fusion or planning: load time, host I/O, parameters, casts, the
// fast path, completeness, a per-buffer allocator's peak), fusion.c (the TF.js and IREE
// dispatch formation) and fusion_mlir.c (metrale's rules for upstream MLIR's dispatch
// formation and bufferization, MET_FUSION_MLIR's fallback). Not installed: nothing
// outside lib/ sees it.
#ifndef METRALE_LIB_BUDGET_CTX_H
#define METRALE_LIB_BUDGET_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "metrale/budget.h"
#include "metrale/checked.h"

// G_GEN: a generator group: fills and elementwise ops reading only leaves (arguments,
// constants, tensor.empty). It has no input from another dispatch, so merging it into its
// sole consumer's group can never create a cycle.
enum { G_ELEMENTWISE, G_ANCHOR, G_GEN, G_SOLO };

typedef struct met_budget_ctx_t {
  const met_graph_t *g;
  const met_target_t *t;
  met_arena_t *arena;  // the report's arrays
  met_arena_t tmp;     // the analysis' own arrays, released when it returns
  uint32_t *root;      // per value: the value it ultimately views (itself if none)
  int32_t *last_use;   // per value (roots only): last position of a use
  uint8_t *returned;   // per value (roots only)
  uint8_t *mat;        // per value: materialized
  const uint8_t *hoisted;  // per node: run at load time (met_budget_report_t.hoisted)
  uint8_t *cloned;     // per node: a fill copied into every dispatch that reads it (budget.h):
                       // no dispatch of its own, its result never in memory
  uint32_t *home;      // MET_FUSION_MLIR: per value, the value whose slot holds it (itself
                       // unless written in place); NULL otherwise
  uint8_t *inplace;    // MET_FUSION_MLIR: per value, written into another value's buffer
                       // (its bytes are still written); NULL otherwise
  uint8_t *gclone;     // per group (MET_FUSION_IREE): every member is cheap to clone into
                       // a consumer (fills, widening casts)
  uint8_t *gread;      // per group (MET_FUSION_IREE): a node outside it read its results
  uint8_t *gstage;     // per group (MET_FUSION_TFJS): what the fused op took, TFJS_*
  uint8_t *gloops;     // per group (MET_FUSION_IREE): its root's met_node_t.loops
  uint8_t *groot;      // per group (MET_FUSION_IREE): its root's met_op_class_t
  uint8_t *gsealed;    // per group (MET_FUSION_IREE): no consumer joins it (a horizontal
                       // fusion's results leave through slices; an mmt4d; a pack)
  uint8_t *gunpack;    // per group (MET_FUSION_IREE): rooted at an unpack, which takes
                       // elementwise consumers of its result's loops
  uint8_t *gkind;      // per group
  uint64_t *gopen;     // per group: uses of members' results by non-members
  uint32_t *parent;    // per group: union-find parent (merged generator groups)
  uint32_t ngroups;
  bool mlir;                   // the target's fusion model is MET_FUSION_MLIR
  bool iree;                   // the target's fusion model is MET_FUSION_IREE
  bool tfjs;                   // the target's fusion model is MET_FUSION_TFJS
  bool any_weight;             // some value is a weight (met_role_is_weight)
  bool per_group;              // fill the report's group_bytes
  const char *overflow_field;  // set with MET_EOVERFLOW
} met_budget_ctx_t;

// acc += v; on overflow the report names the field (|name|, a field's name).
#define ADD_NAMED(c, name, acc, v)          \
  do {                                      \
    if (!met_add_u64((acc), (v), &(acc))) { \
      (c)->overflow_field = name;           \
      return MET_EOVERFLOW;                 \
    }                                       \
  } while (0)
// The same, naming |field|, a token of budget_fields.def.
#define ADD_FIELD(c, field, acc, v) ADD_NAMED(c, MET_BUDGET_FIELD_NAME(field), acc, v)
#define ADD(acc, v) ADD_NAMED(c, &(#acc)[3], acc, v)  // b->NAME, a met_budget_t member: "NAME"

static inline uint64_t met_budget_policy_bytes(const met_value_t *v, met_width_policy_t p) {
  return p == MET_WIDTH_F32_UNIFORM ? v->f32_bytes : v->bytes;
}

static inline int met_budget_group_kind_for(uint8_t cls) {
  switch (cls) {
    case MET_CLASS_ELEMENTWISE:
      return G_ELEMENTWISE;
    case MET_CLASS_FILL:
      return G_GEN;
    case MET_CLASS_MATMUL:
    case MET_CLASS_CONV:
    case MET_CLASS_REDUCTION:
      return G_ANCHOR;
    default:
      return G_SOLO;
  }
}

static inline uint32_t met_budget_find_group(const met_budget_ctx_t *c, uint32_t grp) {
  while (c->parent[grp] != grp) {
    c->parent[grp] = c->parent[c->parent[grp]];
    grp = c->parent[grp];
  }
  return grp;
}

// The group that produced root value |r|, or UINT32_MAX when no compute node did.
static inline uint32_t met_budget_producer_group(const met_budget_ctx_t *c,
                                                 const uint32_t *group_of, uint32_t r) {
  int32_t p = c->g->values[r].producer;
  if (p < 0 || c->g->nodes[p].kind != MET_NODE_COMPUTE) return UINT32_MAX;
  return group_of[p] == UINT32_MAX ? UINT32_MAX : met_budget_find_group(c, group_of[p]);
}

// budget_counts.c: parameter-only nodes into |hoisted| (per node); the counters of
// met_budget_t that read nothing but the graph, |off| (per node: off the fast path) and
// the fusion plan's hoisting.
met_status_t met_budget_mark_hoisted(met_budget_ctx_t *c, uint8_t *hoisted);
// met_budget_report_t.alloc_peak_bytes of |out|, whose slots are planned.
met_status_t met_budget_alloc_peak(met_budget_ctx_t *c, met_budget_report_t *out);
met_status_t met_budget_count_simple(met_budget_ctx_t *c, const uint8_t *off,
                                     met_budget_report_t *out);

// fusion.c: the walk of MET_FUSION_TFJS and MET_FUSION_IREE (budget.h): fills cloned into
// every reader (|c->cloned|), then the groups into |group_of|, numbered densely.
met_status_t met_fusion_clone_fills(met_budget_ctx_t *c, const uint32_t *uses, const uint8_t *off);
met_status_t met_fusion_plan(met_budget_ctx_t *c, const uint32_t *uses, const uint8_t *off,
                     uint32_t *group_of);
// Numbers the surviving groups densely in order of first appearance.
void met_fusion_number_groups(met_budget_ctx_t *c, uint32_t *group_of);
// Per root value, its one reader (fusion.c's sole_readers): a node, READ_NONE or READ_MANY.
enum { READ_NONE = UINT32_MAX, READ_MANY = UINT32_MAX - 1 };

// fusion_attention.c: attention (budget.h, MET_FUSION_IREE: attention): per node, the
// first matmul of the attention it belongs to - Q.K^T, then single-use elementwise ops
// (scale, mask, casts), a softmax, single-use elementwise ops, and the matmul that reads
// the probabilities as its first operand - or UINT32_MAX, into |*out| (in |c->tmp|).
// |reader|: each root value's one reader.
met_status_t met_fusion_attention_members(met_budget_ctx_t *c, const uint8_t *off,
                                          const uint32_t *reader, uint32_t **out);

// fusion_horizontal.c: IREE's horizontal fusion of contractions (budget.h, IREE's modes:
// iree.horizontal_fusion): per node, the first contraction (the seed) of the group it
// joins - contractions reading one LHS value, each on a zero-filled tensor.empty,
// equivalent and independent, at most 3, with their truncations - or UINT32_MAX, into
// |*out| (in |c->tmp|). |reader|: each root value's one reader; |attn| (NULL: none): the
// attention members, which stay the attention's.
met_status_t met_fusion_horizontal_members(met_budget_ctx_t *c, const uint8_t *off,
                                           const uint32_t *reader, const uint32_t *attn,
                                           uint32_t **out);

// fusion_mlir.c: the rules of MET_FUSION_MLIR (budget.h), in the order budget_analysis.c runs them.
met_status_t met_fusion_mlir_fold_fills(met_budget_ctx_t *c, const uint32_t *uses,
                                        const uint8_t *off, uint8_t *folded);
void met_fusion_mlir_plan(met_budget_ctx_t *c, const uint32_t *uses, const uint8_t *off,
                          const uint8_t *folded, uint32_t *col_root, uint32_t *col_count,
                          uint32_t *group_of);
met_status_t met_fusion_mlir_bufferize(met_budget_ctx_t *c, const uint32_t *uses,
                                       const uint32_t *group_of, uint64_t *group_launches);

#endif
