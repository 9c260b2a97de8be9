// A nested module's limits bound its functions; @g's arena is its one 1-KiB slot.
module {
  module @inner attributes {metrale.limits = {arena_bytes = 512}} {
    func.func @g(%x: tensor<256xf32>) -> tensor<256xf32> {
      %a = math.exp %x : tensor<256xf32>
      return %a : tensor<256xf32>
    }
  }
}
