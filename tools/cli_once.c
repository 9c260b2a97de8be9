// tools/cli_once.c: what a sweep over targets holds of one model's runs (cli_once.h).
#include "cli_once.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cli_once_key_t {
  const void *loc;          // a location is uniqued: its pointer is it
  met_diag_severity_t sev;
  const char *msg;          // in the filter's arena
  size_t last_run, runs;    // the last run that gave it, and how many did
  size_t n_first, n_last;   // how often the first run gave it, and the last
  bool uneven;              // some run gave it a different number of times than the first
};

struct cli_once_item_t {
  MlirLocation loc;
  met_diag_severity_t sev;
  uint32_t key;
  size_t run;
};

// The maps of the distinct diagnostics, one a severity, in the filter's arena.
static void once_maps_initialize(cli_once_t *f) {
  for (size_t s = 0; s < 4; ++s) met_strmap_initialize(&f->arena, &f->by_sev[s]);
}

void cli_once_initialize(cli_once_t *f, met_diag_fn_t fn, void *user, bool remarks, FILE *out,
                         size_t spill_after, const char *tmpdir) {
  memset(f, 0, sizeof(*f));
  f->fn = fn;
  f->user = user;
  f->out = out;
  f->remarks = remarks;
  f->spill_after = spill_after ? spill_after : (size_t)8 << 20;
  f->tmpdir = tmpdir;
  f->mem_limit = (size_t)1 << 30;
  f->fd = -1;
  met_arena_initialize(met_allocator_system(), &f->arena);
  once_maps_initialize(f);
}

static void once_forget(cli_once_t *f) {
  if (f->fd >= 0) close(f->fd);
  f->fd = -1;
  f->spilled = 0;
  f->spill_failed = false;
  f->mlen = 0;
  if (f->mcap > ((size_t)1 << 20)) {  // a large model's: not kept for the next
    free(f->mem);
    f->mem = NULL;
    f->mcap = 0;
  }
  f->lead_blank = false;
  met_arena_deinitialize(&f->arena);
  met_arena_initialize(met_allocator_system(), &f->arena);
  once_maps_initialize(f);
  f->count = f->nkeys = f->runs = 0;
}

void cli_once_deinitialize(cli_once_t *f) {
  if (f->fd >= 0) close(f->fd);
  met_arena_deinitialize(&f->arena);
  free(f->items);
  free(f->keys);
  free(f->text_end);
  free(f->mem);
  memset(f, 0, sizeof(*f));
  f->fd = -1;
}

// Grows |*p| (|*cap| elements of |size| bytes) to hold |need|. False when it cannot.
static bool once_grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return true;
  size_t ncap = *cap ? *cap : 16;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2) return false;
    ncap *= 2;
  }
  if (ncap > SIZE_MAX / size) return false;
  void *n = realloc(*p, ncap * size);
  if (!n) return false;
  *p = n;
  *cap = ncap;
  return true;
}

static met_status_t once_hold(cli_once_t *f, MlirLocation loc, met_diag_severity_t sev,
                              const char *msg) {
  const void *lk = loc.ptr ? loc.ptr : (const void *)f;  // no location: one key of its own
  met_strmap_t *map = &f->by_sev[(unsigned)sev < 4 ? (unsigned)sev : 3];
  size_t len = strlen(msg), at = met_strmap_get(map, lk, msg, len);
  if (!once_grow((void **)&f->items, &f->cap, f->count + 1, sizeof(*f->items)))
    return MET_ENOMEM;
  if (at == SIZE_MAX) {
    if (f->nkeys >= UINT32_MAX - 1 ||
        !once_grow((void **)&f->keys, &f->kcap, f->nkeys + 1, sizeof(*f->keys)))
      return MET_ENOMEM;
    char *copy = met_arena_strndup(&f->arena, msg, len);
    if (!copy) return MET_ENOMEM;
    MET_RETURN_IF_ERROR(met_strmap_put(map, lk, copy, len, f->nkeys, NULL));
    f->keys[f->nkeys] = (cli_once_key_t){lk, sev, copy, f->runs, 1, 1, 1, false};
    at = f->nkeys++;
  } else {
    cli_once_key_t *e = &f->keys[at];
    if (e->last_run != f->runs) {  // the first time this run gives it: the last run is done
      if (e->n_last != e->n_first) e->uneven = true;
      e->last_run = f->runs;
      e->runs++;
      e->n_last = 0;
    }
    e->n_last++;
    if (e->runs == 1) e->n_first++;
  }
  f->items[f->count++] = (cli_once_item_t){loc, sev, (uint32_t)at, f->runs};
  return MET_OK;
}

