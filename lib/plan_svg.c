// plan_svg.c: the Budget's arena plan as a picture (metrale/plan_svg.h). No I/O.
#include "metrale/plan_svg.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrale/report.h"

// One colour per kind of producer (the op class of the node that made the slot).
static const char *class_colour(uint8_t cls, bool scratch) {
  if (scratch) return "#9e9e9e";
  switch (cls) {
    case MET_CLASS_MATMUL: return "#1f77b4";
    case MET_CLASS_CONV: return "#2ca02c";
    case MET_CLASS_ELEMENTWISE: return "#ff7f0e";
    case MET_CLASS_REDUCTION: return "#9467bd";
    case MET_CLASS_DATA_MOVEMENT: return "#d62728";
    case MET_CLASS_FILL: return "#8c564b";
    case MET_CLASS_LOOP: return "#e377c2";
    default: return "#7f7f7f";
  }
}

static const char *class_name(uint8_t cls, bool scratch) {
  if (scratch) return "scratch (a region or a callee)";
  switch (cls) {
    case MET_CLASS_MATMUL: return "matmul";
    case MET_CLASS_CONV: return "conv / pooling";
    case MET_CLASS_ELEMENTWISE: return "elementwise";
    case MET_CLASS_REDUCTION: return "reduction";
    case MET_CLASS_DATA_MOVEMENT: return "data movement";
    case MET_CLASS_FILL: return "fill";
    case MET_CLASS_LOOP: return "loop nest";
    default: return "other";
  }
}

// Text for SVG/XML: & < > " escaped.
static void xml(met_strbuf_t *sb, const char *s) {
  for (const char *p = s ? s : ""; *p; ++p) {
    switch (*p) {
      case '&': MET_STRBUF_LIT(sb, "&amp;"); break;
      case '<': MET_STRBUF_LIT(sb, "&lt;"); break;
      case '>': MET_STRBUF_LIT(sb, "&gt;"); break;
      case '"': MET_STRBUF_LIT(sb, "&quot;"); break;
      default:
        if ((unsigned char)*p >= 0x20) met_strbuf_append(sb, p, 1);
    }
  }
}

