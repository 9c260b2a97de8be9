// A module whose metrale.limits names no field: the run fails at the module.
module attributes {metrale.limits = {arena_bytez = 5}} {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
