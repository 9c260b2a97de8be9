// graph.c: building met_graph_t. Appends only; arrays grow by doubling in the arena.
// Expected workload: one call per value, operand and node of a function (up to ~10^6).
#include "metrale/graph.h"

#include <string.h>

void met_graph_initialize(met_arena_t *arena, met_graph_t *graph) {
  memset(graph, 0, sizeof(*graph));
  graph->arena = arena;
}

static met_status_t push_value(met_graph_t *g, const met_value_t *v, uint32_t *out) {
  if (g->value_count >= UINT32_MAX - 1) return MET_EOVERFLOW;
  met_status_t st = met_arena_reserve(g->arena, (void **)&g->values, &g->value_cap,
                                      g->value_count, sizeof(met_value_t));
  if (st) return st;
  g->values[g->value_count] = *v;
  *out = (uint32_t)g->value_count++;
  return MET_OK;
}

met_status_t met_graph_add_argument(met_graph_t *graph, const met_value_t *value,
                                    uint32_t *out_value) {
  if (graph->node_count) return MET_EINVAL;
  met_value_t v = *value;
  v.producer = -1;
  met_status_t st = push_value(graph, &v, out_value);
  if (!st) graph->arg_count++;
  return st;
}

met_status_t met_graph_begin_node(met_graph_t *graph, const char *name, size_t name_len,
                                  met_node_kind_t kind, met_op_class_t op_class,
                                  int32_t position, uint64_t ext, uint32_t *out_node) {
  if (graph->node_count >= INT32_MAX) return MET_EOVERFLOW;
  if (position < 0) position = (int32_t)graph->position_count;
  if ((uint32_t)position + 1 < graph->position_count) return MET_EINVAL;
  met_status_t st = met_arena_reserve(graph->arena, (void **)&graph->nodes, &graph->node_cap,
                                      graph->node_count, sizeof(met_node_t));
  if (st) return st;
  met_node_t *n = &graph->nodes[graph->node_count];
  memset(n, 0, sizeof(*n));
  (void)name_len;
  n->name = name;
  n->kind = (uint8_t)kind;
  n->op_class = (uint8_t)op_class;
  n->position = position;
  n->operand_begin = (uint32_t)graph->operand_count;
  n->result_begin = (uint32_t)graph->value_count;
  n->ext = ext;
  if ((uint32_t)position + 1 > graph->position_count) graph->position_count = (uint32_t)position + 1;
  *out_node = (uint32_t)graph->node_count++;
  return MET_OK;
}

met_status_t met_graph_add_operand(met_graph_t *graph, uint32_t value) {
  if (!graph->node_count || value >= graph->value_count) return MET_EINVAL;
  if (graph->operand_count >= UINT32_MAX) return MET_EOVERFLOW;
  met_status_t st = met_arena_reserve(graph->arena, (void **)&graph->operands,
                                      &graph->operand_cap, graph->operand_count,
                                      sizeof(uint32_t));
  if (st) return st;
  graph->operands[graph->operand_count++] = value;
  graph->nodes[graph->node_count - 1].operand_count++;
  return MET_OK;
}

met_status_t met_graph_set_extra(met_graph_t *graph, const met_node_extra_t *extra) {
  if (!graph->node_count || graph->extra_count >= UINT32_MAX - 1) return MET_EINVAL;
  met_status_t st = met_arena_reserve(graph->arena, (void **)&graph->extras, &graph->extra_cap,
                                      graph->extra_count, sizeof(met_node_extra_t));
  if (st) return st;
  graph->extras[graph->extra_count++] = *extra;
  graph->nodes[graph->node_count - 1].extra = (uint32_t)graph->extra_count;
  return MET_OK;
}

met_status_t met_graph_add_result(met_graph_t *graph, const met_value_t *value,
                                  uint32_t *out_value) {
  if (!graph->node_count) return MET_EINVAL;
  met_node_t *n = &graph->nodes[graph->node_count - 1];
  if (n->result_begin + n->result_count != graph->value_count) return MET_EINVAL;
  met_value_t v = *value;
  v.producer = (int32_t)(graph->node_count - 1);
  v.arg_index = -1;
  met_status_t st = push_value(graph, &v, out_value);
  if (!st) n->result_count++;
  return st;
}

static met_status_t reserve_exact(met_arena_t *arena, void **items, size_t *cap, size_t count,
                                  size_t want, size_t elem) {
  if (want <= *cap) return MET_OK;
  void *p;
  met_status_t st = met_arena_calloc(arena, want, elem, &p);
  if (st) return st;
  if (*items && count) memcpy(p, *items, count * elem);
  *items = p;
  *cap = want;
  return MET_OK;
}