static void once_give_up(cli_once_t *f, const met_strbuf_t *text, size_t head_len);

void cli_once_diag(void *user, MlirLocation loc, met_diag_severity_t sev, const char *msg) {
  cli_once_t *f = user;
  if (sev == MET_DIAG_REMARK && !f->remarks) return;  // neither printed nor logged
  if (f->passing || !once_hold(f, loc, sev, msg)) {
    if (f->passing) f->fn(f->user, loc, sev, msg);
    return;
  }
  // Cannot hold it: what is held goes out in order, then this, and the rest of the model
  // as it comes.
  once_give_up(f, NULL, 0);
  f->fn(f->user, loc, sev, msg);
}

// Writes |n| bytes at |off| of the file. False (errno set) when not all of them.
static bool once_pwrite(int fd, const char *p, size_t n, uint64_t off) {
  while (n) {
    ssize_t w = pwrite(fd, p, n, (off_t)off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= (size_t)w;
    off += (uint64_t)w;
  }
  return true;
}

// Appends |n| bytes to the file (made on first use). False when it cannot: the file keeps
// what it held, and the caller keeps these bytes.
static bool once_spill(cli_once_t *f, const char *p, size_t n) {
  if (f->spill_failed) return false;
  if (f->fd < 0) {
    const char *dir = f->tmpdir ? f->tmpdir : getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    size_t dl = strlen(dir);
    char *path = malloc(dl + sizeof("/metrale-sweep-XXXXXX"));
    if (path) {
      memcpy(path, dir, dl);
      memcpy(path + dl, "/metrale-sweep-XXXXXX", sizeof("/metrale-sweep-XXXXXX"));
      f->fd = mkstemp(path);
      if (f->fd >= 0) unlink(path);  // gone when closed, or when the command ends
      free(path);
    }
    if (f->fd < 0) {
      f->spill_failed = true;
      return false;
    }
  }
  if (!once_pwrite(f->fd, p, n, f->spilled)) {
    // What the file holds past |spilled| is never read: give the disk its room back (a
    // full disk is full for every other program too).
    f->spill_failed = true;
    while (ftruncate(f->fd, (off_t)f->spilled) < 0 && errno == EINTR) {
    }
    return false;
  }
  f->spilled += n;
  return true;
}

void cli_once_end_run(cli_once_t *f, met_strbuf_t *text, size_t head_len) {
  FILE *out = f->out;
  if (f->passing) {
    fwrite(text->data, 1, text->len, out);
    fflush(out);
    text->len = 0;
    return;
  }
  bool recorded = once_grow((void **)&f->text_end, &f->rcap, f->runs + 1, sizeof(*f->text_end));
  uint64_t start = f->spilled + f->mlen;
  bool held = !text->len;
  if (recorded && !held && f->mlen + text->len > f->spill_after && !f->spill_failed) {
    // Past what memory keeps: what memory holds goes to the file first, then this text.
    if (!f->mlen || once_spill(f, f->mem, f->mlen)) {
      f->mlen = 0;
      held = once_spill(f, text->data, text->len);
    }
  }
  if (recorded && !held && text->len <= f->mem_limit - f->mlen &&
      once_grow((void **)&f->mem, &f->mcap, f->mlen + text->len, 1)) {
    memcpy(f->mem + f->mlen, text->data, text->len);
    f->mlen += text->len;
    held = true;
  }
  if (!recorded || !held) {
    // Neither the file nor memory can hold it (or memory holds |mem_limit| already): what
    // is held goes out in order, then this run's heading, diagnostics and text, and the
    // rest of the model as it comes.
    once_give_up(f, text, head_len);
    text->len = 0;
    return;
  }
  if (!f->runs && text->len && text->data[0] == '\n') f->lead_blank = true;
  f->text_end[f->runs][0] = start + head_len;
  f->text_end[f->runs][1] = start + text->len;
  f->runs++;
  text->len = 0;
}

// Copies the held text from |*at| to |end| to |out|.
static void once_write(cli_once_t *f, FILE *out, uint64_t *at, uint64_t end) {
  if (end <= *at) return;
  char buf[1 << 15];
  uint64_t p = *at;
  while (p < end && p < f->spilled) {
    uint64_t want = (end < f->spilled ? end : f->spilled) - p;
    ssize_t n = pread(f->fd, buf, want < sizeof(buf) ? (size_t)want : sizeof(buf), (off_t)p);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (!f->read_error) f->read_error = n < 0 ? errno : -1;  // -1: the file ends early
      p = f->spilled;
      break;
    }
    fwrite(buf, 1, (size_t)n, out);
    p += (uint64_t)n;
  }
  if (p < end) fwrite(f->mem + (p - f->spilled), 1, (size_t)(end - p), out);
  *at = end;
  fflush(out);  // before the diagnostics that follow it on the terminal
}

