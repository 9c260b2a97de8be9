#!/bin/sh
# standin_layers.sh DIR: a stand-in tree and build for scripts/check-layers.py in DIR:
# lib/a.c and lib/b.c call each other, lib/b.c calls passes/ir/up.c (up the layers),
# lib/dup.c and passes/ir/up.c both define met_dup, passes/ir/lost.c is not built, the
# plugin defines an ExecutionEngine symbol, and so does metrale-opt, stripped (only its
# dynamic symbol table holds it); a core header includes the MLIR C API, and an adapter
# header reads the target's fusion model (by name, by its dispatch model's address, and
# through a copy of the target); lib/a.c holds a function of 130 lines.
set -eu
dir=$1
rm -rf "$dir"; mkdir -p "$dir/root/lib" "$dir/root/passes/ir" "$dir/build/lib" \
  "$dir/build/CMakeFiles/metrale_core.dir/lib" "$dir/build/CMakeFiles/metrale_mlir.dir/passes/ir"
printf 'int met_b(void);\nint met_a(void) { return met_b(); }\n' > "$dir/root/lib/a.c"
{ printf 'int met_long(void) {\n  int x = 0;\n'; i=0; while [ $i -lt 126 ]; do printf '  x += %d;\n' $i; i=$((i + 1)); done; printf '  return x;\n}\n'; } >> "$dir/root/lib/a.c"
printf 'int met_a(void);\nint met_up(void);\nint met_b(void) { return met_a() + met_up(); }\n' > "$dir/root/lib/b.c"
printf 'int met_up(void) { return 1; }\nint met_dup(void) { return 1; }\n' > "$dir/root/passes/ir/up.c"
printf 'int met_dup(void) { return 2; }\n' > "$dir/root/lib/dup.c"
printf 'int met_lost(void) { return 3; }\n' > "$dir/root/passes/ir/lost.c"
mkdir -p "$dir/root/include/metrale"
printf '#include <stdint.h>\n#include "mlir-c/IR.h"\n' > "$dir/root/include/metrale/leak.h"
mkdir -p "$dir/root/passes/adapter"
printf '// t->fusion in a comment is no read\nstatic inline int iree(const T *t) { return t->fusion == MET_FUSION_IREE; }\nstatic inline const D *model(const T *t) { return &t->dispatch; }\nstatic inline int own(T t) { return t.fusion; }\nstatic inline int epi(const T *t) { return t->hoists_parameters; }\nstatic inline int fast(const T *t) { return met_target_is_fast(t, "x"); }\n' > "$dir/root/passes/adapter/rule.h"
# The target's own fields are read off the real target.h (a field no other struct has).
cp "$(dirname "$0")/../../../include/metrale/target.h" "$dir/root/include/metrale/target.h"
cc=${CC:-cc}
$cc -c "$dir/root/lib/a.c" -o "$dir/build/CMakeFiles/metrale_core.dir/lib/a.c.o"
$cc -c "$dir/root/lib/b.c" -o "$dir/build/CMakeFiles/metrale_core.dir/lib/b.c.o"
$cc -c "$dir/root/passes/ir/up.c" -o "$dir/build/CMakeFiles/metrale_mlir.dir/passes/ir/up.c.o"
$cc -c "$dir/root/lib/dup.c" -o "$dir/build/CMakeFiles/metrale_core.dir/lib/dup.c.o"
printf 'int mlirExecutionEngineCreate(void) { return 0; }\n' > "$dir/ee.c"
$cc -shared -fPIC "$dir/ee.c" -o "$dir/build/lib/MetralePlugin.so"
mkdir -p "$dir/build/bin"
$cc -shared -fPIC "$dir/ee.c" -o "$dir/build/bin/metrale-opt"
strip --strip-all "$dir/build/bin/metrale-opt"
