#!/bin/sh
# ThreadSanitizer check (issue 6): runs a -fsanitize=thread build of metrale-opt, with its
# default multi-threaded pass manager, over the corpus models that have more than one
# function body and over a generated module of hundreds of functions, for both passes.
# A report stops the run (halt_on_error=1) and fails the check; suppressions are only the
# documented ones in test/tsan/tsan.supp (LLVM's thread pool, uninstrumented libraries).
# Prints the tally "tally: tsan-runs N passed, M failed" (one per run of a pass on a
# model), then "check: passed" or "check: FAILED (...)" (scripts/check-total.sh reads both).
#   sh scripts/check-tsan.sh BUILD_DIR CORPUS_DIR
set -u
build=$1; corpus=$2
root=$(cd "$(dirname "$0")/.." && pwd)
opt="$build/bin/metrale-opt"
supp="$root/test/tsan/tsan.supp"
nfuncs=${TSAN_FUNCTIONS:-400}
passed=0; failed=0
# A metrale-opt without ThreadSanitizer (a plain build in the TSan directory) would pass
# every run and test nothing.
if ! nm "$opt" 2>/dev/null | grep -q '__tsan_init'; then
  echo "tally: tsan-runs 0 passed, 1 failed"
  echo "check: FAILED ($opt is not built with -fsanitize=thread)"
  exit 1
fi
many="$build/tsan-many-functions.mlir"
python3 "$root/test/tsan/gen_many_functions.py" "$nfuncs" > "$many" || exit 1

inputs=""
if [ -d "$corpus" ]; then
  for f in "$corpus"/*.mlir; do
    # Function bodies: `func.func ... {` at the end of the signature line (declarations
    # have no brace). More than one: the thread pool gets more than one job.
    n=$(grep -cE '^[[:space:]]*func\.func\b.*\{[[:space:]]*$' "$f")
    [ "$n" -gt 1 ] && inputs="$inputs $f"
  done
  [ -z "$inputs" ] && echo "check-tsan: no corpus model in $corpus has more than one function body"
else
  echo "check-tsan: no corpus at $corpus: skipping the corpus models (generated module only)"
fi

# Three runs of the generated module: a race that needs an unlucky schedule gets more
# chances. Each run is one test.
for f in $inputs "$many" "$many" "$many"; do
  for pass in budget memory; do
    log="$build/tsan-$pass-$(basename "$f").log"
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$supp ${TSAN_OPTIONS:-}" \
      "$opt" "$f" --metrale-$pass -o /dev/null > "$log" 2>&1
    rc=$?
    # rc 66: TSan's exit code. Any other non-zero exit is a crash or a pass failure, which
    # the model must not have either.
    if [ "$rc" -eq 0 ] && ! grep -q "ThreadSanitizer" "$log"; then
      passed=$((passed + 1))
      echo "PASS: tsan --metrale-$pass $(basename "$f")"
    else
      failed=$((failed + 1))
      echo "FAIL: tsan --metrale-$pass $(basename "$f") (exit $rc, log $log)"
      sed -n '/WARNING: ThreadSanitizer/,/SUMMARY/p' "$log" | head -60
    fi
  done
done
echo "tally: tsan-runs $passed passed, $failed failed"
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  echo "check: FAILED ($failed run(s) failed, $passed passed)"; exit 1
fi
echo "check: passed"
