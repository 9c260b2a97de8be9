// strbuf.c: met_strbuf_t (metrale/strbuf.h). Appends after a failure are ignored, so a
// renderer checks |status| once at the end.
#include "metrale/strbuf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void met_strbuf_initialize(met_allocator_t allocator, met_strbuf_t *sb) {
  memset(sb, 0, sizeof(*sb));
  sb->allocator = allocator;
}

void met_strbuf_deinitialize(met_strbuf_t *sb) {
  sb->allocator.free(sb->allocator.self, sb->data);
  sb->data = NULL;
  sb->len = sb->cap = 0;
}

static bool sb_grow(met_strbuf_t *sb, size_t extra) {
  if (sb->status) return false;
  if (sb->len + extra + 1 <= sb->cap) return true;
  size_t ncap = sb->cap ? sb->cap : 256;
  while (ncap < sb->len + extra + 1) {
    if (ncap > SIZE_MAX / 2) { sb->status = MET_EOVERFLOW; return false; }
    ncap *= 2;
  }
  char *p = sb->allocator.alloc(sb->allocator.self, ncap);
  if (!p) { sb->status = MET_ENOMEM; return false; }
  if (sb->data) memcpy(p, sb->data, sb->len + 1);
  sb->allocator.free(sb->allocator.self, sb->data);
  sb->data = p;
  sb->cap = ncap;
  return true;
}

void met_strbuf_reserve(met_strbuf_t *sb, size_t n) { (void)sb_grow(sb, n); }

void met_strbuf_append(met_strbuf_t *sb, const char *s, size_t len) {
  if (!sb_grow(sb, len) || !len) return;
  memcpy(sb->data + sb->len, s, len);
  sb->len += len;
  sb->data[sb->len] = '\0';
}

void met_strbuf_u64(met_strbuf_t *sb, uint64_t v) {
  char buf[20];  // 2^64 - 1 has 20 digits
  size_t i = sizeof(buf);
  do { buf[--i] = (char)('0' + v % 10); v /= 10; } while (v);
  met_strbuf_append(sb, buf + i, sizeof(buf) - i);
}

void met_strbuf_cstr(met_strbuf_t *sb, const char *s) { met_strbuf_append(sb, s, strlen(s)); }

void met_strbuf_printf(met_strbuf_t *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[256];
  int n = vsnprintf(small, sizeof(small), fmt, ap);
  va_end(ap);
  if (n < 0) { sb->status = MET_EINVAL; return; }
  if ((size_t)n < sizeof(small)) { met_strbuf_append(sb, small, (size_t)n); return; }
  if (!sb_grow(sb, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb->len += (size_t)n;
}

// The length of the well-formed UTF-8 sequence at |p| (RFC 3629: no overlong form, no
// surrogate, at most U+10FFFF), or 0 when the bytes there are none.
static size_t utf8_length(const unsigned char *p) {
  if (p[0] < 0x80) return 1;
  size_t n = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
  if (!n || p[0] > 0xF4) return 0;
  for (size_t i = 1; i < n; ++i)
    if ((p[i] & 0xC0) != 0x80) return 0;
  if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0) ||
      (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))
    return 0;
  return n;
}

void met_strbuf_json_string(met_strbuf_t *sb, const char *s) {
  MET_STRBUF_LIT(sb, "\"");
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
    size_t n = utf8_length(p);
    if (*p == '"' || *p == '\\') {
      char esc[2] = {'\\', (char)*p};
      met_strbuf_append(sb, esc, 2);
    } else if (*p < 0x20) {
      met_strbuf_printf(sb, "\\u%04x", *p);
    } else if (!n) {
      MET_STRBUF_LIT(sb, "\\ufffd");  // a byte of no UTF-8 character: JSON is Unicode text
      n = 1;
    } else {
      met_strbuf_append(sb, (const char *)p, n);
      p += n;
      continue;
    }
    p += n ? n : 1;
  }
  MET_STRBUF_LIT(sb, "\"");
}