met_status_t met_graph_reserve(met_graph_t *graph, size_t nodes, size_t values,
                               size_t operands) {
  met_status_t st = reserve_exact(graph->arena, (void **)&graph->nodes, &graph->node_cap,
                                  graph->node_count, nodes, sizeof(met_node_t));
  if (!st) st = reserve_exact(graph->arena, (void **)&graph->values, &graph->value_cap,
                              graph->value_count, values, sizeof(met_value_t));
  if (!st) st = reserve_exact(graph->arena, (void **)&graph->operands, &graph->operand_cap,
                              graph->operand_count, operands, sizeof(uint32_t));
  return st;
}

met_status_t met_graph_find_dead(const met_graph_t *g, met_graph_erasable_fn_t erasable,
                                 void *user, met_arena_t *scratch, uint8_t *dead,
                                 size_t *out_count) {
  *out_count = 0;
  if (g->node_count) memset(dead, 0, g->node_count);
  met_arena_mark_t mark = met_arena_mark(scratch);
  uint8_t *read;  // read[v]: a kept node reads value v
  met_status_t st = met_arena_calloc(scratch, g->value_count ? g->value_count : 1, 1,
                                     (void **)&read);
  if (st) return st;
  // Last node first: every reader of a node's results comes after it, so its fate is known.
  for (size_t k = g->node_count; k-- > 0;) {
    const met_node_t *n = &g->nodes[k];
    bool unread = n->result_count > 0 && n->kind != MET_NODE_RETURN &&
                  !(n->flags & MET_NODE_F_READ_UNLISTED);
    for (uint32_t r = 0; r < n->result_count && unread; ++r)
      unread = !read[n->result_begin + r];
    if (unread && erasable(user, n)) {
      dead[k] = 1;
      ++*out_count;
      continue;
    }
    for (uint32_t i = 0; i < n->operand_count; ++i) read[g->operands[n->operand_begin + i]] = 1;
  }
  met_arena_release_to(scratch, mark);
  return MET_OK;
}

met_status_t met_graph_erase(met_graph_t *g, const uint8_t *dead, met_arena_t *scratch) {
  met_arena_mark_t mark = met_arena_mark(scratch);
  uint32_t *to;  // to[v]: v's new id, UINT32_MAX when removed
  met_status_t st = met_arena_calloc(scratch, g->value_count ? g->value_count : 1,
                                     sizeof(uint32_t), (void **)&to);
  if (st) return st;
  uint32_t nv = 0;
  for (size_t v = 0; v < g->value_count; ++v) {
    int32_t p = g->values[v].producer;
    to[v] = p >= 0 && dead[p] ? UINT32_MAX : nv++;
  }
  for (size_t k = 0; k < g->node_count; ++k) {  // checked before anything moves
    const met_node_t *n = &g->nodes[k];
    for (uint32_t i = 0; i < n->operand_count && !dead[k]; ++i)
      if (to[g->operands[n->operand_begin + i]] == UINT32_MAX) st = MET_EINVAL;
  }
  for (size_t v = 0; v < g->value_count && !st; ++v) {
    int32_t a = g->values[v].alias;
    if (to[v] != UINT32_MAX && a >= 0 && to[a] == UINT32_MAX) st = MET_EINVAL;
  }
  if (st) { met_arena_release_to(scratch, mark); return st; }
  // New ids never pass old ones, so every move goes down and reads what is not yet moved.
  uint32_t *node_to;
  st = met_arena_calloc(scratch, g->node_count ? g->node_count : 1, sizeof(uint32_t),
                        (void **)&node_to);
  if (st) { met_arena_release_to(scratch, mark); return st; }
  size_t nn = 0, no = 0;
  for (size_t k = 0; k < g->node_count; ++k) {
    if (dead[k]) { node_to[k] = UINT32_MAX; continue; }
    met_node_t n = g->nodes[k];
    for (uint32_t i = 0; i < n.operand_count; ++i)
      g->operands[no + i] = to[g->operands[n.operand_begin + i]];
    n.operand_begin = (uint32_t)no;
    no += n.operand_count;
    if (n.result_count) n.result_begin = to[n.result_begin];
    else n.result_begin = nv;  // fixed below: the next kept value's id
    if (g->flops) g->flops[nn] = g->flops[k];
    node_to[k] = (uint32_t)nn;
    g->nodes[nn++] = n;
  }
  for (size_t v = 0; v < g->value_count; ++v) {
    if (to[v] == UINT32_MAX) continue;
    met_value_t x = g->values[v];
    if (x.producer >= 0) x.producer = (int32_t)node_to[x.producer];
    if (x.alias >= 0) x.alias = (int32_t)to[x.alias];
    g->values[to[v]] = x;
  }
  // A node without results starts its (empty) run where the next kept node's results do.
  uint32_t next = nv;
  for (size_t k = nn; k-- > 0;) {
    if (g->nodes[k].result_count) next = g->nodes[k].result_begin;
    else g->nodes[k].result_begin = next;
  }
  g->node_count = nn;
  g->value_count = nv;
  g->operand_count = no;
  met_arena_release_to(scratch, mark);
  return MET_OK;
}
