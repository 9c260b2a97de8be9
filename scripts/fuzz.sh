#!/bin/sh
# Runs the libFuzzer harnesses of test/fuzz (issue 6) from a METRALE_FUZZ build:
#   sh scripts/fuzz.sh BUILD_DIR SECONDS CORPUS_DIR
# For each fuzzer (planner, budget, mlir): first every regression input of
# test/fuzz/crashes/<fuzzer>-* (a crash found once must stay fixed), then SECONDS of
# fuzzing (-max_total_time) from the corpus kept in BUILD_DIR/corpus-<fuzzer>, the MLIR
# fuzzer seeded from the test inputs and the smaller corpus models (scripts/fuzz-seeds.py)
# with the dictionary test/fuzz/mlir.dict. A crash, sanitizer report, leak, timeout or
# out-of-memory writes its input to BUILD_DIR/crashes/ and fails that fuzzer.
# Prints a line per fuzzer (runs, exec/s, seconds) and the tally
# "tally: fuzzers N passed, M failed" (N = fuzzers that finished with no crash), then
# "check: passed" or "check: FAILED (...)" (scripts/check-total.sh reads both).
# FUZZERS="planner budget" limits the set (`make check-fuzz` names all three).
# A fuzzer that is not built, crashes, leaves a new crash file or runs no input fails.
set -u
build=$1; seconds=$2; corpus=$3
root=$(cd "$(dirname "$0")/.." && pwd)
fuzzers=${FUZZERS:-planner budget mlir}
mkdir -p "$build/crashes" "$build/logs" "$build/upstream"
python3 "$root/scripts/fuzz-seeds.py" "$build/seeds-mlir" "$corpus" || exit 1
passed=0; failed=0
for f in $fuzzers; do
  bin="$build/bin/fuzz_$f"
  log="$build/logs/fuzz_$f.log"
  ok=1
  if [ ! -x "$bin" ]; then
    echo "FAIL: fuzz_$f: $bin is not built"
    failed=$((failed + 1)); continue
  fi
  # Regression inputs: run each once.
  regress=$(ls "$root/test/fuzz/crashes/$f-"* 2>/dev/null)
  if [ -n "$regress" ]; then
    if ! "$bin" -runs=1 $regress > "$log.regress" 2>&1; then
      ok=0
      echo "FAIL: fuzz_$f: a regression input of test/fuzz/crashes/ fails again:"
      grep -E "invariant broken|ERROR: |SUMMARY|^Running: " "$log.regress" | tail -6
    fi
  fi
  mkdir -p "$build/corpus-$f"
  extra=""
  [ "$f" = mlir ] && extra="-dict=$root/test/fuzz/mlir.dict $build/seeds-mlir"
  timeout=30; [ "$f" = mlir ] && timeout=60
  # Artifacts that fail the run (libFuzzer also writes slow-unit-* there: not a failure).
  count() { ls "$build/crashes" | grep -cE -- '-(crash|leak|timeout|oom)-'; }
  before=$(count)
  METRALE_FUZZ_UPSTREAM_DIR="$build/upstream" \
    "$bin" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$build/crashes/$f-" \
    "$build/corpus-$f" $extra > "$log" 2>&1
  rc=$?
  after=$(count)
  runs=$(awk '/^stat::number_of_executed_units:/ {print $2}' "$log")
  rate=$(awk '/^stat::average_exec_per_sec:/ {print $2}' "$log")
  note=""
  [ "$f" = mlir ] && note=", $(ls "$build/upstream" | wc -l) MLIR parser crash input(s) kept in $build/upstream (upstream, rejected)"
  if [ "$rc" -ne 0 ] || [ "$after" -ne "$before" ]; then
    ok=0
    echo "FAIL: fuzz_$f: exit $rc, $((after - before)) new file(s) in $build/crashes (log $log)"
    grep -E "invariant broken|ERROR: |SUMMARY|Test unit written" "$log" | head -8
  elif [ "${runs:-0}" -eq 0 ]; then
    # A harness that ran no input (a broken build, a stand-in) tested nothing.
    ok=0
    echo "FAIL: fuzz_$f: it ran no input in $seconds s (log $log)"
  fi
  echo "fuzz_$f: ${runs:-0} runs in ${seconds} s (${rate:-0} exec/s)$note"
  if [ "$ok" -eq 1 ]; then passed=$((passed + 1)); echo "PASS: fuzz_$f"
  else failed=$((failed + 1)); fi
done
echo "tally: fuzzers $passed passed, $failed failed"
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  echo "check: FAILED ($failed fuzzer(s) failed, $passed passed)"; exit 1
fi
echo "check: passed"
