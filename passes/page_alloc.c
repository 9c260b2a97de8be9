// page_alloc.c: see page_alloc.h. Each block starts with a 64-byte header that records how it was
// obtained, so free() knows whether to munmap or free.
#define _DEFAULT_SOURCE
#include "page_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { kHeader = 64 };
#define kHuge ((size_t)2 << 20)

typedef struct header_t { size_t mapped; } header_t;  // 0: from malloc

static void *huge_alloc(void *self, size_t n) {
  (void)self;
  if (n > SIZE_MAX - kHeader - kHuge) return NULL;
  size_t total = n + kHeader;
  if (total < kHuge) {
    unsigned char *p = malloc(total);
    if (!p) return NULL;
    ((header_t *)p)->mapped = 0;
    return p + kHeader;
  }
  total = (total + kHuge - 1) / kHuge * kHuge;
  unsigned char *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  (void)madvise(p, total, MADV_HUGEPAGE);  // advice only: fine if the kernel declines
#endif
  ((header_t *)p)->mapped = total;
  return p + kHeader;
}

static void huge_free(void *self, void *ptr) {
  (void)self;
  if (!ptr) return;
  unsigned char *p = (unsigned char *)ptr - kHeader;
  size_t mapped = ((header_t *)p)->mapped;
  if (mapped) munmap(p, mapped);
  else free(p);
}

met_allocator_t met_page_allocator(void) {
  met_allocator_t a = {huge_alloc, huge_free, NULL};
  return a;
}
