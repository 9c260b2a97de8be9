#!/bin/sh
# standin.sh DIR UNIT LIT FLOOR: a stand-in checkout and build for scripts/check.sh, in
# DIR/root (the script itself, test/unit/test_a.c, test/lit.floor) and DIR/build (the unit
# binary and a lit, as the kinds below say). gate.test runs check.sh on it.
#   UNIT: ok (tally, exit 0) | abort (tally, then SIGABRT) | silent (no tally, exit 0) |
#         failing (a failed check, exit 1) | two (two tallies) | missing (not built)
#   LIT:  ok (2 found, 2 passed; it prints the LIT_OPTS it was given) | exit2 (no output,
#         exit 2) | failed0 (a failure, exit 0) | one (1 found: below a floor of 2) |
#         nosum (exit 0, no summary) | xfail (an expected failure) | slow (a test that
#         needs `slow` unsupported) | chromium (one that needs `chromium` unsupported) |
#         badjson (ok, and it leaves a JSON file that does not parse in build/test)
set -eu
dir=$1; unit=$2; lit=$3; floor=$4
src=$(cd "$(dirname "$0")/../../.." && pwd)
rm -rf "$dir"; mkdir -p "$dir/root/scripts" "$dir/root/test/unit" "$dir/build/bin" "$dir/tools"
cp "$src/scripts/check.sh" "$src/scripts/check-outputs.py" "$dir/root/scripts/"
: > "$dir/root/test/unit/test_a.c"
printf '# floor\n%s\n' "$floor" > "$dir/root/test/lit.floor"
echo "$dir/tools" > "$dir/build/llvm-tools-dir.txt"
b="$dir/build/bin/test_a"
case $unit in
  ok)      printf '#!/bin/sh\necho "test_a: 3 passed, 0 failed"\n' > "$b" ;;
  abort)   printf '#!/bin/sh\necho "test_a: 3 passed, 0 failed"\nkill -ABRT $$\n' > "$b" ;;
  silent)  printf '#!/bin/sh\necho "all good"\n' > "$b" ;;
  failing) printf '#!/bin/sh\necho "test_a: 2 passed, 1 failed"\nexit 1\n' > "$b" ;;
  two)     printf '#!/bin/sh\necho "test_a: 3 passed, 0 failed"\necho "test_a: 3 passed, 0 failed"\n' > "$b" ;;
  missing) b="" ;;
esac
[ -n "$b" ] && chmod +x "$b"
l="$dir/tools/lit"
case $lit in
  ok)      printf '#!/bin/sh\necho "LIT_OPTS=[$LIT_OPTS]"\necho "Total Discovered Tests: 2"\necho "  Passed: 2 (100.00%%)"\n' > "$l" ;;
  exit2)   printf '#!/bin/sh\nexit 2\n' > "$l" ;;
  badjson) mkdir -p "$dir/build/test/X/Output"
           printf '{"ops": "a"b.op"}\n' > "$dir/build/test/X/Output/d.json"
           printf '{"ok": 1}\n' > "$dir/build/test/X/Output/e.json"
           printf '#!/bin/sh\necho "Total Discovered Tests: 2"\necho "  Passed: 2 (100.00%%)"\n' > "$l" ;;
  failed0) printf '#!/bin/sh\necho "Total Discovered Tests: 2"\necho "  Passed: 1 (50.00%%)"\necho "  Failed: 1 (50.00%%)"\n' > "$l" ;;
  one)     printf '#!/bin/sh\necho "Total Discovered Tests: 1"\necho "  Passed: 1 (100.00%%)"\n' > "$l" ;;
  nosum)   printf '#!/bin/sh\necho "lit.cfg.py: nothing here"\n' > "$l" ;;
  xfail)   printf '#!/bin/sh\necho "Total Discovered Tests: 2"\necho "  Passed: 1 (50.00%%)"\necho "  Expectedly Failed: 1 (50.00%%)"\n' > "$l" ;;
  slow|chromium|corpus)
    mkdir -p "$dir/root/test/S"
    printf 'REQUIRES: %s\n' "$lit" > "$dir/root/test/S/t.test"
    printf '#!/bin/sh\necho "UNSUPPORTED: metrale :: S/t.test (1 of 2)"\necho "Total Discovered Tests: 2"\necho "  Unsupported: 1 (50.00%%)"\necho "  Passed: 1 (50.00%%)"\n' > "$l" ;;
esac
chmod +x "$l"
