// callgraph.c: levels of a call graph by Tarjan's strongly connected components
// (metrale/callgraph.h).
#include "metrale/callgraph.h"

#include <stdint.h>
#include <stdlib.h>

#include "metrale/checked.h"

met_status_t met_callgraph_levels(size_t n, const size_t *start, const size_t *edge,
                                  size_t *level) {
  if (!n) return MET_OK;
  for (size_t e = start[0]; e < start[n]; ++e)
    if (edge[e] >= n) return MET_EINVAL;
  size_t bytes;
  if (!met_mul_size(n, sizeof(size_t), &bytes)) return MET_EOVERFLOW;
  size_t *index = malloc(bytes), *low = malloc(bytes), *stack = malloc(bytes);
  size_t *call = malloc(bytes), *next = malloc(bytes), *comp = malloc(bytes);
  uint8_t *on = calloc(n, 1);
  met_status_t st = index && low && stack && call && next && comp && on ? MET_OK : MET_ENOMEM;
  size_t counter = 0, sp = 0, ncomp = 0;
  for (size_t i = 0; !st && i < n; ++i) index[i] = SIZE_MAX;
  for (size_t root = 0; !st && root < n; ++root) {
    if (index[root] != SIZE_MAX) continue;
    size_t cp = 0;
    call[cp++] = root;
    index[root] = low[root] = counter++;
    next[root] = start[root];
    stack[sp++] = root;
    on[root] = 1;
    while (cp) {
      size_t v = call[cp - 1];
      if (next[v] < start[v + 1]) {
        size_t w = edge[next[v]++];
        if (index[w] == SIZE_MAX) {
          index[w] = low[w] = counter++;
          next[w] = start[w];
          stack[sp++] = w;
          on[w] = 1;
          call[cp++] = w;
        } else if (on[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      if (low[v] == index[v]) {  // v roots a component: its members are on the stack
        size_t first = sp;
        do { comp[stack[--first]] = ncomp; } while (stack[first] != v);
        size_t lv = 0;
        for (size_t k = first; k < sp; ++k) {
          size_t u = stack[k];
          for (size_t e = start[u]; e < start[u + 1]; ++e) {
            size_t w = edge[e];
            if (comp[w] != ncomp && level[w] + 1 > lv) lv = level[w] + 1;
          }
        }
        for (size_t k = first; k < sp; ++k) { level[stack[k]] = lv; on[stack[k]] = 0; }
        sp = first;
        ++ncomp;
      }
      --cp;
      if (cp && low[v] < low[call[cp - 1]]) low[call[cp - 1]] = low[v];
    }
  }
  free(index); free(low); free(stack); free(call); free(next); free(comp); free(on);
  return st;
}
