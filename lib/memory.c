// memory.c: the memory model's arithmetic (definitions in metrale/memory.h). Everything is
// integer arithmetic checked for overflow; the inverse queries are binary searches over a
// monotone function (device bytes never decrease as sequences or tokens grow).
#include "metrale/memory.h"

#include <string.h>

#include "metrale/checked.h"
#include "metrale/parse.h"


met_status_t met_memory_kv_pool_parse(const char *s, size_t len, met_kv_pool_t *pool,
                                      met_error_t *err) {
  pool->present = true;
  static const char *const keys[] = {"layers", "kv_heads", "head_dim", "block_size"};
  uint64_t *dsts[] = {&pool->layers, &pool->kv_heads, &pool->head_dim, &pool->block_size};
  size_t i = 0;
  while (i <= len) {
    size_t k = i;
    while (i < len && s[i] != ',') ++i;
    const char *item = s + k;  // "key=value"
    size_t n = i - k, eq = 0;
    while (eq < n && item[eq] != '=') ++eq;
    int which = -1;
    for (int key = 0; key < 4; ++key)
      if (strlen(keys[key]) == eq && !memcmp(item, keys[key], eq)) which = key;
    uint64_t v;
    int shown = n > 64 ? 64 : (int)n;  // the entry at fault, named
    if (which < 0 || eq == n)
      return met_error_set(err, MET_EINVAL, "each entry is key=N with a key of layers, "
                           "kv_heads, head_dim, block_size ('%.*s' is not)", shown, item);
    if (*dsts[which])
      return met_error_set(err, MET_EINVAL, "a key is given twice ('%s')", keys[which]);
    met_status_t st = met_parse_u64(item + eq + 1, n - eq - 1, 1, UINT64_MAX, &v);
    if (st)
      return met_error_set(err, st, "each N is a whole number of at least 1 (digits only; "
                           "'%.*s' is not)", shown, item);
    *dsts[which] = v;
    ++i;  // past the ','
  }
  return MET_OK;
}

uint32_t met_memory_kv_missing(const met_kv_pool_t *p, uint64_t sequences, uint64_t tokens) {
  if (!p || !p->present) return 0;
  uint32_t m = 0;
  if (!sequences) m |= MET_KV_MISSING_SEQUENCES;
  if (!tokens) m |= MET_KV_MISSING_TOKENS;
  if (!p->layers || !p->kv_heads || !p->head_dim || !p->block_size) m |= MET_KV_MISSING_SHAPE;
  if (!p->kv_bits) m |= MET_KV_MISSING_DTYPE;
  if (p->has_draft && (!p->draft_layers || !p->draft_kv_heads || !p->draft_head_dim ||
                       !p->draft_kv_bits))
    m |= MET_KV_MISSING_DRAFT;
  return m;
}

met_status_t met_memory_kv_blocks_for(uint64_t sequences, uint64_t tokens,
                                      uint64_t block_size, uint64_t *out) {
  if (!block_size) return MET_EINVAL;
  uint64_t per, n;
  if (!sequences) { *out = 1; return MET_OK; }  // no sequence: the null block alone
  if (!met_add_u64(tokens / block_size, 1, &per) || !met_mul_u64(sequences, per, &n) ||
      !met_add_u64(n, 1, out))
    return MET_EOVERFLOW;
  return MET_OK;
}

// blocks x block_size x 2 x layers x heads x dim x bits / 8, exact (bits a multiple of 8
// or the total a multiple of 8 bits: computed in bits then rounded up to bytes).
static met_status_t head_bytes(uint64_t blocks, uint64_t block_size, uint64_t layers,
                               uint64_t heads, uint64_t dim, uint32_t bits, uint64_t *out) {
  uint64_t x = blocks;
  if (!met_mul_u64(x, block_size, &x) || !met_mul_u64(x, 2, &x) ||
      !met_mul_u64(x, layers, &x) || !met_mul_u64(x, heads, &x) || !met_mul_u64(x, dim, &x))
    return MET_EOVERFLOW;
  // x * bits / 8, rounded up, without forming x * bits.
  uint64_t whole, rest = (x % 8) * (uint64_t)bits;
  if (!met_mul_u64(x / 8, bits, &whole) ||
      !met_add_u64(whole, rest / 8 + (rest % 8 != 0), out))
    return MET_EOVERFLOW;
  return MET_OK;
}

