// metrale/strbuf.h: a growable string that remembers its first failure, for renderers
// that must not print (the JSON and text reports, diagnostics).
// Thread-compatible: one buffer per caller.
#ifndef METRALE_STRBUF_H
#define METRALE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// A growable NUL-terminated string on the heap of |allocator|.
typedef struct met_strbuf_t {
  met_allocator_t allocator;
  char *data;
  size_t len, cap;
  met_status_t status;  // the first failure; later appends are ignored once set
} met_strbuf_t;

void met_strbuf_initialize(met_allocator_t allocator, met_strbuf_t *sb);
void met_strbuf_deinitialize(met_strbuf_t *sb);
void met_strbuf_append(met_strbuf_t *sb, const char *s, size_t len);
void met_strbuf_printf(met_strbuf_t *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
// Makes room for |n| more bytes (a buffer about to receive a known amount grows once).
void met_strbuf_reserve(met_strbuf_t *sb, size_t n);
// Appends |v| in decimal (no printf: renderers write millions of numbers).
void met_strbuf_u64(met_strbuf_t *sb, uint64_t v);
// Appends a NUL-terminated string.
void met_strbuf_cstr(met_strbuf_t *sb, const char *s);
// Appends a string literal; its length comes from the compiler, not from a count by hand.
#define MET_STRBUF_LIT(sb, lit) met_strbuf_append((sb), "" lit, sizeof(lit) - 1)
// Appends |s| as a JSON string literal, quotes included; a byte that begins no well-formed
// UTF-8 character (JSON is Unicode text) is written as U+FFFD.
void met_strbuf_json_string(met_strbuf_t *sb, const char *s);

#ifdef __cplusplus
}
#endif

#endif