met_status_t met_plan_svg(met_strbuf_t *sb, const char *function, const met_target_t *target,
                          const met_graph_t *g, const met_budget_report_t *r) {
  // Geometry: a plot of W x H pixels at (L, T); positions on x, offsets on y.
  const double L = 90, T = 50, W = 960, H = 540;
  uint32_t positions = g->position_count ? g->position_count : 1;
  uint64_t arena = r->budget.arena_bytes ? r->budget.arena_bytes : 1;
  double px = W / positions, py = H / (double)arena;
  // The position where the live sum peaks, and its bytes.
  uint64_t *live = calloc(positions + 1, sizeof(uint64_t));
  size_t order[10];
  if (!live) return MET_ENOMEM;
  // Live bytes by position from a difference array (the sum of all slots is the
  // Budget's materialized_bytes, checked to fit in 64 bits).
  for (size_t k = 0; k < r->slot_count; ++k) {
    const met_slot_t *s = &r->slots[k];
    if (s->first < 0 || s->last < s->first || (uint32_t)s->last >= positions) continue;
    live[s->first] += s->bytes;
    live[s->last + 1] -= s->bytes;
  }
  uint32_t peak_at = 0;
  uint64_t run = 0, peak = 0;
  for (uint32_t p = 0; p < positions; ++p) {
    run += live[p];
    if (run > peak) { peak = run; peak_at = p; }
  }
  met_strbuf_printf(sb,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n",
                    (int)(L + W + 340), (int)(T + H + 60), (int)(L + W + 340), (int)(T + H + 60));
  MET_STRBUF_LIT(sb, "<title>");
  xml(sb, function);
  met_strbuf_printf(sb, " on %s: arena plan</title>\n", target->name);
  MET_STRBUF_LIT(sb, "<text x=\"10\" y=\"20\" font-size=\"14\">@");
  xml(sb, function);
  met_strbuf_printf(sb, " on %s: arena %" PRIu64 " B, peak live %" PRIu64 " B (the lower bound), "
                        "%zu slots, %u positions</text>\n",
                    target->name, r->budget.arena_bytes, r->budget.peak_live_bytes,
                    r->slot_count, g->position_count);
  // The slots: rectangles from first to last position at their offset. Very small ones
  // get at least one pixel, so a 2,000-slot plan still shows every slot.
  for (size_t k = 0; k < r->slot_count; ++k) {
    const met_slot_t *s = &r->slots[k];
    bool scratch = s->value == MET_SLOT_SCRATCH;
    const met_node_t *n = s->node >= 0 && (size_t)s->node < g->node_count ? &g->nodes[s->node] : NULL;
    double x = L + s->first * px, w = (s->last - s->first + 1) * px;
    double y = T + H - (double)(s->offset + s->bytes) * py, h = (double)s->bytes * py;
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    met_strbuf_printf(sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                          "fill-opacity=\"0.8\" stroke=\"#333\" stroke-width=\"0.3\"><title>",
                      x, y, w, h, class_colour(n ? n->op_class : 0, scratch));
    if (!scratch && met_graph_value_name(g, (size_t)s->value)) {
      xml(sb, met_graph_value_name(g, (size_t)s->value));
      MET_STRBUF_LIT(sb, " = ");
    }
    xml(sb, n ? n->name : "?");
    const char *loc = n ? met_graph_node_loc(g, (size_t)(n - g->nodes)) : NULL;
    if (loc) {
      MET_STRBUF_LIT(sb, " at ");
      xml(sb, loc);
    }
    met_strbuf_printf(sb, "&#10;%" PRIu64 " B at offset %" PRIu64 ", live at positions %d to %d "
                          "(%s)</title></rect>\n",
                      s->bytes, s->offset, s->first, s->last,
                      class_name(n ? n->op_class : 0, scratch));
  }
  // The lower bound (peak live) as a line, the arena as the frame, the peak position.
  double lb = T + H - (double)r->budget.peak_live_bytes * py;
  met_strbuf_printf(sb, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
                        "stroke=\"#000\"/>\n", L, T, W, H);
  met_strbuf_printf(sb, "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#000\" "
                        "stroke-dasharray=\"6 3\"/><text x=\"%.0f\" y=\"%.2f\">lower bound "
                        "(peak live) %" PRIu64 " B</text>\n",
                    L, lb, L + W, lb, L + 4, lb < T + 14 ? lb + 12 : lb - 4,
                    r->budget.peak_live_bytes);
  double xp = L + (peak_at + 0.5) * px;
  bool right = xp > L + W * 0.6;  // the label goes to the side with room
  met_strbuf_printf(sb, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#c00\" "
                        "stroke-width=\"1.5\"/><text x=\"%.2f\" y=\"%.0f\" fill=\"#c00\" "
                        "text-anchor=\"%s\">peak at position %u: %" PRIu64 " B live</text>\n",
                    xp, T, xp, T + H, right ? xp - 4 : xp + 4, T - 6, right ? "end" : "start",
                    peak_at, peak);
  // Axes with units.
  met_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">schedule position "
                        "(op order, 0 to %u)</text>\n", L + W / 2, T + H + 35, positions - 1);
  met_strbuf_printf(sb, "<text x=\"20\" y=\"%.0f\" transform=\"rotate(-90 20 %.0f)\" "
                        "text-anchor=\"middle\">arena offset (bytes)</text>\n",
                    T + H / 2, T + H / 2);
  for (int t = 0; t <= 4; ++t) {
    uint64_t off = r->budget.arena_bytes / 4 * (uint64_t)t;
    double y = T + H - (double)off * py;
    met_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">", L - 4, y + 4);
    met_report_bytes(sb, off);
    MET_STRBUF_LIT(sb, "</text>\n");
    uint32_t pos = (uint32_t)((uint64_t)(positions - 1) * (uint64_t)t / 4);
    met_strbuf_printf(sb, "<text x=\"%.2f\" y=\"%.0f\" text-anchor=\"middle\">%u</text>\n",
                      L + (pos + 0.5) * px, T + H + 16, pos);
  }
  // The largest slots (the 10 largest, earliest first among equals), labelled with their
  // op and file:line right of the plot. O(10 x slots).
  size_t top = 0;
  for (; top < 10 && top < r->slot_count; ++top) {
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < r->slot_count; ++k) {
      bool taken = false;
      for (size_t t = 0; t < top && !taken; ++t) taken = order[t] == k;
      if (!taken && (best == SIZE_MAX || r->slots[k].bytes > r->slots[best].bytes)) best = k;
    }
    order[top] = best;
  }
  MET_STRBUF_LIT(sb, "<text x=\"1060\" y=\"66\" font-weight=\"bold\">largest slots</text>\n");
  for (size_t k = 0; k < top; ++k) {
    const met_slot_t *s = &r->slots[order[k]];
    const met_node_t *n = s->node >= 0 && (size_t)s->node < g->node_count ? &g->nodes[s->node] : NULL;
    // "9.0 MiB tosa.transpose model.mlir:123:10", cut to fit the margin (the tooltip of
    // the slot has it whole).
    // The file name shortened (the line and column kept whole): "model.mlir:86:12", or
    // "buddy_buddyl...:86:12" for a long one.
    char label[256], where[64] = "";
    const char *loc = n ? met_graph_node_loc(g, (size_t)(n - g->nodes)) : NULL;
    if (loc) {
      const char *base = strrchr(loc, '/');
      base = base ? base + 1 : loc;
      const char *colon = strchr(base, ':');
      size_t name_len = colon ? (size_t)(colon - base) : strlen(base);
      if (name_len > 16) {
        int keep = 13;  // whole characters: a UTF-8 sequence split in two is no XML
        while (keep > 0 && ((unsigned char)base[keep] & 0xC0) == 0x80) --keep;
        snprintf(where, sizeof(where), "%.*s...%s", keep, base, colon ? colon : "");
      }
      else
        snprintf(where, sizeof(where), "%s", base);
    }
    met_strbuf_t b;
    met_strbuf_initialize(met_allocator_system(), &b);
    met_report_bytes(&b, s->bytes);
    snprintf(label, sizeof(label), "%s %s %s", b.data ? b.data : "", n ? n->name : "?", where);
    met_strbuf_deinitialize(&b);
    if (strlen(label) > 52) {
      // Cut at a character's start: a UTF-8 sequence split in two is no XML.
      size_t cut = 49;
      while (cut > 0 && ((unsigned char)label[cut] & 0xC0) == 0x80) --cut;
      memcpy(label + cut, "...", 4);
    }
    met_strbuf_printf(sb, "<text x=\"1060\" y=\"%zu\">", 84 + 16 * k);
    xml(sb, label);
    MET_STRBUF_LIT(sb, "</text>\n");
  }
  // The legend: the producer kinds present.
  bool seen[16] = {false}, seen_scratch = false;
  for (size_t k = 0; k < r->slot_count; ++k) {
    const met_slot_t *s = &r->slots[k];
    if (s->value == MET_SLOT_SCRATCH) { seen_scratch = true; continue; }
    if (s->node >= 0 && (size_t)s->node < g->node_count && g->nodes[s->node].op_class < 16)
      seen[g->nodes[s->node].op_class] = true;
  }
  int row = 0;
  MET_STRBUF_LIT(sb, "<text x=\"1060\" y=\"290\" font-weight=\"bold\">produced by</text>\n");
  for (int c = 0; c < 16 + 1; ++c) {
    bool scratch = c == 16;
    if (scratch ? !seen_scratch : !seen[c]) continue;
    double y = 300 + 16 * row++;
    met_strbuf_printf(sb, "<rect x=\"1060\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                          "<text x=\"1076\" y=\"%.0f\">%s</text>\n",
                      y, class_colour((uint8_t)c, scratch), y + 9, class_name((uint8_t)c, scratch));
  }
  MET_STRBUF_LIT(sb, "</svg>\n");
  free(live);
  return sb->status;
}

