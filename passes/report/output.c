// output.c: see output.h.
#include "report/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
