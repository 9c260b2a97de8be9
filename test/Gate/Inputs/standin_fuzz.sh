#!/bin/sh
# standin_fuzz.sh DIR KIND: a stand-in fuzz build for scripts/fuzz.sh in DIR (bin/fuzz_*
# that print libFuzzer's final stats), as KIND says:
#   ok (each runs 5 inputs) | crash (fuzz_budget exits 1) | zero (fuzz_mlir runs none) |
#   missing (fuzz_mlir is not built)
set -eu
dir=$1; kind=$2
rm -rf "$dir"; mkdir -p "$dir/bin"
for f in planner budget mlir; do
  units=5; rc=0
  [ "$kind" = crash ] && [ "$f" = budget ] && rc=1
  [ "$kind" = zero ] && [ "$f" = mlir ] && units=0
  [ "$kind" = missing ] && [ "$f" = mlir ] && continue
  printf '#!/bin/sh\necho "stat::number_of_executed_units: %s"\necho "stat::average_exec_per_sec: 5"\nexit %s\n' \
    "$units" "$rc" > "$dir/bin/fuzz_$f"
  chmod +x "$dir/bin/fuzz_$f"
done
