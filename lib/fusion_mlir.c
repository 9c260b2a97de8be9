// fusion_mlir.c: MET_FUSION_MLIR, upstream MLIR's CPU pipeline as `metrale run` executes
// it (budget.h lists the rules): fills folded into generics, elementwise fusion with
// reshape propagation, and destination-passing bufferization of inits.
#include <stddef.h>

#include "budget_ctx.h"

// The init operand of a destination-passing node (its last operand), or UINT32_MAX.
static uint32_t init_operand(const met_node_t *node) {
  if (!(node->flags & MET_NODE_F_DPS_INIT) || node->operand_count == 0) return UINT32_MAX;
  return node->operand_begin + node->operand_count - 1;
}

// Upstream MLIR's dispatch formation (budget.h, MET_FUSION_MLIR): every compute node is a
// kernel; a linalg.generic consumer takes in each all-parallel generic producer group whose
// every open use is one of its inputs (linalg-fuse-elementwise-ops with its default control
// function: the producer has one use, and duplicate inputs were merged by canonicalize).
// A linalg.fill whose every use is an input of a linalg.generic is folded into those
// generics' bodies as its scalar (FoldFillWithGenericOp) and is no kernel: |folded| per node.
met_status_t met_fusion_mlir_fold_fills(met_budget_ctx_t *c, const uint32_t *uses,
                                        const uint8_t *off, uint8_t *folded) {
  const met_graph_t *g = c->g;
  uint32_t *generic_uses;
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->value_count ? g->value_count : 1,
                                       sizeof(uint32_t), (void **)&generic_uses));
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE || off[n] || !(node->flags & MET_NODE_F_GENERIC)) continue;
    uint32_t init = init_operand(node);
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t o = node->operand_begin + i, r = c->root[g->operands[o]];
      int32_t p = g->values[r].producer;
      if (o != init && p >= 0 && g->nodes[p].op_class == MET_CLASS_FILL) generic_uses[r]++;
    }
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE || node->op_class != MET_CLASS_FILL || off[n] ||
        node->result_count != 1)
      continue;
    uint32_t r = node->result_begin;
    folded[n] = uses[r] > 0 && generic_uses[r] == uses[r] && !c->returned[r];
  }
  return MET_OK;
}

// |col_root|, |col_count|: per group, the one collapsed value its members read through a
// collapse view (UINT32_MAX: none; UINT32_MAX - 1: several) and how many reads.
void met_fusion_mlir_plan(met_budget_ctx_t *c, const uint32_t *uses, const uint8_t *off,
                          const uint8_t *folded, uint32_t *col_root, uint32_t *col_count,
                          uint32_t *group_of) {
  const met_graph_t *g = c->g;
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    group_of[n] = UINT32_MAX;
    if (node->kind != MET_NODE_COMPUTE || folded[n] || c->hoisted[n]) continue;
    bool generic = (node->flags & MET_NODE_F_GENERIC) && !off[n];
    uint32_t grp = c->ngroups++;
    c->gkind[grp] = (uint8_t)(!generic                                  ? G_SOLO
                              : node->op_class == MET_CLASS_ELEMENTWISE ? G_ELEMENTWISE
                                                                        : G_ANCHOR);
    c->gopen[grp] = 0;
    c->parent[grp] = grp;
    group_of[n] = grp;
    uint32_t init = init_operand(node);
    col_root[grp] = UINT32_MAX;
    col_count[grp] = 0;
    // Reshape propagation (FoldWithProducerReshapeOpByExpansion): a collapse (a view with
    // fewer dims and the same bytes) read by a generic moves below it when nothing else
    // reads the collapsed value; a contraction that reads a collapse of an elementwise
    // group used only there (directly, or moved below that group) becomes a
    // linalg.generic, which then takes the group in.
    for (uint32_t i = 0; !off[n] && i < node->operand_count; ++i) {
      uint32_t o = g->operands[node->operand_begin + i];
      int32_t a = g->values[o].alias;
      bool collapse = node->operand_begin + i != init && a >= 0 &&
                      g->values[o].rank < g->values[a].rank &&
                      g->values[o].bytes == g->values[a].bytes;
      uint32_t pg = met_budget_producer_group(c, group_of, c->root[o]);
      if (generic && collapse) {
        col_count[grp] += col_root[grp] == UINT32_MAX || col_root[grp] == c->root[o];
        col_root[grp] = col_root[grp] == UINT32_MAX || col_root[grp] == c->root[o] ? c->root[o]
                                                                                   : UINT32_MAX - 1;
      }
      if (generic || node->op_class != MET_CLASS_MATMUL || node->operand_begin + i == init ||
          pg == UINT32_MAX || c->gkind[pg] != G_ELEMENTWISE || c->gopen[pg] != 1)
        continue;
      // (A collapse moved below a group that is then reshaped again before the
      // contraction meets that reshape and cancels: only a direct read counts.)
      bool moved = a < 0 && col_root[pg] < UINT32_MAX - 1 && col_count[pg] == uses[col_root[pg]];
      if (collapse || moved) {
        generic = true;
        c->gkind[grp] = G_ANCHOR;
      }
    }
    for (uint32_t i = 0; generic && i < node->operand_count; ++i) {
      uint32_t pg =
          met_budget_producer_group(c, group_of, c->root[g->operands[node->operand_begin + i]]);
      if (pg == UINT32_MAX || pg == grp || c->gkind[pg] != G_ELEMENTWISE) continue;
      uint64_t k = 0;
      bool into_init = false;
      for (uint32_t j = 0; j < node->operand_count; ++j) {
        uint32_t o = node->operand_begin + j;
        if (met_budget_producer_group(c, group_of, c->root[g->operands[o]]) != pg) continue;
        ++k;
        into_init |= o == init;
      }
      if (into_init || c->gopen[pg] != k) continue;
      c->parent[pg] = grp;
      c->gopen[pg] = 0;
      if (col_root[pg] != UINT32_MAX) {  // the group's collapse reads come along
        bool same = col_root[grp] == UINT32_MAX || col_root[grp] == col_root[pg];
        col_root[grp] = same ? col_root[pg] : UINT32_MAX - 1;
        col_count[grp] += col_count[pg];
      }
    }
    for (uint32_t r = 0; r < node->result_count; ++r) c->gopen[grp] += uses[node->result_begin + r];
  }
}

