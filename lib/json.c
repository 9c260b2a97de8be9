// json.c: the strict JSON reader of metrale/json.h: recursive descent, depth-limited.
#include "metrale/json.h"

#include <stdlib.h>
#include <string.h>

typedef struct reader_t {
  met_arena_t *arena;
  const char *s;
  size_t len, pos;
  const char *why;
  met_status_t st;
} reader_t;

static bool fail(reader_t *r, const char *why) {
  if (!r->why) r->why = why;
  if (!r->st) r->st = MET_EINVAL;
  return false;
}

static void skip_ws(reader_t *r) {
  while (r->pos < r->len && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' ||
                             r->s[r->pos] == '\n' || r->s[r->pos] == '\r'))
    ++r->pos;
}

static bool literal(reader_t *r, const char *word) {
  size_t n = strlen(word);
  if (r->len - r->pos < n || memcmp(r->s + r->pos, word, n)) return fail(r, "not a JSON value");
  r->pos += n;
  return true;
}

static int hex4(const char *p) {
  int v = 0;
  for (int i = 0; i < 4; ++i) {
    char c = p[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// A string at r->pos (its opening quote), unescaped into the arena.
static bool string(reader_t *r, const char **out, size_t *out_len) {
  ++r->pos;  // the quote
  // The unescaped text is never longer than the escaped one.
  size_t start = r->pos, end = start;
  while (end < r->len && r->s[end] != '"') end += r->s[end] == '\\' ? 2 : 1;
  if (end >= r->len) {
    r->pos = start - 1;  // said at its opening quote
    return fail(r, "a string that does not end");
  }
  char *buf = met_arena_alloc(r->arena, end - start + 1);
  if (!buf) { r->st = MET_ENOMEM; return false; }
  size_t n = 0;
  while (r->pos < end) {
    unsigned char c = (unsigned char)r->s[r->pos];
    if (c < 0x20) return fail(r, "a control character in a string");
    if (c >= 0x80) {
      // UTF-8, checked (RFC 8259: a report is UTF-8; a byte that is none would pass into
      // the outputs): no overlong form, no surrogate, nothing past U+10FFFF.
      size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
      if (!k || c > 0xF4 || r->pos + k > end) return fail(r, "a string that is no UTF-8");
      const unsigned char *u = (const unsigned char *)r->s + r->pos;
      for (size_t i = 1; i < k; ++i)
        if ((u[i] & 0xC0) != 0x80) return fail(r, "a string that is no UTF-8");
      if ((c == 0xE0 && u[1] < 0xA0) || (c == 0xED && u[1] >= 0xA0) ||
          (c == 0xF0 && u[1] < 0x90) || (c == 0xF4 && u[1] >= 0x90))
        return fail(r, "a string that is no UTF-8");
      memcpy(buf + n, u, k);
      n += k;
      r->pos += k;
      continue;
    }
    if (c != '\\') { buf[n++] = (char)c; ++r->pos; continue; }
    char e = r->s[r->pos + 1];
    r->pos += 2;
    switch (e) {
      case '"': buf[n++] = '"'; break;
      case '\\': buf[n++] = '\\'; break;
      case '/': buf[n++] = '/'; break;
      case 'b': buf[n++] = '\b'; break;
      case 'f': buf[n++] = '\f'; break;
      case 'n': buf[n++] = '\n'; break;
      case 'r': buf[n++] = '\r'; break;
      case 't': buf[n++] = '\t'; break;
      case 'u': {
        if (end - r->pos < 4) return fail(r, "a bad \\u escape");
        int cp = hex4(r->s + r->pos);
        if (cp < 0) return fail(r, "a bad \\u escape");
        r->pos += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return fail(r, "a lone low surrogate");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          int lo = end - r->pos >= 6 && r->s[r->pos] == '\\' && r->s[r->pos + 1] == 'u'
                       ? hex4(r->s + r->pos + 2) : -1;
          if (lo < 0xDC00 || lo > 0xDFFF) return fail(r, "a lone high surrogate");
          r->pos += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        // UTF-8: at most 4 bytes, never more than the 6 or 12 escaped ones.
        if (cp < 0x80) {
          buf[n++] = (char)cp;
        } else if (cp < 0x800) {
          buf[n++] = (char)(0xC0 | (cp >> 6));
          buf[n++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
          buf[n++] = (char)(0xE0 | (cp >> 12));
          buf[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
          buf[n++] = (char)(0x80 | (cp & 0x3F));
        } else {
          buf[n++] = (char)(0xF0 | (cp >> 18));
          buf[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
          buf[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
          buf[n++] = (char)(0x80 | (cp & 0x3F));
        }
        break;
      }
      default: r->pos -= 2; return fail(r, "a bad escape in a string");
    }
  }
  if (r->pos != end) return fail(r, "a bad escape in a string");
  r->pos = end + 1;
  buf[n] = '\0';
  *out = buf;
  *out_len = n;
  return true;
}

static bool digits(reader_t *r) {
  size_t p = r->pos;
  while (r->pos < r->len && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') ++r->pos;
  return r->pos > p;
}

static bool number(reader_t *r, met_json_t *v) {
  size_t start = r->pos;
  v->kind = MET_JSON_NUMBER;
  if (r->s[r->pos] == '-') { v->negative = true; ++r->pos; }
  size_t int_start = r->pos;
  if (r->pos < r->len && r->s[r->pos] == '0') ++r->pos;
  else if (!digits(r)) return fail(r, "a bad number");
  size_t int_end = r->pos;
  bool whole = true;
  if (r->pos < r->len && r->s[r->pos] == '.') {
    ++r->pos;
    if (!digits(r)) return fail(r, "a bad number");
    whole = false;
  }
  if (r->pos < r->len && (r->s[r->pos] == 'e' || r->s[r->pos] == 'E')) {
    ++r->pos;
    if (r->pos < r->len && (r->s[r->pos] == '+' || r->s[r->pos] == '-')) ++r->pos;
    if (!digits(r)) return fail(r, "a bad number");
    whole = false;
  }
  char tmp[64];
  size_t n = r->pos - start;
  if (n < sizeof(tmp)) {
    memcpy(tmp, r->s + start, n);
    tmp[n] = '\0';
    v->d = strtod(tmp, NULL);
  } else {
    char *big = met_arena_strndup(r->arena, r->s + start, n);
    if (!big) { r->st = MET_ENOMEM; return false; }
    v->d = strtod(big, NULL);
  }
  if (whole) {
    uint64_t u = 0;
    bool fits = true;
    for (size_t i = int_start; i < int_end; ++i) {
      unsigned dgt = (unsigned)(r->s[i] - '0');
      if (u > (UINT64_MAX - dgt) / 10) { fits = false; break; }
      u = u * 10 + dgt;
    }
    v->is_int = fits;
    v->u = fits ? u : 0;
  }
  return true;
}

static bool value(reader_t *r, met_json_t *v, int depth);

typedef struct key_t { const char *k; size_t len; } key_t;
static int cmp_key(const void *a, const void *b) {
  const key_t *x = a, *y = b;
  if (x->len != y->len) return x->len < y->len ? -1 : 1;
  return memcmp(x->k, y->k, x->len);
}

// Whether object |v| holds a key twice: pairwise for a few keys, sorted for many.
static bool has_duplicate_key(const met_json_t *v) {
  if (v->count <= 64) {
    for (size_t i = 0; i < v->count; ++i)
      for (size_t j = i + 1; j < v->count; ++j)
        if (v->key_lens[i] == v->key_lens[j] && !memcmp(v->keys[i], v->keys[j], v->key_lens[i]))
          return true;
    return false;
  }
  key_t *k = malloc(v->count * sizeof(*k));
  if (!k) return false;  // no memory to check: the values are kept as read
  for (size_t i = 0; i < v->count; ++i) k[i] = (key_t){v->keys[i], v->key_lens[i]};
  qsort(k, v->count, sizeof(*k), cmp_key);
  bool dup = false;
  for (size_t i = 1; i < v->count && !dup; ++i) dup = !cmp_key(&k[i - 1], &k[i]);
  free(k);
  return dup;
}

// The members of an array or object, gathered on the heap, then copied to the arena.
static bool container(reader_t *r, met_json_t *v, int depth, bool object) {
  ++r->pos;  // [ or {
  v->kind = object ? MET_JSON_OBJECT : MET_JSON_ARRAY;
  size_t cap = 0, count = 0;
  met_json_t *items = NULL;
  const char **keys = NULL;
  size_t *key_lens = NULL;
  bool ok = true;
  skip_ws(r);
  char close = object ? '}' : ']';
  if (r->pos < r->len && r->s[r->pos] == close) {
    ++r->pos;
  } else {
    for (;;) {
      if (count == cap) {
        size_t ncap = cap ? cap * 2 : 8;
        met_json_t *ni = realloc(items, ncap * sizeof(*ni));
        if (ni) items = ni;
        const char **nk = object ? realloc(keys, ncap * sizeof(*nk)) : NULL;
        if (nk) keys = nk;
        size_t *nl = object ? realloc(key_lens, ncap * sizeof(*nl)) : NULL;
        if (nl) key_lens = nl;
        if (!ni || (object && (!nk || !nl))) { r->st = MET_ENOMEM; ok = false; break; }
        cap = ncap;
      }
      skip_ws(r);
      if (object) {
        if (r->pos >= r->len || r->s[r->pos] != '"') { ok = fail(r, "an object key that is no string"); break; }
        if (!(ok = string(r, &keys[count], &key_lens[count]))) break;
        skip_ws(r);
        if (r->pos >= r->len || r->s[r->pos] != ':') { ok = fail(r, "no ':' after an object key"); break; }
        ++r->pos;
      }
      memset(&items[count], 0, sizeof(items[count]));
      if (!(ok = value(r, &items[count], depth + 1))) break;
      ++count;
      skip_ws(r);
      if (r->pos < r->len && r->s[r->pos] == ',') { ++r->pos; continue; }
      if (r->pos < r->len && r->s[r->pos] == close) { ++r->pos; break; }
      ok = fail(r, object ? "no ',' or '}' in an object" : "no ',' or ']' in an array");
      break;
    }
  }
  if (ok && count) {
    void *p;
    if (met_arena_calloc(r->arena, count, sizeof(*items), &p)) { r->st = MET_ENOMEM; ok = false; }
    else { memcpy(p, items, count * sizeof(*items)); v->items = p; }
    if (ok && object) {
      void *k, *l;
      if (met_arena_calloc(r->arena, count, sizeof(*keys), &k) ||
          met_arena_calloc(r->arena, count, sizeof(*key_lens), &l)) {
        r->st = MET_ENOMEM;
        ok = false;
      } else {
        memcpy(k, keys, count * sizeof(*keys));
        memcpy(l, key_lens, count * sizeof(*key_lens));
        v->keys = k;
        v->key_lens = l;
      }
    }
  }
  v->count = ok ? count : 0;
  // A key twice is ambiguous (readers keep the first or the last): refused.
  if (ok && object && count > 1 && has_duplicate_key(v)) ok = fail(r, "an object with a key twice");
  free(items);
  free(keys);
  free(key_lens);
  return ok;
}

static bool value(reader_t *r, met_json_t *v, int depth) {
  if (depth > MET_JSON_MAX_DEPTH) return fail(r, "nested too deep");
  skip_ws(r);
  if (r->pos >= r->len) return fail(r, "the text ends where a value was expected");
  char c = r->s[r->pos];
  switch (c) {
    case '{': return container(r, v, depth, true);
    case '[': return container(r, v, depth, false);
    case '"': v->kind = MET_JSON_STRING; return string(r, &v->str, &v->len);
    case 't': v->kind = MET_JSON_BOOL; v->boolean = true; return literal(r, "true");
    case 'f': v->kind = MET_JSON_BOOL; return literal(r, "false");
    case 'n': v->kind = MET_JSON_NULL; return literal(r, "null");
    default:
      if (c == '-' || (c >= '0' && c <= '9')) return number(r, v);
      return fail(r, "not a JSON value");
  }
}

// The 1-based line of byte |pos| of |s|.
static size_t line_of(const char *s, size_t pos) {
  size_t line = 1;
  for (size_t i = 0; i < pos; ++i) line += s[i] == '\n';
  return line;
}

met_status_t met_json_parse(met_arena_t *arena, const char *s, size_t len, met_json_t **out,
                            met_error_t *err) {
  reader_t r = {arena, s, len, 0, NULL, MET_OK};
  met_json_t *root = met_arena_alloc(arena, sizeof(*root));
  if (!root) return met_error_set(err, MET_ENOMEM, "out of memory");
  memset(root, 0, sizeof(*root));
  if (value(&r, root, 0)) {
    skip_ws(&r);
    if (r.pos != len) fail(&r, "text after the value");
  }
  if (r.st)
    return met_error_at_line(err, r.st, line_of(s, r.pos < len ? r.pos : len), r.pos, "%s",
                             r.st == MET_ENOMEM ? "out of memory" : r.why);
  *out = root;
  return MET_OK;
}

const met_json_t *met_json_get(const met_json_t *obj, const char *key) {
  if (!obj || obj->kind != MET_JSON_OBJECT) return NULL;
  size_t kl = strlen(key);
  for (size_t i = 0; i < obj->count; ++i)
    if (obj->key_lens[i] == kl && !memcmp(obj->keys[i], key, kl)) return &obj->items[i];
  return NULL;
}
