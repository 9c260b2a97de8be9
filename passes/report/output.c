// output.c: see output.h.
#include "report/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir/diag.h"
#include "ir/ir.h"

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

static bool is_stdout(const char *p) { return p && !strcmp(p, "-"); }
// An input read from standard input: '-', or the name MLIR's parser gives it.
static bool is_stdin(const char *p) { return p && (!strcmp(p, "-") || !strcmp(p, "<stdin>")); }

// The file behind an input: standard input's when it is '-'.
static bool input_stat(const char *p, struct stat *st) {
  if (!p) return false;
  return is_stdin(p) ? fstat(STDIN_FILENO, st) == 0 : stat(p, st) == 0;
}

bool met_output_paths_ok(const char *const *inputs, size_t ninputs, const char *const *flags,
                         const char *const *paths, size_t n, char *why, size_t cap) {
  out_id_t ids[16];
  bool have[16] = {false};
  if (n > 16) n = 16;
  for (size_t k = 0; k < n; ++k) {
    if (!paths[k] || !*paths[k]) continue;
    if (is_stdout(paths[k])) {
      // Standard output is a file too when the shell redirects it to one ('>> m.mlir').
      struct stat st;
      for (size_t j = 0; j < k; ++j)
        if (is_stdout(paths[j])) {
          snprintf(why, cap, "'%s%s-' and '%s%s-' both write to standard output: one stream "
                   "would hold two documents; give one of them a file", flags[j],
                   flag_gap(flags[j]), flags[k], flag_gap(flags[k]));
          return false;
        }
      if (fstat(STDOUT_FILENO, &st) != 0) continue;
      ids[k] = (out_id_t){true, S_ISCHR(st.st_mode), st.st_dev, st.st_ino, NULL};
    } else if (!out_identify(flags[k], paths[k], &ids[k], why, cap)) {
      return false;
    }
    have[k] = true;
    if (ids[k].device) continue;
    for (size_t i = 0; ids[k].exists && i < ninputs; ++i) {
      struct stat st;
      if (input_stat(inputs[i], &st) && S_ISREG(st.st_mode) && st.st_dev == ids[k].dev &&
          st.st_ino == ids[k].ino) {
        snprintf(why, cap,
                 "'%s%s%s' is the input model%s%s%s%s: writing it would destroy the model; "
                 "give another file", flags[k], flag_gap(flags[k]), paths[k],
                 is_stdin(inputs[i]) ? " (read from standard input)" : " '",
                 is_stdin(inputs[i]) ? "" : inputs[i], is_stdin(inputs[i]) ? "" : "'",
                 is_stdout(paths[k]) ? " (standard output is redirected to it)" : "");
        return false;
      }
    }
    for (size_t j = 0; j < k; ++j)
      if (have[j] && !ids[j].device && out_same(&ids[j], &ids[k])) {
        snprintf(why, cap, "'%s%s%s' and '%s%s%s' are the same file: only the last "
                 "would stay; give each its own", flags[j], flag_gap(flags[j]), paths[j],
                 flags[k], flag_gap(flags[k]), paths[k]);
        return false;
      }
  }
  return true;
}

bool met_input_nesting_ok(const char *path, char *why, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return true;
  char buf[1 << 16];
  size_t n, depth = 0, deepest = 0, line = 1, at_line = 0;
  bool str = false, esc = false, comment = false, slash = false;
  while (deepest <= MET_INPUT_MAX_NESTING && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
    for (size_t i = 0; i < n; ++i) {
      char c = buf[i];
      if (c == '\n') { ++line; comment = false; slash = false; esc = false; continue; }
      if (comment) continue;
      if (str) {
        if (esc) esc = false;
        else if (c == '\\') esc = true;
        else if (c == '"') str = false;
        continue;
      }
      if (c == '/') { if (slash) comment = true; slash = !slash; continue; }
      slash = false;
      if (c == '"') str = true;
      else if (c == '{' || c == '[' || c == '(') {
        if (++depth > deepest) { deepest = depth; at_line = line; }
      } else if ((c == '}' || c == ']' || c == ')') && depth) {
        --depth;
      }
    }
  }
  fclose(f);
  if (deepest <= MET_INPUT_MAX_NESTING) return true;
  snprintf(why, cap, "cannot read '%s': it nests more than %d levels deep (by line %zu), "
           "past what MLIR's recursive parser can take", path, MET_INPUT_MAX_NESTING, at_line);
  return false;
}