// Upstream bufferization of destination-passing nodes (MET_FUSION_MLIR): a node's result
// is written in place into its init's buffer (a value then gets no buffer of its own and
// the buffer's slot lives from its first write to its last use) when
//   - the init was computed by another kernel for this node alone (a fill, a broadcast), or
//   - the init is a tensor.empty that earlier nodes already wrote into, and nothing in that
//     buffer is used after this node (one-shot bufferization finds no conflict).
// An init that is a constant (read-only) is copied into a fresh buffer first: one more
// kernel (memref.copy), added to the node's group in |group_launches|.
met_status_t met_fusion_mlir_bufferize(met_budget_ctx_t *c, const uint32_t *uses,
                                       const uint32_t *group_of, uint64_t *group_launches) {
  const met_graph_t *g = c->g;
  uint32_t *home, *empty_buf;  // per value: the value whose slot holds it; per tensor.empty
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->value_count ? g->value_count : 1,
                                       sizeof(uint32_t), (void **)&home));
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->value_count ? g->value_count : 1,
                                       sizeof(uint32_t), (void **)&empty_buf));
  MET_RETURN_IF_ERROR(
      met_arena_calloc(&c->tmp, g->value_count ? g->value_count : 1, 1, (void **)&c->inplace));
  for (size_t v = 0; v < g->value_count; ++v) home[v] = empty_buf[v] = (uint32_t)v;
  c->home = home;
  // A tensor.empty read as an input (a pooling window) is an uninitialized tensor that
  // one-shot bufferization allocates: one buffer, from the tensor.empty to its last use.
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    uint32_t init = init_operand(node);
    if (node->kind != MET_NODE_COMPUTE) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t o = node->operand_begin + i, r = c->root[g->operands[o]];
      if (o != init && g->values[r].role == MET_ROLE_EMPTY && g->values[r].producer >= 0)
        c->mat[r] = 1;
    }
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    uint32_t init = init_operand(node);
    if (node->kind != MET_NODE_COMPUTE || init == UINT32_MAX || node->result_count != 1) continue;
    uint32_t v = c->root[g->operands[init]], r = node->result_begin;
    if (!c->mat[r] || c->root[r] != r) continue;
    uint8_t role = g->values[v].role;
    if (role == MET_ROLE_CONST || role == MET_ROLE_GLOBAL || role == MET_ROLE_SPLAT) {
      if (group_of[n] != UINT32_MAX) ADD_FIELD(c, dispatches, group_launches[group_of[n]], 1);
      continue;
    }
    uint32_t h;
    if (role == MET_ROLE_EMPTY) {
      h = empty_buf[v];
      if (h == v) {
        empty_buf[v] = r;
        continue;
      }  // its first write: a fresh buffer
      h = home[h];
      if (c->returned[h] || c->last_use[h] > node->position) {
        empty_buf[v] = r;
        continue;
      }
    } else {
      uint32_t pg = met_budget_producer_group(c, group_of, v);
      if (pg == UINT32_MAX || pg == group_of[n] || uses[v] != 1 || c->returned[v] ||
          !c->mat[home[v]])
        continue;
      h = home[v];
    }
    // r lives in h's buffer from now on.
    home[r] = h;
    c->mat[r] = 0;
    c->inplace[r] = 1;
    if (c->last_use[r] > c->last_use[h]) c->last_use[h] = c->last_use[r];
    c->returned[h] |= c->returned[r];
    if (role == MET_ROLE_EMPTY) empty_buf[v] = r;
  }
  return MET_OK;
}
