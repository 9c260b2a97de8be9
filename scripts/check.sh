#!/bin/sh
# Runs the C unit tests and the lit suite against one build directory and prints one
# tally line at the end: "check: N passed, M failed" (unit checks + lit tests).
#   sh scripts/check.sh BUILD_DIR CORPUS_DIR [extra lit args...]
set -u
build=$1; corpus=$2; shift 2
log=$(mktemp)
status=0
for t in "$build"/bin/test_*; do
  "$t" | tee -a "$log" || status=1
done
tools=$(cat "$build/llvm-tools-dir.txt")  # written by CMake: the LLVM the build used
"$tools/lit" -sv --param build_dir="$(cd "$build" && pwd)" --param corpus="$corpus" \
  "$@" test | tee -a "$log" || status=1
# Unit tests print "name: N passed, M failed"; lit prints "  Passed: N (..%)" or
# "  Passed     : N (..%)" and likewise "Failed".
count='
  / passed, [0-9]+ failed$/ { p += $(NF-3); f += $(NF-1) }
  /^ *Passed *:/ { s = $0; sub(/^ *Passed *: */, "", s); p += s + 0 }
  /^ *Failed *:/ { s = $0; sub(/^ *Failed *: */, "", s); f += s + 0 }'
passed=$(awk "$count END { print p + 0 }" "$log")
failed=$(awk "$count END { print f + 0 }" "$log")
rm -f "$log"
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "check: $passed passed, $failed failed"
exit $status
