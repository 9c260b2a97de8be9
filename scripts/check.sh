#!/bin/sh
# Runs the C unit tests and the lit suite against one build directory: one part of
# `make check`. POSIX sh (make starts it with sh, which is dash on Debian: no pipefail),
# so no status is ever read through a pipe: each program's own exit status is written to
# a file beside its output and read from there.
#   sh scripts/check.sh BUILD_DIR CORPUS_DIR [extra lit args...]
#
# A part passes only when all of these hold (each is a test in test/Gate/gate.test):
# - every unit binary the sources name (test/unit/test_*.c) is built, exits 0 and prints
#   exactly one tally "test_X: N passed, 0 failed" with N >= 1: one that aborts after its
#   tally, prints none or prints a failure fails the part;
# - lit exits 0 and prints its summary, no test failed, timed out, was unresolved,
#   passed unexpectedly, failed expectedly or was excluded (LIT_OPTS and the LIT_XFAIL
#   and LIT_FILTER variables are unset first), every test it skipped is one this build
#   may skip (below), and it found at least as many tests as test/lit.floor says (a lit
#   that exits 2 on a configuration error, or that lost half the suite, fails).
# The last lines are the tallies, each saying what it counts:
#   tally: unit-binaries P passed, F failed
#   tally: unit-checks P passed, F failed
#   tally: lit-tests P passed, F failed (U unsupported, D found, floor L)
#   check: passed   |   check: FAILED (the reasons)
set -u
build=$1; corpus=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
reasons=""
fail() { reasons="$reasons${reasons:+; }$1"; }

# Runs "$@" with its output shown and kept in $work/out, its status in $work/rc.
run() {
  { "$@"; echo $? > "$work/rc"; } 2>&1 | tee "$work/out"
}

# Unit binaries: the sources say which must exist.
bins_passed=0; bins_failed=0; checks_passed=0; checks_failed=0
for src in "$root"/test/unit/test_*.c; do
  [ -e "$src" ] || continue
  name=$(basename "$src" .c)
  bin="$build/bin/$name"
  if [ ! -x "$bin" ]; then
    echo "FAIL: $name: $bin is not built"
    bins_failed=$((bins_failed + 1)); fail "$name not built"; continue
  fi
  echo 1 > "$work/rc"
  run "$bin"
  rc=$(cat "$work/rc")
  # The tally line "test_X: N passed, M failed", exactly once.
  tallies=$(grep -cE "^$name: [0-9]+ passed, [0-9]+ failed\$" "$work/out")
  p=$(sed -nE "s/^$name: ([0-9]+) passed, ([0-9]+) failed\$/\1/p" "$work/out" | tail -1)
  f=$(sed -nE "s/^$name: ([0-9]+) passed, ([0-9]+) failed\$/\2/p" "$work/out" | tail -1)
  checks_passed=$((checks_passed + ${p:-0})); checks_failed=$((checks_failed + ${f:-0}))
  why=""
  [ "$rc" -ne 0 ] && why="exit status $rc"
  [ "$tallies" -ne 1 ] && why="$why${why:+, }$tallies tally lines (one expected)"
  [ "${f:-0}" -ne 0 ] && why="$why${why:+, }$f check(s) failed"
  [ "${p:-0}" -eq 0 ] && why="$why${why:+, }no check passed"
  if [ -n "$why" ]; then
    echo "FAIL: $name: $why"
    bins_failed=$((bins_failed + 1)); fail "$name: $why"
  else
    bins_passed=$((bins_passed + 1))
  fi
done
[ $((bins_passed + bins_failed)) -eq 0 ] && fail "no unit test sources in $root/test/unit"

# lit. Its summary counts each result code on a line "  Passed: N (x%)" (older lits
# pad "Passed     : N"); "Total Discovered Tests: N" is what it found.
lit_passed=0; lit_failed=0; lit_unsup=0; found=0
floor=$(sed -n 's/^\([0-9][0-9]*\)$/\1/p' "$root/test/lit.floor" 2>/dev/null | head -1)
tools=$(cat "$build/llvm-tools-dir.txt" 2>/dev/null)  # written by CMake: the LLVM the build used
if [ -z "$tools" ] || [ ! -x "$tools/lit" ]; then
  fail "no lit: $build/llvm-tools-dir.txt names '${tools:-nothing}'"
