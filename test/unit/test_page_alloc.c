// Unit tests of passes/page_alloc.c: whole mappings, the cache of freed mappings.
#include <string.h>

#include "page_alloc.h"
#include "check.h"

#define MiB ((size_t)1 << 20)

static void *get(met_allocator_t al, size_t n, size_t *got) {
  return al.alloc_at_least(al.self, n, got);
}

static void test_whole_mappings(void) {
  // Without a cache: 3 MiB asked is a 4 MiB mapping less its 64-byte header.
  met_allocator_t al = met_page_allocator(NULL);
  size_t got;
  char *p = get(al, 3 * MiB, &got);
  CHECK(p && got == 4 * MiB - 64);
  memset(p, 1, got);  // all of it is usable
  al.free(al.self, p);
  // Under 2 MiB (with the header): malloc, exactly what was asked.
  p = get(al, MiB, &got);
  CHECK(p && got == MiB);
  al.free(al.self, p);
  al.free(al.self, NULL);
}

static void test_cache(void) {
  met_page_cache_t c;
  memset(&c, 0, sizeof(c));
  met_allocator_t al = met_page_allocator(&c);
  size_t got;
  char *p = get(al, 3 * MiB, &got);  // 4 MiB mapping
  CHECK(p && got == 4 * MiB - 64);
  p[0] = 'x';
  al.free(al.self, p);
  CHECK_EQ_U64(c.count, 1);
  // A small request is malloc's and leaves the cache alone.
  char *q = get(al, 1000, &got);
  CHECK(q && got == 1000 && c.count == 1);
  al.free(al.self, q);
  CHECK_EQ_U64(c.count, 1);
  // 2.5 MiB needs a 4 MiB mapping: the cached one, whole, with what was written in it.
  char *r = get(al, 5 * MiB / 2, &got);
  CHECK(r == p && got == 4 * MiB - 64 && c.count == 0 && r[0] == 'x');
  al.free(al.self, r);
  // 5 MiB (a 6 MiB mapping) is more than any cached one holds: the cache is emptied first.
  char *s = get(al, 5 * MiB, &got);
  CHECK(s && got == 6 * MiB - 64 && c.count == 0);
  al.free(al.self, s);
  met_page_cache_drain(&c);
  CHECK_EQ_U64(c.count, 0);
  // A full cache keeps the largest: 2, 4, 6, 8 then 10 MiB freed leave 4, 6, 8 and 10.
  char *m[5];
  for (int i = 0; i < 5; ++i) m[i] = get(al, (size_t)(2 * i + 2) * MiB - 64, &got);
  for (int i = 0; i < 5; ++i) al.free(al.self, m[i]);
  CHECK_EQ_U64(c.count, MET_PAGE_CACHE_SLOTS);
  // 2 MiB asked (and the header) needs a 4 MiB mapping: the smallest cached that holds it.
  char *t = get(al, 2 * MiB, &got);
  CHECK(t == m[1] && got == 4 * MiB - 64);
  // 2 MiB less the header fits a 2 MiB mapping, but that one (m[0]) was evicted: the
  // smallest cached one left is m[2]'s 6 MiB.
  char *v = get(al, 2 * MiB - 64, &got);
  CHECK(v == m[2] && got == 6 * MiB - 64);
  al.free(al.self, v);
  al.free(al.self, t);
  met_page_cache_drain(&c);
  CHECK_EQ_U64(c.count, 0);
  met_page_cache_drain(NULL);
}

static void test_arena_on_cache(void) {
  // Two stages of one analysis: the second reuses the first's mapping.
  met_page_cache_t c;
  memset(&c, 0, sizeof(c));
  met_arena_t a;
  met_arena_initialize(met_page_allocator(&c), &a);
  met_arena_mark_t m = met_arena_mark(&a);
  char *first = met_arena_alloc(&a, 3 * MiB);
  CHECK(first != NULL);
  met_arena_release_to(&a, m);
  CHECK_EQ_U64(c.count, 1);
  char *second = met_arena_alloc(&a, 3 * MiB);
  CHECK(second == first && c.count == 0);
  met_arena_deinitialize(&a);
  CHECK_EQ_U64(c.count, 1);
  met_page_cache_drain(&c);
}

int main(void) {
  test_whole_mappings();
  test_cache();
  test_arena_on_cache();
  return check_finish("test_page_alloc");
}
