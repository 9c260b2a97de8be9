// output.c: see output.h.
#include "report/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir/diag.h"

bool met_output_write(MlirLocation loc, MlirStringRef path, const met_strbuf_t *sb,
                      met_strbuf_t *out, const char *what, met_diag_fn_t diag, void *user) {
  if (path.length == 1 && path.data[0] == '-') {
    if (out) { met_strbuf_append(out, sb->data, sb->len); return true; }
    fwrite(sb->data, 1, sb->len, stdout);
    fflush(stdout);
    return true;
  }
  char *p = malloc(path.length + 1);
  if (!p) { met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "out of memory"); return false; }
  memcpy(p, path.data, path.length);
  p[path.length] = '\0';
  FILE *f = fopen(p, "wb");
  bool ok = f && fwrite(sb->data, 1, sb->len, f) == sb->len;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "cannot write the %s to '%s': %s", what,
                         p, strerror(errno));
  free(p);
  return ok;
}

bool met_output_rendered(MlirLocation loc, MlirStringRef path, met_strbuf_t *sb,
                         met_strbuf_t *out, const char *what, met_diag_fn_t diag, void *user) {
  bool ok = !sb->status;
  if (!ok)
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "cannot render the %s: %s", what,
                  met_status_str(sb->status));
  else
    ok = met_output_write(loc, path, sb, out, what, diag, user);
  met_strbuf_deinitialize(sb);
  return ok;
}

// What identifies a file the run would write: an existing one by device and inode, a new
// one by its directory's device and inode and its name there.
typedef struct out_id_t {
  bool exists, device;  // |device|: a character device (several writers are harmless)
  dev_t dev;
  ino_t ino;
  const char *base;     // a new file's name in its directory
} out_id_t;

// "json=F" or "--json F", as the user wrote it.
static const char *flag_gap(const char *flag) {
  size_t l = strlen(flag);
  return l && flag[l - 1] == '=' ? "" : " ";
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

// Fills |id| for output |p|; false with the reason in |why|.
static bool out_identify(const char *flag, const char *p, out_id_t *id, char *why, size_t cap) {
  struct stat st;
  memset(id, 0, sizeof(*id));
  if (stat(p, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      snprintf(why, cap, "'%s%s%s' is a directory: give a file name", flag, flag_gap(flag), p);
      return false;
    }
    if (access(p, W_OK) != 0) {
      snprintf(why, cap, "'%s%s%s' cannot be written: %s", flag, flag_gap(flag), p, strerror(errno));
      return false;
    }
    *id = (out_id_t){true, S_ISCHR(st.st_mode), st.st_dev, st.st_ino, NULL};
    return true;
  }
  if (errno != ENOENT) {
    snprintf(why, cap, "'%s%s%s' cannot be written: %s", flag, flag_gap(flag), p, strerror(errno));
    return false;
  }
  // A new file: its directory must exist and be writable.
  const char *slash = strrchr(p, '/');
  char dir[4096];
  size_t dl = slash ? (size_t)(slash - p) : 1;
  if (dl >= sizeof(dir)) {
    snprintf(why, cap, "'%s%s%s': the path is too long", flag, flag_gap(flag), p);
    return false;
  }
  if (slash) memcpy(dir, p, dl ? dl : 1); else dir[0] = '.';
  dir[slash && !dl ? 1 : dl] = '\0';
  int got = stat(dir, &st);
  if (got != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(why, cap, "'%s%s%s' cannot be written: '%s' %s", flag, flag_gap(flag), p, dir,
             got == 0 ? "is not a directory" : errno == ENOENT ? "does not exist"
                                                              : strerror(errno));
    return false;
  }
  if (access(dir, W_OK) != 0) {
    snprintf(why, cap, "'%s%s%s' cannot be written: directory '%s': %s", flag, flag_gap(flag), p, dir,
             strerror(errno));
    return false;
  }
  *id = (out_id_t){false, false, st.st_dev, st.st_ino, base_name(p)};
  return true;
}

static bool out_same(const out_id_t *a, const out_id_t *b) {
  if (a->exists != b->exists || a->dev != b->dev || a->ino != b->ino) return false;
  return a->exists || !strcmp(a->base, b->base);
}

static bool is_file(const char *p) { return p && *p && strcmp(p, "-"); }

bool met_output_paths_ok(const char *const *inputs, size_t ninputs, const char *const *flags,
                         const char *const *paths, size_t n, char *why, size_t cap) {
  out_id_t ids[16];
  if (n > 16) n = 16;
  for (size_t k = 0; k < n; ++k) {
    if (!is_file(paths[k])) continue;
    if (!out_identify(flags[k], paths[k], &ids[k], why, cap)) return false;
    if (ids[k].device) continue;
    for (size_t i = 0; ids[k].exists && i < ninputs; ++i) {
      struct stat st;
      if (inputs[i] && stat(inputs[i], &st) == 0 && st.st_dev == ids[k].dev &&
          st.st_ino == ids[k].ino) {
        snprintf(why, cap,
                 "'%s%s%s' is the input model '%s': writing it would destroy the model; "
                 "give another file", flags[k], flag_gap(flags[k]), paths[k], inputs[i]);
        return false;
      }
    }
    for (size_t j = 0; j < k; ++j)
      if (is_file(paths[j]) && !ids[j].device && out_same(&ids[j], &ids[k])) {
        snprintf(why, cap, "'%s%s%s' and '%s%s%s' are the same file: only the last "
                 "would stay; give each its own", flags[j], flag_gap(flags[j]), paths[j],
                 flags[k], flag_gap(flags[k]), paths[k]);
        return false;
      }
  }
  return true;
}

bool met_output_check_module(MlirOperation module, const char *const *flags,
                             const MlirStringRef *paths, size_t n, met_diag_fn_t diag,
                             void *user) {
  char *c[16] = {0};
  const char *cp[16] = {0};
  if (n > 16) n = 16;
  bool ok = true;
  for (size_t k = 0; k < n && ok; ++k) {
    if (!paths[k].length) continue;
    c[k] = malloc(paths[k].length + 1);
    if (!c[k]) ok = false;
    else { memcpy(c[k], paths[k].data, paths[k].length); c[k][paths[k].length] = '\0'; }
    cp[k] = c[k];
  }
  MlirLocation loc = met_diag_module_loc(module);
  // The file the module was read from, as its location names it.
  char *input = NULL;
  MlirLocation ml = mlirOperationGetLocation(module);
  if (!mlirLocationIsAFileLineColRange(ml)) ml = loc;
  if (mlirLocationIsAFileLineColRange(ml)) {
    MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(ml));
    input = malloc(f.length + 1);
    if (input) { memcpy(input, f.data, f.length); input[f.length] = '\0'; }
  }
  char why[4352];
  const char *in[1] = {input};
  if (!ok) met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "out of memory");
  else if (!met_output_paths_ok(in, input ? 1 : 0, flags, cp, n, why, sizeof(why))) {
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "%s", why);
    ok = false;
  }
  free(input);
  for (size_t k = 0; k < n; ++k) free(c[k]);
  return ok;
}