else
  # What a user's environment may tell lit (LIT_OPTS=--xfail=..., LIT_FILTER_OUT=...)
  # would turn failures into expected ones or leave tests out: the gate runs them all.
  unset LIT_OPTS LIT_XFAIL LIT_XFAIL_NOT LIT_FILTER LIT_FILTER_OUT
  echo 1 > "$work/rc"
  run "$tools/lit" -sv --show-unsupported --param build_dir="$(cd "$build" && pwd)" \
    --param corpus="$corpus" "$@" "$root/test"
  rc=$(cat "$work/rc")
  count() {  # the number on lit's summary line for result code $1, 0 if absent
    awk -v k="$1" '{ s = $0; sub(/^ */, "", s) }
      index(s, k) == 1 { s = substr(s, length(k) + 1); if (s ~ /^ *: *[0-9]/) { sub(/^ *: */, "", s); n = s + 0 } }
      END { print n + 0 }' "$work/out"
  }
  found=$(sed -nE 's/^Total Discovered Tests: ([0-9]+)$/\1/p' "$work/out" | tail -1)
  found=${found:-0}
  # The suite marks no test XFAIL and excludes none: an expected failure or an excluded
  # test can only come from outside, and counts as failed.
  lit_passed=$(( $(count Passed) + $(count "Passed With Retry") ))
  lit_unsup=$(( $(count Unsupported) + $(count Skipped) ))
  lit_failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") + $(count "Unexpectedly Passed") + $(count "Expectedly Failed") + $(count Excluded) ))
  # An unsupported test must be one that this build or machine is allowed to skip: the
  # slow runs always, the corpus tests when the corpus is absent, the plain-build tests
  # in a sanitized build. Any other (the SARIF validator or Chromium missing, the corpus
  # present but its tests skipped) fails the part: a test that quietly stops running is
  # a test that cannot fail.
  allowed="slow"
  [ -d "$corpus" ] || allowed="$allowed corpus"
  [ -d "$corpus/../gpu-reference" ] || allowed="$allowed gpu-reference"
  case " $* " in *sanitized=1*) allowed="$allowed plain-build" ;; esac
  sed -n 's/^UNSUPPORTED: .* :: \(.*\) ([0-9]* of [0-9]*)$/\1/p' "$work/out" > "$work/unsup"
  : > "$work/unexplained"
  while read -r t; do
    feats=$(sed -n 's@^[/# ]*REQUIRES: *@@p' "$root/test/$t" 2>/dev/null | tr ',' ' ')
    ok=0
    for f in $feats; do
      case " $allowed " in *" $f "*) ok=1 ;; esac
    done
    [ "$ok" -eq 1 ] || echo "$t (needs: ${feats:-nothing})" >> "$work/unexplained"
  done < "$work/unsup"
  if [ -s "$work/unexplained" ]; then
    fail "lit skipped tests this machine should run: $(tr '\n' ';' < "$work/unexplained" | sed 's/;$//; s/;/; /g')"
  fi
  [ -d "$corpus" ] || echo "check: the corpus at '$corpus' is absent: its tests are skipped (UNSUPPORTED)"
  [ "$rc" -ne 0 ] && fail "lit exit status $rc"
  [ "$found" -eq 0 ] && fail "lit printed no summary"
  [ "$lit_failed" -ne 0 ] && fail "$lit_failed lit test(s) failed"
  if [ -z "$floor" ]; then
    fail "test/lit.floor holds no number"
  elif [ "$found" -lt "$floor" ]; then
    fail "lit found $found tests, fewer than test/lit.floor's $floor"
  fi
  [ $((lit_passed + lit_unsup + lit_failed)) -ne "$found" ] && [ "$found" -ne 0 ] &&
    fail "lit's counts ($lit_passed passed, $lit_unsup unsupported, $lit_failed failed) do not add up to the $found it found"
fi

# Every machine-readable file the suite wrote (JSON, SARIF, SVG, CSV under the build's
# test folder) must parse: a writer that breaks its format fails here even where no test
# reads that file back.
if [ -d "$build/test" ]; then
  echo 1 > "$work/rc"
  run python3 "$root/scripts/check-outputs.py" "$build/test"
  rc=$(cat "$work/rc")
  [ "$rc" -ne 0 ] && fail "$(tail -1 "$work/out" | sed 's/^outputs: //')"
fi

echo "tally: unit-binaries $bins_passed passed, $bins_failed failed"
echo "tally: unit-checks $checks_passed passed, $checks_failed failed"
echo "tally: lit-tests $lit_passed passed, $lit_failed failed ($lit_unsup unsupported, $found found, floor ${floor:-none})"
if [ -n "$reasons" ]; then
  echo "check: FAILED ($reasons)"
  exit 1
fi
echo "check: passed"
