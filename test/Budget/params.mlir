// params= and states= apply to entry functions (public ones) unless an "@NAME:" item names
// a function (passes/ir/params.h). Inputs/entry_callee.mlir: public @main(%w, %x) calls
// private @helper(%a) with an activation. Every tensor is 256 x f32 = 1024 B.
//
// params=0: @main's %w is a parameter (param_bytes 1024; host I/O %x 1024 + the result
// 1024 = 2048). @helper's %a is what @main passes, not a parameter: it stays an input
// (host I/O 1024 + 1024 = 2048, param_bytes 0); before, params=0 made it one.
// RUN: metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="target=host-cpu params=0 op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=ENTRY
// ENTRY-LABEL: func.func @main
// ENTRY-SAME: host_io_bytes = 2048 : i64
// ENTRY-SAME: param_bytes = 1024 : i64
// ENTRY-LABEL: func.func private @helper
// ENTRY-SAME: host_io_bytes = 2048 : i64
// ENTRY-SAME: param_bytes = 0 : i64
//
// An item naming a function replaces the entry item for it ("@main:1": %x, not %w), and
// one naming the private callee applies, with a warning at it. The warning is earned:
// @main's param_bytes is then its %x 1024 plus the 1024 of "parameters" its call reads in
// @helper, an activation counted as a weight.
// RUN: metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="target=host-cpu params=0;@main:1;@helper:0 op-remarks=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: entry_callee.mlir:6:1: warning: params= names @helper, which is not an entry function (it is not public): its arguments are what its callers pass, so the selection may contradict them
// RUN: metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="target=host-cpu params=0;@main:1;@helper:0 op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=NAMED
// NAMED-LABEL: func.func @main
// NAMED-SAME: param_bytes = 2048 : i64
// NAMED-LABEL: func.func private @helper
// NAMED-SAME: host_io_bytes = 1024 : i64
// NAMED-SAME: param_bytes = 1024 : i64
// RUN: metrale budget %S/Inputs/entry_callee.mlir --params '@main:1' --json - 2>/dev/null | %python -c "import json,sys; print([(f['name'], [a['role'] for a in f['arguments']]) for f in json.load(sys.stdin)['functions']])" | FileCheck %s --check-prefix=CLI
// CLI: [('main', ['input', 'parameter']), ('helper', ['input'])]
//
// An index past a function's last argument selects nothing there: a warning at the
// function, the rest of the selection still applies (@main: %w by "0", so param_bytes
// stays 1024). @main has 2 arguments, @helper 1.
// RUN: metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="target=host-cpu params=0,99-101;@helper:5- op-remarks=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: entry_callee.mlir:1:1: warning: params= selects arguments #99 to #101, but @main has 2 arguments: that item selects nothing here
// PAST: entry_callee.mlir:6:1: warning: params= selects arguments #5 and later, but @helper has 1 argument: that item selects nothing here
// RUN: metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="target=host-cpu params=0,99-101;@helper:5- op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=PASTIR
// PASTIR-LABEL: func.func @main
// PASTIR-SAME: param_bytes = 1024 : i64
// RUN: metrale-opt %S/Inputs/entry_callee.mlir --metrale-memory="target=h100 states=7" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASTSTATE
// PASTSTATE: entry_callee.mlir:1:1: warning: states= selects argument #7, but @main has 2 arguments: that item selects nothing here
// RUN: metrale budget %S/Inputs/entry_callee.mlir --params 99 2>&1 >/dev/null | FileCheck %s --check-prefix=PASTCLI
// PASTCLI: warning: params= selects argument #99, but @main has 2 arguments: that item selects nothing here
//
// Bad items: each a located error at the module, naming the option and the reason.
// RUN: not metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="params=@nope:0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPE
// NOPE: error: invalid params='@nope:0': no function @nope
// RUN: not metrale-opt %S/Inputs/entry_callee.mlir --metrale-memory="states=0;;1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: invalid states='0;;1': an empty item between ';'
// RUN: not metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="params=@main" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLON
// COLON: error: invalid params='@main': expected ':' after the function name (@NAME:SELECTION)
// RUN: not metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="params=0;1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: invalid params='0;1': two items without a function name
// RUN: not metrale-opt %S/Inputs/entry_callee.mlir --metrale-dispatch="params=@main:0;@main:1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUP
// DUP: error: invalid params='@main:0;@main:1': two items name one function
// RUN: not metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="params=@:0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONAME
// NONAME: error: invalid params='@:0': an empty function name
// An empty selection after the name is refused (a hostile review's '@f:'); "none" is how
// one says none: @main's %w (256 x f32, 1,024 B with "@main:0") is no parameter, 0 B.
// RUN: not metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="params=@main:" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSEL
// NOSEL: error: invalid params='@main:': an empty selection after ':' ('@NAME:none' selects none)
// RUN: metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="params=@main:none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SELNONE
// SELNONE: metrale.budget @main {{.*}} param_bytes=0 {{.*}}
// RUN: not metrale-opt %S/Inputs/entry_callee.mlir --metrale-budget="params=@main:x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEL
// SEL: error: invalid params='@main:x': expected an argument index
//
// Nested functions are named by their symbol path (issue 26: "@f:0" selected both @f and
// @inner::@f, and the nested one could not be named alone). Inputs/nested_params.mlir:
// "@f:0" makes the top @f's %w a parameter (param_bytes 1024) and leaves @inner::@f's an
// input (param_bytes 0, host I/O %w + %x + result = 3072); "@inner::@f:0" the reverse.
// RUN: metrale budget %S/Inputs/nested_params.mlir --params '@f:0' --json - 2>/dev/null | %python -c "import json,sys; print([(f['name'], f['budget']['param_bytes'], f['budget']['host_io_bytes']) for f in json.load(sys.stdin)['functions']])" | FileCheck %s --check-prefix=TOPF
// TOPF: [('f', 1024, 2048), ('inner::@f', 0, 3072)]
// RUN: metrale budget %S/Inputs/nested_params.mlir --params '@inner::@f:0' --json - 2>/dev/null | %python -c "import json,sys; print([(f['name'], f['budget']['param_bytes'], f['budget']['host_io_bytes']) for f in json.load(sys.stdin)['functions']])" | FileCheck %s --check-prefix=INNERF
// INNERF: [('f', 0, 3072), ('inner::@f', 1024, 2048)]
// A name that is only a nested function's is not the top module's; the error gives the
// path (the top @f renamed @top here):
// RUN: sed 's/^  func.func @f(/  func.func @top(/' %S/Inputs/nested_params.mlir > %t.mlir
// RUN: not metrale-opt %t.mlir --metrale-budget="params=@f:0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTNO
// NESTNO: error: invalid params='@f:0': no function @f in the top module; a nested function is named by its path: @inner::@f
// RUN: not metrale-opt %S/Inputs/nested_params.mlir --metrale-budget="params=@inner:0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTFN
// NOTFN: error: invalid params='@inner:0': no function @inner
// RUN: not metrale-opt %S/Inputs/nested_params.mlir --metrale-budget="params=@inner::f:0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADPATH
// BADPATH: error: invalid params='@inner::f:0': a nested function is named by its path, @OUTER::@NAME