met_status_t met_memory_svg(met_strbuf_t *sb, const met_target_t *target,
                            const met_memory_report_t *r) {
  // The terms the device total sums, bottom to top; what they do not cover is "other".
  static const struct { const char *name, *colour; } kTerms[] = {
      {"weights", "#1f77b4"},
      {MET_MEMORY_FIELD_NAME(weights_derived), "#aec7e8"},
      {MET_MEMORY_FIELD_NAME(activations), "#ff7f0e"},
      {MET_MEMORY_FIELD_NAME(workspace), "#ffbb78"},
      {MET_MEMORY_FIELD_NAME(states), "#2ca02c"},
      {MET_MEMORY_FIELD_NAME(kv), "#98df8a"},
      {MET_MEMORY_FIELD_NAME(caches_device), "#9467bd"},
      {MET_MEMORY_FIELD_NAME(driver), "#7f7f7f"},
  };
  enum { kTermCount = sizeof(kTerms) / sizeof(kTerms[0]) };
  size_t nf;
  const met_memory_field_t *f = met_memory_fields(&nf);
  uint64_t v[kTermCount] = {0}, device = 0, budget = 0, sum = 0;
  // "weights": what stays resident, weights_stored - weights_replaced (memory.h).
  v[0] = r->terms.weights_stored - r->terms.weights_replaced;
  for (size_t k = 0; k < nf; ++k) {
    for (int t = 1; t < kTermCount; ++t)
      if (!strcmp(f[k].name, kTerms[t].name)) v[t] = met_memory_field_u64(r, &f[k]);
    if (!strcmp(f[k].name, MET_MEMORY_FIELD_NAME(device))) device = met_memory_field_u64(r, &f[k]);
    if (!strcmp(f[k].name, MET_MEMORY_FIELD_NAME(budget_bytes)))
      budget = met_memory_field_u64(r, &f[k]);
  }
  for (int t = 0; t < kTermCount; ++t) sum += v[t];
  uint64_t other = device > sum ? device - sum : 0;
  // One bar of the device total beside the budget, on one scale: the larger of the two.
  const double L = 140, T = 50, H = 520, BW = 160;
  double top = (double)(device > budget ? device : budget);
  if (top <= 0) top = 1;
  double scale = H / top;
  met_strbuf_printf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"%d\" "
                        "viewBox=\"0 0 760 %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
                    (int)(T + H + 50), (int)(T + H + 50));
  met_strbuf_printf(sb, "<title>memory on %s</title>\n<text x=\"10\" y=\"22\" font-size=\"14\">"
                        "memory on %s: needs ", target->name, target->name);
  met_report_bytes(sb, device);
  MET_STRBUF_LIT(sb, " of a budget of ");
  met_report_bytes(sb, budget);
  met_strbuf_printf(sb, " (%s)</text>\n", device <= budget ? "fits" : "does not fit");
  double y = T + H;
  int row = 0;
  for (int t = 0; t <= kTermCount; ++t) {
    uint64_t bytes = t < kTermCount ? v[t] : other;
    if (!bytes) continue;
    const char *name = t < kTermCount ? kTerms[t].name : "other";
    const char *colour = t < kTermCount ? kTerms[t].colour : "#c7c7c7";
    double h = (double)bytes * scale;
    if (h < 1) h = 1;
    y -= h;
    met_strbuf_printf(sb, "<rect x=\"%.0f\" y=\"%.2f\" width=\"%.0f\" height=\"%.2f\" fill=\"%s\" "
                          "stroke=\"#fff\" stroke-width=\"0.5\"><title>%s: %" PRIu64 " B</title>"
                          "</rect>\n", L, y, BW, h, colour, name, bytes);
    met_strbuf_printf(sb, "<rect x=\"%.0f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                          "<text x=\"%.0f\" y=\"%d\">%s ", L + BW + 150, 70 + 18 * row, colour,
                      L + BW + 166, 79 + 18 * row, name);
    met_report_bytes(sb, bytes);
    MET_STRBUF_LIT(sb, "</text>\n");
    ++row;
  }
  // The budget as a line, the headroom (or the overshoot) between it and the bar's top.
  double by = T + H - (double)budget * scale, dy = T + H - (double)device * scale;
  met_strbuf_printf(sb, "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#000\" "
                        "stroke-dasharray=\"6 3\"/><text x=\"%.0f\" y=\"%.2f\">budget ",
                    L - 20, by, L + BW + 20, by, L + BW + 24, by + 4);
  met_report_bytes(sb, budget);
  MET_STRBUF_LIT(sb, "</text>\n");
  uint64_t gap = device <= budget ? budget - device : device - budget;
  met_strbuf_printf(sb, "<rect x=\"%.0f\" y=\"%.2f\" width=\"%.0f\" height=\"%.2f\" fill=\"%s\" "
                        "fill-opacity=\"0.25\"/><text x=\"%.0f\" y=\"%.2f\" fill=\"%s\">%s ",
                    L, device <= budget ? by : dy, BW, (double)gap * scale,
                    device <= budget ? "#2ca02c" : "#d62728", L + BW + 24,
                    (by + dy) / 2 + 4, device <= budget ? "#2ca02c" : "#d62728",
                    device <= budget ? "headroom" : "over by");
  met_report_bytes(sb, gap);
  MET_STRBUF_LIT(sb, "</text>\n");
  met_strbuf_printf(sb, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#000\"/>"
                        "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">device memory "
                        "(bytes)</text>\n",
                    L - 30, T + H, L + BW + 30, T + H, L + BW / 2, T + H + 30);
  MET_STRBUF_LIT(sb, "</svg>\n");
  return sb->status;
}