// Writes what the finished runs hold: with |share|, what every run gave once first (as
// above); else each run's diagnostics under it. The items of a run under way are left.
static void once_write_runs(cli_once_t *f, bool share) {
  FILE *out = f->out;
  // Every run gave it, each as often: the first run's items are written first, the others'
  // not at all. The last run's count is compared here (a run's, when the next one gives it).
  for (size_t k = 0; k < f->nkeys; ++k)
    if (f->keys[k].n_last != f->keys[k].n_first) f->keys[k].uneven = true;
  #define ONCE_EVERY(it) (share && f->runs > 1 && f->keys[(it)->key].runs == f->runs && \
                          !f->keys[(it)->key].uneven)
  uint64_t at = 0;
  bool first = true;
  for (size_t i = 0; i < f->count && f->items[i].run == 0; ++i) {
    if (!ONCE_EVERY(&f->items[i])) continue;
    // The blank line that parts this model from what came before goes above its first
    // words, not between them and its first heading.
    if (first && f->lead_blank && f->text_end[0][0]) once_write(f, out, &at, 1);
    first = false;
    f->fn(f->user, f->items[i].loc, f->items[i].sev, f->keys[f->items[i].key].msg);
  }
  size_t i = 0;
  for (size_t r = 0; r < f->runs; ++r) {
    once_write(f, out, &at, f->text_end[r][0]);
    for (; i < f->count && f->items[i].run == r; ++i) {
      const cli_once_item_t *it = &f->items[i];
      if (!ONCE_EVERY(it)) f->fn(f->user, it->loc, it->sev, f->keys[it->key].msg);
    }
    once_write(f, out, &at, f->text_end[r][1]);
  }
  #undef ONCE_EVERY
}

// Writes what is held in order, each diagnostic under its run, then the run under way:
// |text|'s heading (its first |head_len| bytes; no text: the run has not ended), the run's
// diagnostics so far, the rest of |text|. The rest of the model then passes through.
static void once_give_up(cli_once_t *f, const met_strbuf_t *text, size_t head_len) {
  fprintf(stderr, "metrale: no room to hold a sweep's output (no temporary file, and memory "
          "full or past 1 GiB): the rest of this model's output is written as it comes, each "
          "target's diagnostics under it\n");
  once_write_runs(f, false);
  if (text) fwrite(text->data, 1, head_len, f->out);
  fflush(f->out);
  for (size_t i = 0; i < f->count; ++i)
    if (f->items[i].run == f->runs)
      f->fn(f->user, f->items[i].loc, f->items[i].sev, f->keys[f->items[i].key].msg);
  if (text) fwrite(text->data + head_len, 1, text->len - head_len, f->out);
  fflush(f->out);
  once_forget(f);
  f->passing = true;
}

met_status_t cli_once_flush(cli_once_t *f, const char *model, met_error_t *err) {
  if (!f->passing) {
    once_write_runs(f, true);
    once_forget(f);
  }
  f->passing = false;
  int e = f->read_error;
  f->read_error = 0;
  if (!e) return MET_OK;
  return met_error_set(err, MET_EEXTERNAL, "part of the output of %s held in a temporary file "
                       "could not be read back: %s", model,
                       e < 0 ? "the file ends early" : strerror(e));
}
