// cli_files.c: what every command reads whole and writes (cli.h): a file or standard
// input read to its end, a document written to a file or standard output, and standard
// output's own failure said once at the end.
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "report/output.h"

// Standard output may be a full disk or a closed pipe: a report that was not written is
// a failure (exit status 1), not a success.
int cli_finish_stdout(int rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "metrale: cannot write to standard output\n");
    return rc ? rc : 1;
  }
  return rc;
}

met_status_t cli_say(const char *prefix, const met_error_t *e) {
  if (e->message[0]) fprintf(stderr, "%s: %s\n", prefix, e->message);
  return e->code;
}

met_status_t cli_write_output(const char *path, const char *what, const met_strbuf_t *sb,
                              met_error_t *err) {
  bool out_std = !strcmp(path, "-");
  if (out_std && !sb->status) {
    if (fwrite(sb->data, 1, sb->len, stdout) == sb->len) return MET_OK;
    err->code = MET_EEXTERNAL;  // said when the command ends (cli_finish_stdout)
    return MET_EEXTERNAL;
  }
  int e = 0;
  if (!sb->status && met_output_file(path, sb, &e) == MET_OK) return MET_OK;
  return met_error_set(err, sb->status ? sb->status : MET_EEXTERNAL, "cannot write %s'%s': %s",
                       what ? what : "", path, sb->status ? met_status_str(sb->status) : strerror(e));
}

met_status_t cli_read_file(const char *path, size_t max_bytes, const char *why_max,
                           char **out, size_t *len, met_error_t *err) {
  bool in = !strcmp(path, "-");
  struct stat st;
  if (!in && stat(path, &st) != 0)
    return met_error_set(err, MET_EEXTERNAL, "cannot read '%s': %s", path, strerror(errno));
  if (!in && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    return met_error_set(err, MET_EUNSUPPORTED, "cannot read '%s': it is %s, not a file or a pipe",
                         path, S_ISDIR(st.st_mode)   ? "a directory"
                               : S_ISCHR(st.st_mode) ? "a character device"
                                                     : "no regular file");
  FILE *f = in ? stdin : fopen(path, "rb");
  if (!f) return met_error_set(err, MET_EEXTERNAL, "cannot read '%s': %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  bool ok = buf != NULL, big = false;
  while (ok) {
    if (n + 1 == cap) {
      if (cap >= max_bytes) { big = true; break; }
      char *nb = realloc(buf, cap * 2);
      if (!nb) { ok = false; break; }
      buf = nb;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (!got) break;
  }
  ok = ok && !ferror(f) && !big;
  if (!in) fclose(f);
  if (!ok) {
    free(buf);
    return met_error_set(err, big ? MET_EUNSUPPORTED : MET_EEXTERNAL, "cannot read '%s': %s", path,
                         big ? why_max : "a read failed or memory ran out");
  }
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return MET_OK;
}
