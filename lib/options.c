// options.c: the table of metrale/options.def (metrale/options.h).
#include "metrale/options.h"

static const met_option_t kOptions[MET_OPT_COUNT] = {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  {name, cli, help, MET_PASSES_##passes, MET_OPTION_##kind, lo, hi, #member},
#include "metrale/options.def"
#undef MET_OPTION
};

const met_option_t *met_options(void) { return kOptions; }
