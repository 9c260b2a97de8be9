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

met_status_t met_output_write(MlirLocation loc, MlirStringRef path, const met_strbuf_t *sb,
                              met_strbuf_t *out, const char *what, met_diag_fn_t diag,
                              void *user) {
  if (path.length == 1 && path.data[0] == '-') {
    if (out) {
      met_strbuf_append(out, sb->data, sb->len);
      return out->status;
    }
    fwrite(sb->data, 1, sb->len, stdout);
    fflush(stdout);
    return MET_OK;
  }
  char *p = malloc(path.length + 1);
  if (!p) { met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "out of memory"); return MET_ENOMEM; }
  memcpy(p, path.data, path.length);
  p[path.length] = '\0';
  int e;
  met_status_t st = met_output_file(p, sb, &e);
  if (st) met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "cannot write the %s to '%s': %s", what,
                        p, strerror(e));
  free(p);
  return st;
}

met_status_t met_output_file(const char *path, const met_strbuf_t *sb, int *err_no) {
  errno = 0;
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(sb->data, 1, sb->len, f) == sb->len;
  if (!ok) *err_no = errno ? errno : EIO;
  if (f && fclose(f) != 0 && ok) {
    ok = false;
    *err_no = errno ? errno : EIO;
  }
  return ok ? MET_OK : MET_EEXTERNAL;
}

met_status_t met_output_rendered(MlirLocation loc, MlirStringRef path, met_strbuf_t *sb,
                                 met_strbuf_t *out, const char *what, met_diag_fn_t diag,
                                 void *user) {
  met_status_t st = sb->status;
  if (st)
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "cannot render the %s: %s", what,
                  met_status_str(st));
  else
    st = met_output_write(loc, path, sb, out, what, diag, user);
  met_strbuf_deinitialize(sb);
  return st;
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

// Fills |id| for output |p|; MET_EINVAL with the reason in |err|.
static met_status_t out_identify(const char *flag, const char *p, out_id_t *id, met_error_t *err) {
  struct stat st;
  memset(id, 0, sizeof(*id));
  if (stat(p, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return met_error_set(err, MET_EINVAL, "'%s%s%s' is a directory: give a file name", flag, flag_gap(flag), p);
    }
    if (access(p, W_OK) != 0) {
      return met_error_set(err, MET_EINVAL, "'%s%s%s' cannot be written: %s", flag, flag_gap(flag), p, strerror(errno));
    }
    *id = (out_id_t){true, S_ISCHR(st.st_mode), st.st_dev, st.st_ino, NULL};
    return MET_OK;
  }
  if (errno != ENOENT) {
    return met_error_set(err, MET_EINVAL, "'%s%s%s' cannot be written: %s", flag, flag_gap(flag), p, strerror(errno));
  }
  // A new file: its directory must exist and be writable.
  const char *slash = strrchr(p, '/');
  char dir[4096];
  size_t dl = slash ? (size_t)(slash - p) : 1;
  if (dl >= sizeof(dir)) {
    return met_error_set(err, MET_EINVAL, "'%s%s%s': the path is too long", flag, flag_gap(flag), p);
  }
  if (slash) memcpy(dir, p, dl ? dl : 1); else dir[0] = '.';
  dir[slash && !dl ? 1 : dl] = '\0';
  int got = stat(dir, &st);
  if (got != 0 || !S_ISDIR(st.st_mode)) {
    return met_error_set(err, MET_EINVAL, "'%s%s%s' cannot be written: '%s' %s", flag, flag_gap(flag), p, dir,
             got == 0 ? "is not a directory" : errno == ENOENT ? "does not exist"
                                                              : strerror(errno));
  }
  if (access(dir, W_OK) != 0) {
    return met_error_set(err, MET_EINVAL, "'%s%s%s' cannot be written: directory '%s': %s", flag, flag_gap(flag), p, dir,
             strerror(errno));
  }
  *id = (out_id_t){false, false, st.st_dev, st.st_ino, base_name(p)};
  return MET_OK;
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

met_status_t met_output_paths_check(const char *const *inputs, size_t ninputs,
                                    const char *const *flags, const char *const *paths, size_t n,
                                    met_error_t *err) {
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
          return met_error_set(err, MET_EINVAL, "'%s%s-' and '%s%s-' both write to standard output: one stream "
                   "would hold two documents; give one of them a file", flags[j],
                   flag_gap(flags[j]), flags[k], flag_gap(flags[k]));
        }
      if (fstat(STDOUT_FILENO, &st) != 0) continue;
      ids[k] = (out_id_t){true, S_ISCHR(st.st_mode), st.st_dev, st.st_ino, NULL};
    } else if (out_identify(flags[k], paths[k], &ids[k], err) != MET_OK) {
      return MET_EINVAL;
    }
    have[k] = true;
    if (ids[k].device) continue;
    for (size_t i = 0; ids[k].exists && i < ninputs; ++i) {
      struct stat st;
      if (input_stat(inputs[i], &st) && S_ISREG(st.st_mode) && st.st_dev == ids[k].dev &&
          st.st_ino == ids[k].ino) {
        return met_error_set(err, MET_EINVAL,
                 "'%s%s%s' is the input model%s%s%s%s: writing it would destroy the model; "
                 "give another file", flags[k], flag_gap(flags[k]), paths[k],
                 is_stdin(inputs[i]) ? " (read from standard input)" : " '",
                 is_stdin(inputs[i]) ? "" : inputs[i], is_stdin(inputs[i]) ? "" : "'",
                 is_stdout(paths[k]) ? " (standard output is redirected to it)" : "");
      }
    }
    for (size_t j = 0; j < k; ++j)
      if (have[j] && !ids[j].device && out_same(&ids[j], &ids[k])) {
        return met_error_set(err, MET_EINVAL, "'%s%s%s' and '%s%s%s' are the same file: only the last "
                 "would stay; give each its own", flags[j], flag_gap(flags[j]), paths[j],
                 flags[k], flag_gap(flags[k]), paths[k]);
      }
  }
  return MET_OK;
}