met_status_t met_memory_kv_bytes(const met_kv_pool_t *p, uint64_t sequences, uint64_t tokens,
                                 uint64_t *out_blocks, uint64_t *out_bytes) {
  *out_blocks = *out_bytes = 0;
  if (!p || !p->present || met_memory_kv_missing(p, sequences, tokens)) return MET_OK;
  uint64_t blocks, main, draft = 0;
  MET_RETURN_IF_ERROR(met_memory_kv_blocks_for(sequences, tokens, p->block_size, &blocks));
  MET_RETURN_IF_ERROR(head_bytes(blocks, p->block_size, p->layers, p->kv_heads, p->head_dim,
                                 p->kv_bits, &main));
  if (p->has_draft)
    MET_RETURN_IF_ERROR(head_bytes(blocks, p->block_size, p->draft_layers, p->draft_kv_heads,
                   p->draft_head_dim, p->draft_kv_bits, &draft));
  if (!met_add_u64(main, draft, out_bytes)) return MET_EOVERFLOW;
  *out_blocks = blocks;
  return MET_OK;
}

static met_status_t add_slack(uint64_t term, uint64_t chunk, uint64_t *slack) {
  uint64_t up;
  if (!met_align_up_u64(term, chunk, &up) || !met_add_u64(*slack, up - term, slack))
    return MET_EOVERFLOW;
  return MET_OK;
}

met_status_t met_memory_evaluate(const met_memory_terms_t *t, const met_kv_pool_t *pool,
                                 const met_driver_terms_t *d, uint64_t memory_bytes,
                                 uint32_t util_ppm, uint64_t sequences, uint64_t tokens,
                                 met_memory_totals_t *out) {
  *out = (met_memory_totals_t){0};
  if (util_ppm == 0 || util_ppm > 1000000) return MET_EINVAL;
  met_status_t kst = met_memory_kv_bytes(pool, sequences, tokens, &out->kv_blocks, &out->kv_bytes);
  if (kst == MET_EOVERFLOW) out->overflow_term = MET_MEMORY_FIELD_NAME(kv);
  MET_RETURN_IF_ERROR(kst);
  out->budget_bytes = (uint64_t)((unsigned __int128)memory_bytes * util_ppm / 1000000u);
  static const char *const names[] = {
      MET_MEMORY_FIELD_NAME(weights_stored), MET_MEMORY_FIELD_NAME(weights_derived),
      MET_MEMORY_FIELD_NAME(activations),    MET_MEMORY_FIELD_NAME(workspace),
      MET_MEMORY_FIELD_NAME(states),         MET_MEMORY_FIELD_NAME(kv),
      MET_MEMORY_FIELD_NAME(caches_device)};
  if (t->weights_replaced > t->weights_stored) return MET_EINVAL;
  const uint64_t terms[] = {t->weights_stored - t->weights_replaced, t->weights_derived,
                            t->activations,
                            t->workspace,      t->states,          out->kv_bytes,
                            t->caches_device};
  uint64_t device = 0, slack = 0;
  for (unsigned i = 0; i < sizeof(terms) / sizeof(terms[0]); ++i) {
    if (!met_add_u64(device, terms[i], &device) || add_slack(terms[i], d->chunk_bytes, &slack)) {
      out->overflow_term = names[i];
      return MET_EOVERFLOW;
    }
  }
  // reserved_ppm above 10^6 (a driver that reserves more than the device) is still
  // exact: the product is formed in 128 bits and checked before it narrows.
  unsigned __int128 reserved128 = (unsigned __int128)memory_bytes * d->reserved_ppm / 1000000u;
  if (reserved128 > UINT64_MAX) {
    out->overflow_term = MET_MEMORY_FIELD_NAME(driver);
    return MET_EOVERFLOW;
  }
  uint64_t reserved = (uint64_t)reserved128;
  uint64_t driver = d->context_bytes;
  if (!met_add_u64(driver, reserved, &driver) || !met_add_u64(driver, slack, &driver) ||
      !met_add_u64(device, driver, &device)) {
    out->overflow_term = MET_MEMORY_FIELD_NAME(driver);
    return MET_EOVERFLOW;
  }
  out->driver_bytes = driver;
  out->device_bytes = device;
  out->fits = device <= out->budget_bytes;
  if (out->fits) {
    uint64_t h = out->budget_bytes - device;
    out->headroom_bytes = h > INT64_MAX ? INT64_MAX : (int64_t)h;
  } else {
    uint64_t h = device - out->budget_bytes;
    out->headroom_bytes = h > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)h;
  }
  return MET_OK;
}

