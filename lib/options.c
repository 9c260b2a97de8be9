// options.c: the table of metrale/options.def (metrale/options.h).
#include "metrale/options.h"

#include <string.h>

#include "metrale/limits.h"
#include "metrale/parse.h"

static const met_option_t kOptions[MET_OPT_COUNT] = {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  {name, cli, help, MET_PASSES_##passes, MET_OPTION_##kind, lo, hi, #member},
#include "metrale/options.def"
#undef MET_OPTION
};

const met_option_t *met_options(void) { return kOptions; }

met_status_t met_option_parse_num(int opt, const char *shown, const char *s, size_t len,
                                  uint64_t *out, met_error_t *err) {
  const met_option_t *o = &kOptions[opt];
  bool size = (o->kind == MET_OPTION_LIMIT_MAX || o->kind == MET_OPTION_LIMIT_MIN) &&
              met_limit_field_is_bytes(o->member, strlen(o->member));
  return size ? met_parse_option_size(shown, s, len, o->lo, o->hi, out, err)
              : met_parse_option_u64(shown, s, len, o->lo, o->hi, out, err);
}
