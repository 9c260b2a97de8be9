// test_planner_exact_trees.c: test_planner_exact.c's brute-force suite against the exact
// planner built with every partition's children in trees (lib/planner_exact.c,
// MET_PLAN_TINY_TREES, set by CMake for this binary; a normal build keeps trees for
// partitions of 1,024 buffers or more): both ways must give every exact answer, and the
// same search nodes.
#define TEST_NAME "test_planner_exact_trees"
#include "test_planner_exact.c"
