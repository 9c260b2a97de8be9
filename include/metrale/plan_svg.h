// metrale/plan_svg.h: the Budget's arena plan of one function as a self-contained SVG (no
// script, no external font): each slot a rectangle from its first to its last schedule
// position at its offset, coloured by the kind of op that produced it, a <title> tooltip
// on every slot (value, op, location, bytes, offset, lifetime), the peak position with
// its live bytes, the sum-of-live lower bound as a dashed line, axes with units, the ten
// largest slots labelled with their op and file:line, and a legend. Slots narrower or
// lower than a pixel are drawn one pixel wide or high, so a plan of thousands of slots
// stays readable as a map. No I/O.
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
