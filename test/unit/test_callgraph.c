// test_callgraph.c: met_callgraph_levels (metrale/callgraph.h) on hand-worked call graphs,
// a chain too deep for recursion, bad edges, and random graphs against the definition
// computed the slow way (components from the transitive closure, levels by fixpoint).
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "metrale/callgraph.h"

// Builds CSR arrays from |m| (from, to) pairs over |n| functions.
static void csr(size_t n, const size_t (*pairs)[2], size_t m, size_t *start, size_t *edge) {
  memset(start, 0, (n + 1) * sizeof(size_t));
  for (size_t k = 0; k < m; ++k) start[pairs[k][0] + 1]++;
  for (size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  size_t fill[64];
  memcpy(fill, start, n * sizeof(size_t));
  for (size_t k = 0; k < m; ++k) edge[fill[pairs[k][0]]++] = pairs[k][1];
}

static void levels_of(size_t n, const size_t (*pairs)[2], size_t m, size_t *level) {
  size_t start[65], edge[256];
  csr(n, pairs, m, start, edge);
  CHECK(met_callgraph_levels(n, start, edge, level) == MET_OK);
}

static void test_hand_worked(void) {
  size_t level[8];
  CHECK(met_callgraph_levels(0, (size_t[]){0}, NULL, level) == MET_OK);
  // A chain: 0 calls 1 calls 2. 2 calls nothing: 0; 1: 0 + 1; 0: 1 + 1.
  levels_of(3, (const size_t[][2]){{0, 1}, {1, 2}}, 2, level);
  CHECK_EQ_U64(level[0], 2); CHECK_EQ_U64(level[1], 1); CHECK_EQ_U64(level[2], 0);
  // A cycle 0 <-> 1 and 2 calling 0: {0, 1} one component with no callee outside: 0;
  // 2: 0 + 1.
  levels_of(3, (const size_t[][2]){{0, 1}, {1, 0}, {2, 0}}, 3, level);
  CHECK_EQ_U64(level[0], 0); CHECK_EQ_U64(level[1], 0); CHECK_EQ_U64(level[2], 1);
  // A function calling itself is its own component: 0; its caller 1.
  levels_of(2, (const size_t[][2]){{0, 0}, {1, 0}}, 2, level);
  CHECK_EQ_U64(level[0], 0); CHECK_EQ_U64(level[1], 1);
  // A diamond 0 -> {1, 2} -> 3: 3 is 0, 1 and 2 are 1, 0 is 2.
  levels_of(4, (const size_t[][2]){{0, 1}, {0, 2}, {1, 3}, {2, 3}}, 4, level);
  CHECK_EQ_U64(level[0], 2); CHECK_EQ_U64(level[1], 1); CHECK_EQ_U64(level[2], 1);
  CHECK_EQ_U64(level[3], 0);
  // A cycle {1, 2} that calls 3, called by 0: 3 is 0; 1 and 2 share 0 + 1; 0 is 2.
  levels_of(4, (const size_t[][2]){{0, 1}, {1, 2}, {2, 1}, {2, 3}}, 4, level);
  CHECK_EQ_U64(level[0], 2); CHECK_EQ_U64(level[1], 1); CHECK_EQ_U64(level[2], 1);
  CHECK_EQ_U64(level[3], 0);
  // Unconnected functions are all 0.
  levels_of(3, NULL, 0, level);
  CHECK_EQ_U64(level[0] + level[1] + level[2], 0);
}

static void test_bad_and_deep(void) {
  size_t level[2], start[3] = {0, 1, 1}, bad[1] = {2};
  CHECK(met_callgraph_levels(2, start, bad, level) == MET_EINVAL);  // callee 2 of 2
  // A chain of 100,000 calls (i calls i + 1): level[i] = 99,999 - i, no recursion.
  enum { N = 100000 };
  size_t *s = malloc((N + 1) * sizeof(size_t)), *e = malloc(N * sizeof(size_t));
  size_t *lv = malloc(N * sizeof(size_t));
  if (!s || !e || !lv) { CHECK(false); free(s); free(e); free(lv); return; }
  for (size_t i = 0; i <= N; ++i) s[i] = i < N ? i : N - 1;
  for (size_t i = 0; i + 1 < N; ++i) e[i] = i + 1;
  CHECK(met_callgraph_levels(N, s, e, lv) == MET_OK);
  CHECK_EQ_U64(lv[0], N - 1);
  CHECK_EQ_U64(lv[N / 2], N - 1 - N / 2);
  CHECK_EQ_U64(lv[N - 1], 0);
  free(s); free(e); free(lv);
}

// The definition, the slow way: i and j share a component when each reaches the other
// (closure by Warshall); a component's level is 1 + the largest level of a callee of one
// of its members in another component, iterated to its fixpoint (the components form a
// DAG: n + 1 rounds suffice).
static void test_random_against_definition(void) {
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  int mismatches = 0;
  for (int round = 0; round < 400; ++round) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    size_t n = 1 + (seed >> 33) % 12, m = 0;
    size_t pairs[64][2];
    bool reach[12][12] = {{false}};
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        if ((seed >> 40) % 100 < 18 && m < 64) {
          pairs[m][0] = i; pairs[m][1] = j; ++m;
          reach[i][j] = true;
        }
      }
    for (size_t k = 0; k < n; ++k)
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) reach[i][j] |= reach[i][k] && reach[k][j];
    size_t want[12] = {0};
    for (size_t it = 0; it < n + 1; ++it) {
      for (size_t k = 0; k < m; ++k) {
        size_t a = pairs[k][0], b = pairs[k][1];
        bool same = a == b || (reach[a][b] && reach[b][a]);
        if (!same && want[b] + 1 > want[a]) want[a] = want[b] + 1;
      }
      for (size_t i = 0; i < n; ++i)  // a component's members share its highest level
        for (size_t j = 0; j < n; ++j)
          if (reach[i][j] && reach[j][i] && want[j] > want[i]) want[i] = want[j];
    }
    size_t got[12];
    levels_of(n, (const size_t(*)[2])pairs, m, got);
    for (size_t i = 0; i < n; ++i) mismatches += got[i] != want[i];
  }
  CHECK_EQ_U64(mismatches, 0);
}

int main(void) {
  test_hand_worked();
  test_bad_and_deep();
  test_random_against_definition();
  return check_finish("test_callgraph");
}
