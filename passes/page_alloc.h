// passes/page_alloc.h: the block allocator the MLIR layer hands to the core's arenas.
// Requests of 2 MiB and more are mapped with mmap, in whole 2 MiB units, and the arena is
// told the whole mapping (alloc_at_least) so that it bumps into the rest; smaller ones come
// from malloc.
//
// Fresh pages are the costly part of a large analysis on a VM: each is zeroed by the guest
// and, the first time, backed by the host. So, with a cache (one per analysis, never shared
// between threads), a mapping freed while the analysis runs is kept and handed out again
// to a request it can hold: the stages of an analysis whose arrays die in turn (the
// adapter's maps, then the fusion's, then the planner's) reuse pages already faulted in.
// A request that no cached mapping holds returns every cached one to the kernel before it
// maps, so freed mappings are never kept while new ones are mapped (requests under 2 MiB,
// malloc's, do not drain it: the cache may hold at most its own few mappings beside them).
//
// Mappings are not advised MADV_HUGEPAGE (they were until 2026-12-03): on this project's
// VM the guest reports free 2 MiB blocks to the host (free page reporting), so a huge page
// almost always came back host-discarded and its first touch cost the host a fault per
// 4 KiB; the Budget pass's own time on a 1M-op graph was 1.14 s with the advice and 0.77 s
// without, medians of 7 interleaved runs (bench/RESULTS.md).
#ifndef METRALE_PASSES_PAGE_ALLOC_H
#define METRALE_PASSES_PAGE_ALLOC_H

#include <stddef.h>

#include "metrale/arena.h"

enum { MET_PAGE_CACHE_SLOTS = 4 };

typedef struct met_page_cache_t {
  void *block[MET_PAGE_CACHE_SLOTS];  // freed mappings (their header records the size)
  size_t count;
} met_page_cache_t;

// |cache| may be NULL (then stateless and thread-safe). Otherwise the allocator and every
// arena using it belong to one thread at a time, and met_page_cache_drain must run after
// the last of those arenas is deinitialized.
met_allocator_t met_page_allocator(met_page_cache_t *cache);
// Returns the cached mappings to the kernel. Safe on an empty or zeroed cache.
void met_page_cache_drain(met_page_cache_t *cache);

#endif
