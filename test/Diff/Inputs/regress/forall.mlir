// A review's probe: scf.forall with static bounds (4) runs its body 4 times: the copy and
// the exp of each slice, 2 x 4 = 8 launches, plus the copy of the argument into the
// result: 9; a 4 x f32 + 64 B buffer per iteration and the 16 x f32 result: 5 events.
func.func @f(%a: tensor<16xf32>) -> tensor<16xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %a) -> tensor<16xf32> {
    %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %s = tensor.extract_slice %o[%off] [4] [1] : tensor<16xf32> to tensor<4xf32>
    %e = tosa.exp %s : (tensor<4xf32>) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%off] [4] [1] : tensor<4xf32> into tensor<16xf32>
    }
  }
  return %r : tensor<16xf32>
}
