// page_alloc.c: see page_alloc.h. Each block starts with a 64-byte header that records how it
// was obtained, so free() knows whether to munmap or free.
#define _DEFAULT_SOURCE
#include "page_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { kHeader = 64 };
#define kLarge ((size_t)2 << 20)

typedef struct header_t { size_t mapped; } header_t;  // 0: from malloc

static size_t mapped_of(void *block) {
  return ((header_t *)((unsigned char *)block - kHeader))->mapped;
}

static void unmap(void *block) {
  unsigned char *p = (unsigned char *)block - kHeader;
  munmap(p, ((header_t *)p)->mapped);
}

void met_page_cache_drain(met_page_cache_t *cache) {
  if (!cache) return;
  for (size_t i = 0; i < cache->count; ++i) unmap(cache->block[i]);
  cache->count = 0;
}

static void *page_alloc_at_least(void *self, size_t n, size_t *got) {
  met_page_cache_t *cache = self;
  *got = n;
  if (n > SIZE_MAX - kHeader - kLarge) return NULL;
  size_t total = n + kHeader;
  if (total < kLarge) {
    unsigned char *p = malloc(total);
    if (!p) return NULL;
    ((header_t *)p)->mapped = 0;
    return p + kHeader;
  }
  total = (total + kLarge - 1) / kLarge * kLarge;
  if (cache) {
    // The smallest cached mapping that holds the request; else give them all back first.
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < cache->count; ++i)
      if (mapped_of(cache->block[i]) >= total &&
          (best == SIZE_MAX || mapped_of(cache->block[i]) < mapped_of(cache->block[best])))
        best = i;
    if (best != SIZE_MAX) {
      void *b = cache->block[best];
      cache->block[best] = cache->block[--cache->count];
      *got = mapped_of(b) - kHeader;
      return b;
    }
    met_page_cache_drain(cache);
  }
  unsigned char *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  ((header_t *)p)->mapped = total;
  *got = total - kHeader;
  return p + kHeader;
}

static void *page_alloc(void *self, size_t n) {
  size_t got;
  return page_alloc_at_least(self, n, &got);
}

static void page_free(void *self, void *ptr) {
  met_page_cache_t *cache = self;
  if (!ptr) return;
  unsigned char *p = (unsigned char *)ptr - kHeader;
  size_t mapped = ((header_t *)p)->mapped;
  if (!mapped) {
    free(p);
    return;
  }
  if (cache) {
    // Keep it, in place of the smallest cached mapping when the cache is full.
    if (cache->count < MET_PAGE_CACHE_SLOTS) {
      cache->block[cache->count++] = ptr;
      return;
    }
    size_t small = 0;
    for (size_t i = 1; i < cache->count; ++i)
      if (mapped_of(cache->block[i]) < mapped_of(cache->block[small])) small = i;
    if (mapped_of(cache->block[small]) < mapped) {
      void *evicted = cache->block[small];
      cache->block[small] = ptr;
      ptr = evicted;
    }
  }
  unmap(ptr);
}

met_allocator_t met_page_allocator(met_page_cache_t *cache) {
  met_allocator_t a = {page_alloc, page_free, cache, page_alloc_at_least};
  return a;
}
