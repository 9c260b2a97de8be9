// Class 6 for the memory model's module declarations: one rule per kind (attrs.h), an
// error at the module for anything else, unknown keys included.
// RUN: metrale-opt %s -split-input-file -verify-diagnostics --metrale-memory="target=h100 sequences=1 tokens=16 rows=0" -o /dev/null

// An i128 layer count would be cut to its low 64 bits (2^64 + 32 -> 32).
// expected-error @below {{metrale.kv_pool entry 'layers' must be an integer of at most 64 bits}}
module attributes {metrale.kv_pool = {layers = 18446744073709551648 : i128, kv_heads = 8 : i64, head_dim = 64 : i64, block_size = 16 : i64, dtype = f16}} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// expected-error @below {{metrale.kv_pool entry 'heads' is not one of its keys}}
module attributes {metrale.kv_pool = {layers = 2 : i64, heads = 8 : i64, head_dim = 64 : i64, block_size = 16 : i64, dtype = f16}} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// A dtype given as a string names a type like a type attribute does; "f17" does not.
// expected-error @below {{metrale.kv_pool dtype must name a type, and the string does not parse as one}}
module attributes {metrale.kv_pool = {layers = 2 : i64, kv_heads = 8 : i64, head_dim = 64 : i64, block_size = 16 : i64, dtype = "f17"}} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// expected-error-re @below {{metrale.kv_pool entry 'layers' must be at least 1{{[[:>:]]}}}}
module attributes {metrale.kv_pool = {layers = 0 : i64, kv_heads = 8 : i64, head_dim = 64 : i64, block_size = 16 : i64, dtype = f16}} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// where is "host" or "device", as a string.
// expected-error @below {{metrale.caches entry #0 has a 'where' that is not "host" or "device" (it needs name, units and bytes)}}
module attributes {metrale.caches = [{name = "prefix", units = 4 : i64, bytes = 1024 : i64, where = 7 : i64}]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// expected-error @below {{metrale.caches entry #0 has a 'where' that is not "host" or "device" (it needs name, units and bytes)}}
module attributes {metrale.caches = [{name = "prefix", units = 4 : i64, bytes = 1024 : i64, where = "gpu"}]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// expected-error @below {{metrale.caches entry #0 has an empty name (it needs name, units and bytes)}}
module attributes {metrale.caches = [{name = "", units = 4 : i64, bytes = 1024 : i64}]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// expected-error @below {{metrale.caches entry #0 must be a dictionary}}
module attributes {metrale.caches = ["prefix"]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// Class 5: two weights of 2^63 bytes each (2^60 f64 elements: the byte count is formed
// without passing through 2^66 bits) pass 2^64 when summed: the error says overflow and
// names the term.
// expected-error @below {{the memory model's term 'weights_stored' overflows 64 bits (it passes 2^64 bytes)}}
module {
  func.func @f(%a: tensor<1152921504606846976xf64> {metrale.param}, %b: tensor<1152921504606846976xf64> {metrale.param}, %x: tensor<4xf64>) -> tensor<4xf64> {
    return %x : tensor<4xf64>
  }
}


// -----

// One name is one weight: two sizes under one name is an error, not a silent merge
// (%a: 1024 x 4 = 4096 B, seen first; %b: 1048576 x 4 = 4194304 B).
module {
  // expected-error @below {{argument #1: the weight named "emb" is stored as 4194304 bytes here and 4096 bytes elsewhere: one name is one weight}}
  func.func @f(%a: tensor<1024xf32> {metrale.param, metrale.name = "emb"},
               %b: tensor<1048576xf32> {metrale.param, metrale.name = "emb"}) -> tensor<4xf32> {
    %s = tensor.extract_slice %a[0] [4] [1] : tensor<1024xf32> to tensor<4xf32>
    return %s : tensor<4xf32>
  }
}

// -----

// A weight of 10^18 elements stored as i65535 (issue 26: refused as "has no storage
// width"): 10^18 x 65535 bits passes 2^64 bits, and the message says so.
// expected-error @below {{argument #0: its size at its metrale.format (elements x bits) overflows 64 bits}}
func.func @huge(%w: tensor<1000000000000000000xf32> {metrale.param, metrale.format = i65535}) -> tensor<1000000000000000000xf32> {
  return %w : tensor<1000000000000000000xf32>
}
