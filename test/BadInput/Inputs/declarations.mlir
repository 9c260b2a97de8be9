// Only declarations: nothing to analyse.
func.func private @f(tensor<4xf32>) -> tensor<4xf32>