met_status_t met_input_nesting_check(const char *path, met_error_t *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return MET_OK;
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
  if (deepest <= MET_INPUT_MAX_NESTING) return MET_OK;
  return met_error_at_line(err, MET_EUNSUPPORTED, at_line, MET_NOWHERE,
                           "cannot read '%s': it nests more than %d levels deep (by line %zu), "
                           "past what MLIR's recursive parser can take", path,
                           MET_INPUT_MAX_NESTING, at_line);
}

met_status_t met_output_streams_check(const char *const *inputs, size_t ninputs,
                                      met_error_t *err) {
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
        if (fds[k] == STDERR_FILENO) return met_error_set(err, MET_EINVAL, "%s", "");
        return met_error_set(err, MET_EINVAL, "%s is redirected to the input model '%s': writing it would destroy "
                 "the model; redirect it to another file", names[k],
                 is_stdin(inputs[i]) ? "(standard input)" : inputs[i]);
      }
    }
  }
  return MET_OK;
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

met_status_t met_output_check_module(MlirOperation module, const char *const *flags,
                                     const MlirStringRef *paths, size_t n, met_diag_fn_t diag,
                                     void *user) {
  char *c[16] = {0};
  const char *cp[16] = {0};
  if (n > 16) n = 16;
  met_status_t st = MET_OK;
  for (size_t k = 0; k < n && !st; ++k) {
    if (!paths[k].length) continue;
    c[k] = malloc(paths[k].length + 1);
    if (!c[k]) st = MET_ENOMEM;
    else { memcpy(c[k], paths[k].data, paths[k].length); c[k][paths[k].length] = '\0'; }
    cp[k] = c[k];
  }
  MlirLocation loc = met_diag_module_loc(module);
  char *inputs[16] = {0};
  size_t ninputs = !st ? input_names(module, inputs, 16) : 0;
  met_error_t err;
  met_error_init(&err);
  if (st) met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "out of memory");
  else if ((st = met_output_paths_check((const char *const *)inputs, ninputs, flags, cp, n,
                                        &err)))
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "%s", met_error_message(&err));
  for (size_t k = 0; k < ninputs; ++k) free(inputs[k]);
  for (size_t k = 0; k < n; ++k) free(c[k]);
  return st;
}
