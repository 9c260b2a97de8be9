// What MLIR 22's ownership-based deallocation emits, as written by
//   mlir-opt --one-shot-bufferize="bufferize-function-boundaries=1
//     function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline
// from a function whose scf.if yields either a buffer it did not allocate or one it did
// (the source is the comment at the end). Read by test/Budget/dealloc.mlir.
module {
  func.func @f(%arg0: i1, %arg1: memref<1024xf32>) -> memref<1024xf32> {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
    linalg.map { math.exp } ins(%arg1 : memref<1024xf32>) outs(%alloc : memref<1024xf32>)
    %0 = arith.xori %arg0, %true : i1
    %1 = scf.if %arg0 -> (memref<1024xf32>) {
      scf.yield %alloc : memref<1024xf32>
    } else {
      %alloc_12 = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
      linalg.map { math.absf } ins(%alloc : memref<1024xf32>) outs(%alloc_12 : memref<1024xf32>)
      scf.yield %alloc_12 : memref<1024xf32>
    }
    %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
    linalg.map { math.tanh } ins(%1 : memref<1024xf32>) outs(%alloc_0 : memref<1024xf32>)
    %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
    linalg.map { math.sin } ins(%alloc_0 : memref<1024xf32>) outs(%alloc_1 : memref<1024xf32>)
    %base_buffer, %offset, %sizes, %strides = memref.extract_strided_metadata %1 : memref<1024xf32> -> memref<f32>, index, index, index
    memref.dealloc %alloc_0 : memref<1024xf32>
    %alloc_2 = memref.alloc() : memref<2xindex>
    %alloc_3 = memref.alloc() : memref<2xi1>
    %alloc_4 = memref.alloc() : memref<0xindex>
    %intptr = memref.extract_aligned_pointer_as_index %alloc : memref<1024xf32> -> index
    memref.store %intptr, %alloc_2[%c0] : memref<2xindex>
    %intptr_5 = memref.extract_aligned_pointer_as_index %base_buffer : memref<f32> -> index
    memref.store %intptr_5, %alloc_2[%c1] : memref<2xindex>
    memref.store %true, %alloc_3[%c0] : memref<2xi1>
    memref.store %0, %alloc_3[%c1] : memref<2xi1>
    %cast = memref.cast %alloc_2 : memref<2xindex> to memref<?xindex>
    %cast_6 = memref.cast %alloc_3 : memref<2xi1> to memref<?xi1>
    %cast_7 = memref.cast %alloc_4 : memref<0xindex> to memref<?xindex>
    %alloc_8 = memref.alloc() : memref<2xi1>
    %alloc_9 = memref.alloc() : memref<0xi1>
    %cast_10 = memref.cast %alloc_8 : memref<2xi1> to memref<?xi1>
    %cast_11 = memref.cast %alloc_9 : memref<0xi1> to memref<?xi1>
    call @dealloc_helper(%cast, %cast_7, %cast_6, %cast_10, %cast_11) : (memref<?xindex>, memref<?xindex>, memref<?xi1>, memref<?xi1>, memref<?xi1>) -> ()
    %2 = memref.load %alloc_8[%c0] : memref<2xi1>
    scf.if %2 {
      memref.dealloc %alloc : memref<1024xf32>
    }
    %3 = memref.load %alloc_8[%c1] : memref<2xi1>
    scf.if %3 {
      memref.dealloc %base_buffer : memref<f32>
    }
    memref.dealloc %alloc_2 : memref<2xindex>
    memref.dealloc %alloc_4 : memref<0xindex>
    memref.dealloc %alloc_3 : memref<2xi1>
    memref.dealloc %alloc_8 : memref<2xi1>
    memref.dealloc %alloc_9 : memref<0xi1>
    return %alloc_1 : memref<1024xf32>
  }
  func.func private @dealloc_helper(%arg0: memref<?xindex>, %arg1: memref<?xindex>, %arg2: memref<?xi1>, %arg3: memref<?xi1>, %arg4: memref<?xi1>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    %false = arith.constant false
    %dim = memref.dim %arg0, %c0 : memref<?xindex>
    %dim_0 = memref.dim %arg1, %c0 : memref<?xindex>
    scf.for %arg5 = %c0 to %dim_0 step %c1 {
      memref.store %false, %arg4[%arg5] : memref<?xi1>
    }
    scf.for %arg5 = %c0 to %dim step %c1 {
      %0 = memref.load %arg0[%arg5] : memref<?xindex>
      %1 = memref.load %arg2[%arg5] : memref<?xi1>
      %2 = scf.for %arg6 = %c0 to %dim_0 step %c1 iter_args(%arg7 = %true) -> (i1) {
        %5 = memref.load %arg1[%arg6] : memref<?xindex>
        %6 = arith.cmpi eq, %5, %0 : index
        scf.if %6 {
          %9 = memref.load %arg4[%arg6] : memref<?xi1>
          %10 = arith.ori %9, %1 : i1
          memref.store %10, %arg4[%arg6] : memref<?xi1>
        }
        %7 = arith.cmpi ne, %5, %0 : index
        %8 = arith.andi %arg7, %7 : i1
        scf.yield %8 : i1
      }
      %3 = scf.for %arg6 = %c0 to %arg5 step %c1 iter_args(%arg7 = %2) -> (i1) {
        %5 = memref.load %arg0[%arg6] : memref<?xindex>
        %6 = arith.cmpi ne, %5, %0 : index
        %7 = arith.andi %arg7, %6 : i1
        scf.yield %7 : i1
      }
      %4 = arith.andi %3, %1 : i1
      memref.store %4, %arg3[%arg5] : memref<?xi1>
    }
    return
  }
}

// Source:
// func.func @f(%c: i1, %x: tensor<1024xf32>) -> tensor<1024xf32> {
//   %e = tensor.empty() : tensor<1024xf32>
//   %a = linalg.map { math.exp } ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>)
//   %r = scf.if %c -> tensor<1024xf32> {
//     scf.yield %a : tensor<1024xf32>
//   } else {
//     %e2 = tensor.empty() : tensor<1024xf32>
//     %b = linalg.map { math.absf } ins(%a : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>)
//     scf.yield %b : tensor<1024xf32>
//   }
//   %e3 = tensor.empty() : tensor<1024xf32>
//   %d = linalg.map { math.tanh } ins(%r : tensor<1024xf32>) outs(%e3 : tensor<1024xf32>)
//   %e4 = tensor.empty() : tensor<1024xf32>
//   %z = linalg.map { math.sin } ins(%d : tensor<1024xf32>) outs(%e4 : tensor<1024xf32>)
//   return %z : tensor<1024xf32>
// }
