#!/bin/sh
# standin_tsan.sh DIR KIND: a stand-in TSan build for scripts/check-tsan.sh in DIR: a
# bin/metrale-opt compiled from C, as KIND says:
#   ok (instrumented: it defines __tsan_init; exits 0) | race (instrumented, prints a
#   ThreadSanitizer report and exits 66, as TSan does) | plain (not instrumented)
set -eu
dir=$1; kind=$2
rm -rf "$dir"; mkdir -p "$dir/bin"
case $kind in
  ok)    body='int main(void) { return 0; }'; sym='void __tsan_init(void) {}' ;;
  race)  body='#include <stdio.h>
int main(void) { puts("WARNING: ThreadSanitizer: data race (pid=1)"); return 66; }'; sym='void __tsan_init(void) {}' ;;
  plain) body='int main(void) { return 0; }'; sym='' ;;
esac
printf '%s\n%s\n' "$sym" "$body" > "$dir/opt.c"
${CC:-cc} -o "$dir/bin/metrale-opt" "$dir/opt.c"
