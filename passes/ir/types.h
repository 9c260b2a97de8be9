// passes/ir/types.h: the storage-width rule, applied to MLIR types.
//
// Tensor bytes = static element count x storage width, rounded up to whole bytes, where
// the storage width of an element type is:
// - iN with N >= 8: N rounded up to whole bytes (i8: 8, i17: 24, i64: 64);
// - i1: 8 bits, one byte per element (as LLVM and bufferized MLIR store booleans);
// - other sub-byte integers (i2..i7) and sub-byte floats (f4E2M1FN: 4, f6E2M3FN and
//   f6E3M2FN: 6): packed, N bits per element (how quantized weights are stored), except
//   that integers take one byte each on a target with unpacked_sub_byte (upstream MLIR's
//   own lowering, mlir-cpu: LLVM stores an i4 in a byte; measured by `metrale run`);
// - index: the target's index_bits (64 on the CPU and H100 targets);
// - floats: their width (bf16/f16: 16, f32: 32, f64: 64, every f8 variant: 8), except
//   tf32 stored as 32 (its 19 bits live in a 32-bit container) and f80 stored as 128
//   (x86-64's 16-byte slot);
// - complex<T>: twice T; vector<...xT> elements: lanes x T;
// - quantized types (!quant.*): their storage type.
// Any other element type has no storage width: the value is treated as unsized (bytes 0,
// flagged, reports incomplete, a warning at the op). So is a tensor with an encoding
// (#sparse_tensor.encoding: its storage depends on the nonzeros) and a scalable vector
// (vector<[4]xf32>: vscale is known only at run time).
// The f32-uniform width of a float element narrower than 32 bits is 32 (per lane).
#ifndef METRALE_PASSES_TYPES_H
#define METRALE_PASSES_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/target.h"
#include "mlir-c/IR.h"

typedef enum {
  MET_SIZE_OK = 0,
  MET_SIZE_UNRANKED = 1,   // unranked shaped type: bytes unknown
  MET_SIZE_UNSIZED = 2,    // element type without a storage width
  MET_SIZE_OVERFLOW = 3,   // element count x width passes 2^64 bits
  MET_SIZE_LAYOUT = 4,     // not stored as its dense element count: a tensor with an
                           // encoding (sparse), a scalable vector (vscale x N lanes)
} met_size_status_t;

typedef struct met_type_size_t {
  uint64_t bytes;      // native storage bytes
  uint64_t f32_bytes;  // with floats narrower than 32 bits widened to 32
  bool is_float;       // floating-point (or complex of float) elements
  bool is_memref;
  bool dynamic;        // had dynamic dims (counted as |dynamic_size| or 1)
} met_type_size_t;

// True for ranked or unranked tensors and memrefs.
bool met_type_is_shaped_value(MlirType type);
// Sizes |type|: a tensor or memref, or a scalar or vector type (one element: a scalar
// global is its element's bytes). Dynamic dims count as |dynamic_size| when > 0, else 1.
// The target gives `index`'s width and whether sub-byte integers are packed.
met_size_status_t met_type_size(MlirType type, const met_target_t *target, int64_t dynamic_size,
                                met_type_size_t *out);

// Why a type has no byte size, as a predicate: "is unranked", ... (static text).
const char *met_size_status_why(met_size_status_t s);

// An MlirStringCallback that appends to the met_strbuf_t |user|: for every mlir*Print.
void met_mlir_append(MlirStringRef s, void *user);
// The printed form of |t| ("tensor<4xf32>", "bf16"), in |arena|; NULL on failure.
const char *met_type_string(met_arena_t *arena, MlirType t);

// Storage bits of an element type under the rule above (|*widened|: its f32-uniform
// width). False when it has none.
bool met_type_element_bits(MlirType element, const met_target_t *target, uint64_t *bits,
                           uint64_t *widened, bool *is_float);
// Sizes |shaped| as if its elements were |element| (a declared checkpoint format).
met_size_status_t met_type_size_as(MlirType shaped, MlirType element, const met_target_t *target,
                                   int64_t dynamic_size, met_type_size_t *out);

#endif
