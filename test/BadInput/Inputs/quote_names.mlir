// Op names that JSON must escape: a quote, a backslash, a tab (issue 26: `metrale dispatch
// --json` wrote the per-dispatch op names raw).
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "a\"b.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "a\\c.op"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "t\09ab.op"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
