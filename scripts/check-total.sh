#!/bin/sh
# The gate's last step: reads the logs of the parts of `make check` (scripts/check.sh,
# fuzz.sh, check-tsan.sh) and prints what they counted, summed by kind:
#   total: unit binaries 12 passed (17000 checks), lit tests 160 passed (6 unsupported),
#          fuzzers 3 passed, tsan runs 14 passed; 0 failed
# Exits 1 when any log does not end its part with "check: passed" (a part that stopped
# early, printed no tally or failed), when any tally counts a failure, or when a log is
# missing. Each part's own exit status already stops `make check` (its recipes run under
# bash with pipefail); this is the second lock, and the one line a reader looks at.
#   sh scripts/check-total.sh LOG...
set -u
status=0
logs=""  # the logs that exist (build directory names hold no spaces)
for log in "$@"; do
  if [ ! -f "$log" ]; then
    echo "check-total: $log is missing"; status=1; continue
  fi
  logs="$logs $log"
  last=$(grep -E '^check: ' "$log" | tail -1)
  if [ "$last" != "check: passed" ]; then
    echo "check-total: $log: ${last:-no 'check:' line: the part stopped before its end}"
    status=1
  fi
done
awk -v status="$status" '
  /^tally: [a-z-]+ [0-9]+ passed, [0-9]+ failed/ {
    k = $2; p[k] += $3; f[k] += $5; failed += $5
    if (k == "lit-tests" && match($0, /\(([0-9]+) unsupported/)) {
      s = substr($0, RSTART + 1); u += s + 0
    }
    seen[k] = 1
  }
  END {
    line = ""
    if (seen["unit-binaries"]) line = line sprintf("unit binaries %d passed (%d checks)", p["unit-binaries"], p["unit-checks"])
    if (seen["lit-tests"]) line = line sprintf("%slit tests %d passed (%d unsupported)", line ? ", " : "", p["lit-tests"], u)
    if (seen["fuzzers"]) line = line sprintf("%sfuzzers %d passed", line ? ", " : "", p["fuzzers"])
    if (seen["tsan-runs"]) line = line sprintf("%stsan runs %d passed", line ? ", " : "", p["tsan-runs"])
    if (line == "") { line = "nothing counted"; failed += 0; status = 1 }
    print "total: " line "; " failed " failed"
    exit (failed > 0 || status != 0) ? 1 : 0
  }' $logs /dev/null || status=1
exit $status
