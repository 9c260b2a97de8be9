// Class 6 in the memory model: a loop body that holds two 8 GiB tensors at once needs
// 16 GiB, which does not fit a 4 GiB device (the report used to say it fits, on 256 B).
// RUN: metrale-opt %s --metrale-memory="target=mobile-gpu-f32 rows=0" -verify-diagnostics -o /dev/null

// Body: %a = %acc + %acc (2^31 f32 = 8 GiB), %b = transpose(%a), %c = %b + %a, each a
// program of its own (TF.js's WebGL backend): %a, %b and %c live together when %c is
// computed, 24 GiB of scratch at the loop. The loop's result (8 GiB) is live with the
// scratch: activations 32 GiB (needs 32 GiB + the 64 MiB context = 32.1 GiB against 2).
// expected-remark-re @below {{{{[[:<:]]}}1 unmarked float argument(s) between #0 and #0 (8589934592 bytes) are counted as host inputs}}
// expected-error @below {{the model does not fit mobile-gpu-f32: needs 32.1 GiB, budget 2.0 GiB, over by 30.1 GiB; largest terms: activations 32.0 GiB, driver 64.0 MiB}}
func.func @loop(%x: tensor<2147483648xf32>, %n: index) -> tensor<2147483648xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-warning @below {{the body of 'scf.for' runs 3 dispatch(es) of its own each time, and how often it runs is not known before it does}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<2147483648xf32>) {
    %a = arith.addf %acc, %acc : tensor<2147483648xf32>
    %e = tensor.empty() : tensor<2147483648xf32>
    %b = linalg.transpose ins(%a : tensor<2147483648xf32>) outs(%e : tensor<2147483648xf32>) permutation = [0]
    %c = arith.addf %b, %a : tensor<2147483648xf32>
    scf.yield %c : tensor<2147483648xf32>
  }
  return %r : tensor<2147483648xf32>
}
