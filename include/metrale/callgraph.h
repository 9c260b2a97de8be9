// metrale/callgraph.h: the order in which a module's functions are analysed, so that a
// call can use its callee's finished report (passes/jobs.c runs one round per level).
// Pure: plain arrays in, plain arrays out. Thread-safe: all state is in the arguments.
#ifndef METRALE_CALLGRAPH_H
#define METRALE_CALLGRAPH_H

#include <stddef.h>

#include "metrale/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Levels of a call graph of |n| functions given as adjacency lists (CSR): the callees of
// function i are edge[start[i] .. start[i + 1]), each < n (start has n + 1 entries).
// A function's level is one more than the highest level among its callees outside its
// own strongly connected component (a cycle of calls, or a function calling itself), 0
// when it has none: callees come in earlier levels, the members of a cycle share one.
// Tarjan's algorithm, iterative (a chain of 100,000 calls must not exhaust the stack): it
// finishes each component after every component it reaches, the order levels need.
// O(n + edges) time, 6n words of scratch from malloc. Writes |level| (n entries).
// MET_EINVAL for an edge >= n; MET_ENOMEM.
met_status_t met_callgraph_levels(size_t n, const size_t *start, const size_t *edge,
                                  size_t *level);

#ifdef __cplusplus
}
#endif

#endif