bool met_output_streams_ok(const char *const *inputs, size_t ninputs, char *why, size_t cap) {
  static const int fds[2] = {STDOUT_FILENO, STDERR_FILENO};
  static const char *const names[2] = {"standard output", "standard error"};
  for (int k = 0; k < 2; ++k) {
    struct stat o;
    if (fstat(fds[k], &o) != 0 || !S_ISREG(o.st_mode)) continue;
    for (size_t i = 0; i < ninputs; ++i) {
      struct stat st;
      if (input_stat(inputs[i], &st) && S_ISREG(st.st_mode) && st.st_dev == o.st_dev &&
          st.st_ino == o.st_ino) {
        // Said on standard error, unless that is the model: then nothing is said (exit
        // status 2 alone), as any word would land in the model.
        if (fds[k] == STDERR_FILENO) { if (cap) why[0] = '\0'; return false; }
        snprintf(why, cap, "%s is redirected to the input model '%s': writing it would destroy "
                 "the model; redirect it to another file", names[k],
                 is_stdin(inputs[i]) ? "(standard input)" : inputs[i]);
        return false;
      }
    }
  }
  return true;
}

// The files the module says it was read from: its own location's and those of its
// top-level ops (and of nested modules'), as a module printed with debug locations may
// name another file at the top (loc("elsewhere.mlir":1:1)) while its ops name the real
// one. At most |cap| distinct names, each malloc'ed into |out|.
static size_t input_names(MlirOperation module, char **out, size_t cap) {
  size_t n = 0;
  MlirOperation stack[8];
  size_t depth = 0;
  stack[depth++] = module;
  while (depth && n < cap) {
    MlirOperation m = stack[--depth];
    MlirLocation locs[1 + 64];
    size_t nl = 0;
    locs[nl++] = mlirOperationGetLocation(m);
    MlirBlock body = mlirOperationGetNumRegions(m) ? mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0))
                                                   : (MlirBlock){NULL};
    size_t seen = 0;
    for (MlirOperation op = mlirBlockIsNull(body) ? (MlirOperation){NULL} : mlirBlockGetFirstOperation(body);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      if (nl < sizeof(locs) / sizeof(locs[0]) && seen++ < 64) locs[nl++] = mlirOperationGetLocation(op);
      if (depth < 8 && met_ir_op_is(op, "builtin.module"))
        stack[depth++] = op;
    }
    for (size_t i = 0; i < nl && n < cap; ++i) {
      char buf[4096];
      if (!met_diag_loc_file(locs[i], buf, sizeof(buf))) continue;
      bool dup = false;
      for (size_t k = 0; k < n && !dup; ++k) dup = !strcmp(out[k], buf);
      if (dup) continue;
      out[n] = strdup(buf);
      if (out[n]) ++n;
    }
  }
  return n;
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
  char *inputs[16] = {0};
  size_t ninputs = ok ? input_names(module, inputs, 16) : 0;
  char why[4352];
  if (!ok) met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "out of memory");
  else if (!met_output_paths_ok((const char *const *)inputs, ninputs, flags, cp, n, why, sizeof(why))) {
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "%s", why);
    ok = false;
  }
  for (size_t k = 0; k < ninputs; ++k) free(inputs[k]);
  for (size_t k = 0; k < n; ++k) free(c[k]);
  return ok;
}
