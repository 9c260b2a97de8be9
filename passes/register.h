// passes/register.h: registers the metrale passes (metrale-budget, metrale-memory,
// metrale-dispatch) into
// MLIR's global pass registry. Called once, before the command line is parsed, by
// metrale-opt and by the plugin's entry point (passes/register.cpp).
#ifndef METRALE_PASSES_REGISTER_H
#define METRALE_PASSES_REGISTER_H

#ifdef __cplusplus
extern "C" {
#endif

void met_register_passes(void);

#ifdef __cplusplus
}
#endif

#endif
