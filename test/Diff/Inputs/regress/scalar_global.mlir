// Issue 24's probe: a scalar ml_program.global beside a function made `metrale run` die
// with SIGSEGV. The immutable scalar becomes a constant (unused: erased); the mutable
// tensor counter a memref.global that one generic (the addi) reads and writes in place;
// the addf a generic writing a fresh 16 + 64 B buffer: 2 launches, 1 event, 80 bytes.
module {
  ml_program.global private @s(0 : i32) : i32
  ml_program.global private mutable @count(dense<0> : tensor<i32>) : tensor<i32>
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %s = ml_program.global_load_const @s : i32
    %c = ml_program.global_load @count : tensor<i32>
    %one = arith.constant dense<1> : tensor<i32>
    %n = arith.addi %c, %one : tensor<i32>
    ml_program.global_store @count = %n : tensor<i32>
    %y = arith.addf %x, %x : tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
