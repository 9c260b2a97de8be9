// test_planner_exact_tiny.c: test_planner_exact.c's brute-force suite against the exact
// planner built with every stack of its search too small (lib/planner_exact.c,
// MET_PLAN_TINY_STACKS, set by CMake for this binary): each "no room" path (a weaker
// floor, candidates scanned for each child, the search on the whole problem instead of its
// parts, no sub-lists) is taken, and every answer must stay exact.
#define TEST_NAME "test_planner_exact_tiny"
#include "test_planner_exact.c"
