// passes/page_alloc.h: the block allocator the MLIR layer hands to the core's arenas.
// Requests of 2 MiB and more are mapped with mmap and marked MADV_HUGEPAGE, so a large
// graph's arrays fault in 2 MiB pages instead of 4 KiB ones (page faults dominated the
// analysis of a 1M-op graph on a paravirtualized VM); smaller ones come from malloc.
// Thread-safe (stateless).
#ifndef METRALE_PASSES_PAGE_ALLOC_H
#define METRALE_PASSES_PAGE_ALLOC_H

#include "metrale/arena.h"

met_allocator_t met_page_allocator(void);

#endif