typedef struct query_t {
  const met_memory_terms_t *t;
  const met_kv_pool_t *pool;
  const met_driver_terms_t *d;
  uint64_t memory;
  uint32_t util;
  bool vary_sequences;
  uint64_t fixed;
} query_t;

// Whether |x| sequences (or tokens) fit; an overflow does not fit.
static met_status_t fits(const query_t *q, uint64_t x, bool *out) {
  met_memory_totals_t tot;
  met_status_t st = met_memory_evaluate(q->t, q->pool, q->d, q->memory, q->util,
                                        q->vary_sequences ? x : q->fixed,
                                        q->vary_sequences ? q->fixed : x, &tot);
  if (st == MET_EOVERFLOW) { *out = false; return MET_OK; }
  if (st) return st;
  *out = tot.fits;
  return MET_OK;
}

static met_status_t search(const query_t *q, uint64_t *out, bool *found) {
  *out = 0;
  *found = false;
  if (!q->pool || !q->pool->present || !q->fixed ||
      (met_memory_kv_missing(q->pool, 1, 1) & ~(MET_KV_MISSING_SEQUENCES | MET_KV_MISSING_TOKENS)))
    return MET_EINVAL;  // nothing grows with the query: the question has no answer
  bool ok;
  MET_RETURN_IF_ERROR(fits(q, 1, &ok));
  if (!ok) return MET_OK;
  uint64_t lo = 1, hi = 2;  // fits(lo); find a hi that does not fit
  for (;;) {
    MET_RETURN_IF_ERROR(fits(q, hi, &ok));
    if (!ok) break;
    lo = hi;
    if (hi > UINT64_MAX / 2) { *out = lo; *found = true; return MET_OK; }
    hi *= 2;
  }
  while (hi - lo > 1) {
    uint64_t mid = lo + (hi - lo) / 2;
    MET_RETURN_IF_ERROR(fits(q, mid, &ok));
    if (ok) lo = mid; else hi = mid;
  }
  *out = lo;
  *found = true;
  return MET_OK;
}

met_status_t met_memory_max_sequences(const met_memory_terms_t *t, const met_kv_pool_t *pool,
                                      const met_driver_terms_t *d, uint64_t memory_bytes,
                                      uint32_t util_ppm, uint64_t tokens, uint64_t *out,
                                      bool *out_found) {
  query_t q = {t, pool, d, memory_bytes, util_ppm, true, tokens};
  return search(&q, out, out_found);
}

met_status_t met_memory_max_tokens(const met_memory_terms_t *t, const met_kv_pool_t *pool,
                                   const met_driver_terms_t *d, uint64_t memory_bytes,
                                   uint32_t util_ppm, uint64_t sequences, uint64_t *out,
                                   bool *out_found) {
  query_t q = {t, pool, d, memory_bytes, util_ppm, false, sequences};
  return search(&q, out, out_found);
}

met_status_t met_memory_grid(const met_memory_terms_t *terms, const met_kv_pool_t *pool,
                             const met_driver_terms_t *driver, uint64_t memory_bytes,
                             uint32_t util_ppm, met_memory_grid_t *grid,
                             const char **overflow_term) {
  *overflow_term = NULL;
  grid->found = false;
  if (!grid->nseq || !grid->ntok || grid->nseq > MET_MEMORY_GRID_MAX ||
      grid->ntok > MET_MEMORY_GRID_MAX)
    return MET_EINVAL;
  unsigned __int128 best = 0;
  for (size_t i = 0; i < grid->nseq; ++i)
    for (size_t j = 0; j < grid->ntok; ++j) {
      met_memory_totals_t t;
      met_status_t st = met_memory_evaluate(terms, pool, driver, memory_bytes, util_ppm,
                                            grid->sequences[i], grid->tokens[j], &t);
      if (st) {
        *overflow_term = t.overflow_term;
        return st;
      }
      grid->cells[i][j].totals = t;
      unsigned __int128 area = (unsigned __int128)grid->sequences[i] * grid->tokens[j];
      // Ties keep the later cell: the same area with more tokens (tokens increase along j,
      // and a later i with the same area has fewer tokens, so it must be strictly larger).
      if (t.fits && (!grid->found || area > best ||
                     (area == best && grid->tokens[j] > grid->tokens[grid->best_j]))) {
        grid->found = true;
        best = area;
        grid->best_i = i;
        grid->best_j = j;
      }
    }
  return MET_OK;
}
