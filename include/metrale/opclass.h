// metrale/opclass.h: what metrale knows about an op from its name alone: its node kind,
// its class for fusion, the role of a leaf's result, and whether it is a cast.
//
// The table in lib/opclass.c is the documented list of leaves, views, casts and compute
// classes. Ops not in it are classified by dialect (arith.* and math.* are elementwise,
// linalg.conv_* are convolutions, ...) or, failing that, as unknown compute ops: their own
// dispatch, off every fast path. The adapter refines linalg.generic by its iterator types
// and body. Thread-safe: constant data.
#ifndef METRALE_OPCLASS_H
#define METRALE_OPCLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/graph.h"

typedef struct met_opinfo_t {
  uint8_t kind;      // met_node_kind_t
  uint8_t op_class;  // met_op_class_t
  uint8_t role;      // met_value_role_t of a leaf's results (MET_ROLE_OTHER otherwise)
  bool cast;         // the op's only product is another element type
  bool known;        // found in the table or by a dialect rule
  bool softmax;      // its kernel workspace is the softmax family (softmax, attention);
                     // other ops take the family of their class (metrale/memory_graph.h)
  bool uniform;      // data movement taking each result element from one source element
                     // (tile, reverse, gather): splat sources give a splat (met_fold_to_splat)
} met_opinfo_t;

// Looks up |len| bytes of |name|. O(log table) plus a prefix check.
met_opinfo_t met_opclass_lookup(const char *name, size_t len);

// For tests: the number of table rows and whether they are sorted (binary search needs it).
size_t met_opclass_table_size(void);
bool met_opclass_table_sorted(void);

#endif
