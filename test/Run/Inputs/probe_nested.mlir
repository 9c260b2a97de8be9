func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r0 = scf.for %i0 = %c0 to %c2 step %c1 iter_args(%a0 = %x) -> (tensor<4xf32>) {
    %r1 = scf.for %i1 = %c0 to %c2 step %c1 iter_args(%a1 = %a0) -> (tensor<4xf32>) {
      %r2 = scf.for %i2 = %c0 to %c2 step %c1 iter_args(%a2 = %a1) -> (tensor<4xf32>) {
        %r3 = scf.for %i3 = %c0 to %c2 step %c1 iter_args(%a3 = %a2) -> (tensor<4xf32>) {
          %r4 = scf.for %i4 = %c0 to %c2 step %c1 iter_args(%a4 = %a3) -> (tensor<4xf32>) {
            %r5 = scf.for %i5 = %c0 to %c2 step %c1 iter_args(%a5 = %a4) -> (tensor<4xf32>) {
              %r6 = scf.for %i6 = %c0 to %c2 step %c1 iter_args(%a6 = %a5) -> (tensor<4xf32>) {
                %r7 = scf.for %i7 = %c0 to %c2 step %c1 iter_args(%a7 = %a6) -> (tensor<4xf32>) {
                  %r8 = scf.for %i8 = %c0 to %c2 step %c1 iter_args(%a8 = %a7) -> (tensor<4xf32>) {
                    %r9 = scf.for %i9 = %c0 to %c2 step %c1 iter_args(%a9 = %a8) -> (tensor<4xf32>) {
                      %r10 = scf.for %i10 = %c0 to %c2 step %c1 iter_args(%a10 = %a9) -> (tensor<4xf32>) {
                        %r11 = scf.for %i11 = %c0 to %c2 step %c1 iter_args(%a11 = %a10) -> (tensor<4xf32>) {
                          %r12 = scf.for %i12 = %c0 to %c2 step %c1 iter_args(%a12 = %a11) -> (tensor<4xf32>) {
                            %r13 = scf.for %i13 = %c0 to %c2 step %c1 iter_args(%a13 = %a12) -> (tensor<4xf32>) {
                              %r14 = scf.for %i14 = %c0 to %c2 step %c1 iter_args(%a14 = %a13) -> (tensor<4xf32>) {
                                %r15 = scf.for %i15 = %c0 to %c2 step %c1 iter_args(%a15 = %a14) -> (tensor<4xf32>) {
                                  %r16 = scf.for %i16 = %c0 to %c2 step %c1 iter_args(%a16 = %a15) -> (tensor<4xf32>) {
                                    %r17 = scf.for %i17 = %c0 to %c2 step %c1 iter_args(%a17 = %a16) -> (tensor<4xf32>) {
                                      %r18 = scf.for %i18 = %c0 to %c2 step %c1 iter_args(%a18 = %a17) -> (tensor<4xf32>) {
                                        %r19 = scf.for %i19 = %c0 to %c2 step %c1 iter_args(%a19 = %a18) -> (tensor<4xf32>) {
                                          %r20 = scf.for %i20 = %c0 to %c2 step %c1 iter_args(%a20 = %a19) -> (tensor<4xf32>) {
                                            %r21 = scf.for %i21 = %c0 to %c2 step %c1 iter_args(%a21 = %a20) -> (tensor<4xf32>) {
                                              %r22 = scf.for %i22 = %c0 to %c2 step %c1 iter_args(%a22 = %a21) -> (tensor<4xf32>) {
                                                %r23 = scf.for %i23 = %c0 to %c2 step %c1 iter_args(%a23 = %a22) -> (tensor<4xf32>) {
                                                  %r24 = scf.for %i24 = %c0 to %c2 step %c1 iter_args(%a24 = %a23) -> (tensor<4xf32>) {
                                                    %r25 = scf.for %i25 = %c0 to %c2 step %c1 iter_args(%a25 = %a24) -> (tensor<4xf32>) {
                                                      %y = arith.addf %a25, %a25 : tensor<4xf32>
                                                      scf.yield %y : tensor<4xf32>
                                                    }
                                                    scf.yield %r25 : tensor<4xf32>
                                                  }
                                                  scf.yield %r24 : tensor<4xf32>
                                                }
                                                scf.yield %r23 : tensor<4xf32>
                                              }
                                              scf.yield %r22 : tensor<4xf32>
                                            }
                                            scf.yield %r21 : tensor<4xf32>
                                          }
                                          scf.yield %r20 : tensor<4xf32>
                                        }
                                        scf.yield %r19 : tensor<4xf32>
                                      }
                                      scf.yield %r18 : tensor<4xf32>
                                    }
                                    scf.yield %r17 : tensor<4xf32>
                                  }
                                  scf.yield %r16 : tensor<4xf32>
                                }
                                scf.yield %r15 : tensor<4xf32>
                              }
                              scf.yield %r14 : tensor<4xf32>
                            }
                            scf.yield %r13 : tensor<4xf32>
                          }
                          scf.yield %r12 : tensor<4xf32>
                        }
                        scf.yield %r11 : tensor<4xf32>
                      }
                      scf.yield %r10 : tensor<4xf32>
                    }
                    scf.yield %r9 : tensor<4xf32>
                  }
                  scf.yield %r8 : tensor<4xf32>
                }
                scf.yield %r7 : tensor<4xf32>
              }
              scf.yield %r6 : tensor<4xf32>
            }
            scf.yield %r5 : tensor<4xf32>
          }
          scf.yield %r4 : tensor<4xf32>
        }
        scf.yield %r3 : tensor<4xf32>
      }
      scf.yield %r2 : tensor<4xf32>
    }
    scf.yield %r1 : tensor<4xf32>
  }
  return %r0 : tensor<4xf32>
}
