// IREE lit case clonable_op_used_after from compiler/src/iree/compiler/DispatchCreation/test/form_scalar_dispatches.mlir @ 13a75dc1a95d
// RUN line runs: form-scalar-dispatches alone (every op in these cases has <=1 element, so the pass alone forms all dispatches)
// expect: clonable_op_used_after=2
// cat: FormScalarDispatches; as clonable_op_in_chain, the extracted scalar also returned
// modes: (none)
#map = affine_map<() -> ()>
func.func public @clonable_op_used_after(%arg0: i32, %arg1: i1, %arg2: tensor<i32>, %arg7: i32) -> (tensor<i32>, tensor<i32>, i32) {
  %0 = linalg.generic {indexing_maps = [#map], iterator_types = []} outs(%arg2 : tensor<i32>) {
  ^bb0(%out: i32):
    %2 = arith.select %arg1, %arg7, %arg0 : i32
    linalg.yield %2 : i32
  } -> tensor<i32>
  %extracted = tensor.extract %0[] : tensor<i32>
  %1 = linalg.generic {indexing_maps = [#map], iterator_types = []} outs(%arg2 : tensor<i32>) {
  ^bb0(%out: i32):
    %2 = arith.select %arg1, %arg7, %extracted : i32
    linalg.yield %2 : i32
  } -> tensor<i32>
  return %0, %1, %extracted : tensor<i32>, tensor<i32>, i32
}
