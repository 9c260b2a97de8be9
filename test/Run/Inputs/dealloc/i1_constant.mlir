// An i1 constant: ownership-based deallocation's own true/false merge with it under
// canonicalize, which leaves the survivor an unknown location (review's t36).
#id = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<4xi1>) -> tensor<4xi1> {
  %t = arith.constant true
  %e = tensor.empty() : tensor<4xi1>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xi1>) outs(%e : tensor<4xi1>) {
  ^bb0(%a: i1, %o: i1):
    %s = arith.xori %a, %t : i1
    linalg.yield %s : i1
  } -> tensor<4xi1>
  return %1 : tensor<4xi1>
}
