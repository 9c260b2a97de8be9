// fusion_horizontal.c: IREE's FuseHorizontalContractions (budget.h, MET_FUSION_IREE with
// the iree.horizontal_fusion mode): which contractions become one op, and so one
// dispatch, before dispatches form.
#include <string.h>

#include "budget_ctx.h"

// FuseHorizontalContractionsPass's fusion-limit: at most this many contractions a group.
enum { kHorizontalLimit = 3 };

// Whether |n| is a contraction on a zero-filled tensor.empty (IREE's
// isEmptyFillContractionDAGRootOp): a matmul-class node whose init (its last operand,
// MET_NODE_F_DPS_INIT) is the result of a linalg.fill of zero (MET_NODE_F_ZERO_FILL) into a
// tensor.empty; or a tosa.matmul, which IREE's TOSA conversion lowers to a batch_matmul on
// exactly such an init.
static bool empty_fill_contraction(const met_graph_t *g, const met_node_t *n) {
  if (n->kind != MET_NODE_COMPUTE || n->op_class != MET_CLASS_MATMUL || n->result_count != 1 ||
      n->operand_count < 2)
    return false;
  if (!strcmp(n->name, "tosa.matmul")) return true;
  if (!(n->flags & MET_NODE_F_DPS_INIT) || n->operand_count < 3) return false;
  int32_t p = g->values[g->operands[n->operand_begin + n->operand_count - 1]].producer;
  if (p < 0) return false;
  const met_node_t *f = &g->nodes[p];
  if (f->op_class != MET_CLASS_FILL || !(f->flags & MET_NODE_F_ZERO_FILL) || !f->operand_count)
    return false;
  uint32_t e = g->operands[f->operand_begin + f->operand_count - 1];
  return g->values[e].role == MET_ROLE_EMPTY;
}

// One type, as far as the graph tells: bytes at both widths, rank and float-ness.
static bool same_type(const met_value_t *a, const met_value_t *b) {
  return a->bytes == b->bytes && a->f32_bytes == b->f32_bytes && a->rank == b->rank &&
         !((a->flags ^ b->flags) & MET_VALUE_F_FLOAT);
}

// Whether |b| is the op |a| is on other operands (checkOperationEquivalence): the same op,
// operands 0, 1 and the result of one type each, and for a generic the same computation.
static bool equivalent(const met_graph_t *g, const met_node_t *a, const met_node_t *b) {
  if (strcmp(a->name, b->name) || a->operand_count != b->operand_count) return false;
  for (uint32_t i = 0; i < 2; ++i)
    if (!same_type(&g->values[g->operands[a->operand_begin + i]],
                   &g->values[g->operands[b->operand_begin + i]]))
      return false;
  if (!same_type(&g->values[a->result_begin], &g->values[b->result_begin])) return false;
  const met_node_extra_t *xa = met_graph_extra(g, a), *xb = met_graph_extra(g, b);
  const char *ca = xa ? xa->computation : NULL, *cb = xb ? xb->computation : NULL;
  return ca == cb || (ca && cb && !strcmp(ca, cb));
}

// The truncation that follows contraction |n| (getTruncateOp): its result's one reader, an
// elementwise cast to a narrower type (IREE's isBitTruncateOp); else UINT32_MAX.
static uint32_t truncation(const met_budget_ctx_t *c, const uint32_t *reader, const met_node_t *n) {
  const met_graph_t *g = c->g;
  uint32_t r = n->result_begin, t = reader[r];
  if (t >= READ_MANY || c->returned[r]) return UINT32_MAX;
  const met_node_t *tn = &g->nodes[t];
  if (tn->kind != MET_NODE_COMPUTE || tn->op_class != MET_CLASS_ELEMENTWISE ||
      !(tn->flags & MET_NODE_F_CAST) || tn->operand_count != 1 || tn->result_count != 1 ||
      g->values[tn->result_begin].bytes >= g->values[r].bytes)
    return UINT32_MAX;
  return t;
}

met_status_t met_fusion_horizontal_members(met_budget_ctx_t *c, const uint8_t *off,
                                           const uint32_t *reader, const uint32_t *attn,
                                           uint32_t **out) {
  const met_graph_t *g = c->g;
  size_t nn = g->node_count ? g->node_count : 1;
  uint32_t *seed_of;
  uint8_t *dep;  // per node, during one seed's walk: reads a member's result, transitively
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, nn, sizeof(uint32_t), (void **)&seed_of));
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, nn, 1, (void **)&dep));
  for (size_t n = 0; n < g->node_count; ++n) seed_of[n] = UINT32_MAX;
  for (size_t s = 0; s < g->node_count; ++s) {
    const met_node_t *seed = &g->nodes[s];
    if (seed_of[s] != UINT32_MAX || off[s] || c->hoisted[s] || c->cloned[s] ||
        (attn && attn[s] != UINT32_MAX) || !empty_fill_contraction(g, seed))
      continue;
    uint32_t lhs = g->operands[seed->operand_begin];
    uint32_t strunc = truncation(c, reader, seed);
    // The LHS's readers end at its root's last use: no candidate after that position.
    int32_t bound = c->last_use[c->root[lhs]];
    size_t members = 1, walked = s;
    seed_of[s] = (uint32_t)s;
    if (strunc != UINT32_MAX) seed_of[strunc] = (uint32_t)s;
    // Walk the nodes after the seed in order: a candidate reads the seed's LHS (the same
    // value) as its first operand and depends on no member (isHorizontalToGroup).
    for (size_t n = s + 1; n < g->node_count && members < kHorizontalLimit; ++n) {
      const met_node_t *node = &g->nodes[n];
      if (node->position > bound) break;
      walked = n;
      bool d = false;
      for (uint32_t i = 0; i < node->operand_count && !d; ++i) {
        int32_t p = g->values[g->operands[node->operand_begin + i]].producer;
        d = p >= (int32_t)s && (dep[p] || seed_of[p] == s);
      }
      dep[n] = d;
      if (d || seed_of[n] != UINT32_MAX || off[n] || c->hoisted[n] ||
          (attn && attn[n] != UINT32_MAX) || node->operand_count == 0 ||
          g->operands[node->operand_begin] != lhs || !empty_fill_contraction(g, node) ||
          !equivalent(g, seed, node))
        continue;
      uint32_t t = truncation(c, reader, node);
      // With a truncation after the seed, a member needs one of its own (and an equivalent
      // one: a cast to the same type).
      if (strunc != UINT32_MAX &&
          (t == UINT32_MAX || !same_type(&g->values[g->nodes[t].result_begin],
                                         &g->values[g->nodes[strunc].result_begin])))
        continue;
      seed_of[n] = (uint32_t)s;
      if (strunc != UINT32_MAX) seed_of[t] = (uint32_t)s;
      ++members;
    }
    for (size_t n = s + 1; n <= walked; ++n) dep[n] = 0;
    if (members == 1) {  // no group: the seed (and its truncation) stay as they were
      seed_of[s] = UINT32_MAX;
      if (strunc != UINT32_MAX) seed_of[strunc] = UINT32_MAX;
    }
  }
  *out = seed_of;
  return MET_OK;
}
