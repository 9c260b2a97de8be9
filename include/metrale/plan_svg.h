// metrale/plan_svg.h: the Budget's arena plan of one function as a self-contained SVG (no
// script, no external font), as tall as what it holds, in up to three panels: the whole
// schedule (each slot a rectangle from its first to its last schedule position at its
// offset, coloured by the kind of op that produced it, a <title> tooltip on every slot,
// the sum-of-live lower bound dashed, the peak position as a band behind the slots, the
// ten largest slots numbered on their rectangles and listed with their op and location);
// around the peak (the positions its live slots span, at most 40 each side, the slots
// labelled on their rectangles where they have room); and, for a layered schedule (a
// block of >= 8 positions repeated >= 3 times over half the schedule or more, positions
// compared by their op, folding into at most 256 rows), the
// schedule folded at that block, a row per copy, each position shaded by its live bytes.
// Slots narrower or lower than a pixel are drawn one pixel wide or high. No I/O.
#ifndef METRALE_PLAN_SVG_H
#define METRALE_PLAN_SVG_H

#include "metrale/budget.h"
#include "metrale/graph.h"
#include "metrale/memory_report.h"
#include "metrale/strbuf.h"
#include "metrale/target.h"

// Appends the picture of |r|'s plan of |g| (names and locations when they were recorded)
// to |sb|. MET_ENOMEM, or |sb|'s status.
met_status_t met_plan_svg(met_strbuf_t *sb, const char *function, const met_target_t *target,
                          const met_graph_t *g, const met_budget_report_t *r);

// The memory model's device total as a stacked bar of its terms (stored and derived
// weights, activations, workspace, states, KV pool, device caches, driver), the budget as
// a dashed line and the headroom (or the overshoot) between them, a legend with bytes.
met_status_t met_memory_svg(met_strbuf_t *sb, const met_target_t *target,
                            const met_memory_report_t *r);

#endif
