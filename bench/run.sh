#!/bin/sh
# metrale benchmarks. Prints ratios measured side by side in one run:
#  (1) metrale-opt with --metrale-budget / --metrale-memory vs without, on the largest
#      corpus model and generated graphs of 225k and 1M ops (goal <= 1.05, peak RSS at 1M
#      <= 1.15), and on 20,000 one-op functions (goal <= 1.5 in time and peak RSS);
#  (2) arena_bytes / peak_live_bytes per corpus model, for metrale's planner and for the
#      plain greedy-by-size baseline (goal: median <= 1.02, never worse than the baseline);
#  (2b) every corpus model x every target x every planner strategy: arena / lower bound
#      (goal: worst <= 1.05, median <= 1.01, best never worse than a single strategy);
#  (3) `metrale run` on the runnable corpus models: measured / predicted per field, and
#      (3b) predicted kernels beside upstream's linalg ops after its elementwise fusion.
# BENCH_ONLY=cost|scale|plan|run runs one part alone.
#   sh bench/run.sh [BUILD_DIR]
set -eu
BUILD=${1:-build}
CORPUS=${CORPUS:-../shared/corpus}
exec python3 "$(dirname "$0")/bench.py" "$BUILD" "$CORPUS"
