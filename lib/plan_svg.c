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

// ---- the plan picture -----------------------------------------------------------------

// The file name of |loc| without its directories, the line and column kept
// ("model.mlir:86:12"), at most |cap| - 1 bytes cut at a character's start.
static void short_loc(const char *loc, char *out, size_t cap) {
  out[0] = '\0';
  if (!loc) return;
  const char *base = strrchr(loc, '/');
  base = base ? base + 1 : loc;
  size_t n = strlen(base);
  if (n >= cap) {
    n = cap - 1;
    while (n > 0 && ((unsigned char)base[n] & 0xC0) == 0x80) --n;
  }
  memcpy(out, base, n);
  out[n] = '\0';
}

// Where the plot of one panel lies and which positions it shows ([p0, p1]).
typedef struct panel_t {
  double L, T, W, H;
  uint32_t p0, p1;
  uint64_t arena;
} panel_t;

static double px_of(const panel_t *p) { return p->W / (double)(p->p1 - p->p0 + 1); }

static const met_node_t *slot_node(const met_graph_t *g, const met_slot_t *s) {
  return s->node >= 0 && (size_t)s->node < g->node_count ? &g->nodes[s->node] : NULL;
}

// The tooltip of slot |s|: value, op, location, bytes, offset, lifetime.
static void slot_title(met_strbuf_t *sb, const met_graph_t *g, const met_slot_t *s) {
  const met_node_t *n = slot_node(g, s);
  bool scratch = s->value == MET_SLOT_SCRATCH;
  MET_STRBUF_LIT(sb, "<title>");
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
                        "(%s)</title>",
                    s->bytes, s->offset, s->first, s->last,
                    class_name(n ? n->op_class : 0, scratch));
}

// The slots of |r| that live within the panel's positions, clipped to them. Slots
// smaller than a pixel are drawn one pixel wide or high. With |labels|, a slot whose
// rectangle has room says what it is on it ("4.9 MiB linalg.generic :13214").
static void draw_slots(met_strbuf_t *sb, const met_graph_t *g, const met_budget_report_t *r,
                       const panel_t *p, bool labels) {
  double px = px_of(p), py = p->H / (double)p->arena;
  for (size_t k = 0; k < r->slot_count; ++k) {
    const met_slot_t *s = &r->slots[k];
    if (s->last < (int32_t)p->p0 || s->first > (int32_t)p->p1) continue;
    const met_node_t *n = slot_node(g, s);
    bool scratch = s->value == MET_SLOT_SCRATCH;
    int32_t a = s->first < (int32_t)p->p0 ? (int32_t)p->p0 : s->first;
    int32_t b = s->last > (int32_t)p->p1 ? (int32_t)p->p1 : s->last;
    double x = p->L + (a - (int32_t)p->p0) * px, w = (b - a + 1) * px;
    double y = p->T + p->H - (double)(s->offset + s->bytes) * py, h = (double)s->bytes * py;
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    met_strbuf_printf(sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                          "fill-opacity=\"0.8\" stroke=\"#333\" stroke-width=\"0.3\">",
                      x, y, w, h, class_colour(n ? n->op_class : 0, scratch));
    slot_title(sb, g, s);
    MET_STRBUF_LIT(sb, "</rect>\n");
    if (!labels || h < 13 || w < 90) continue;
    // As much of "size op :line" as fits, at about 6 px a character.
    char where[128], text[256];
    short_loc(n ? met_graph_node_loc(g, (size_t)(n - g->nodes)) : NULL, where, sizeof(where));
    const char *line = strchr(where, ':');
    met_strbuf_t bytes;
    met_strbuf_initialize(met_allocator_system(), &bytes);
    met_report_bytes(&bytes, s->bytes);
    snprintf(text, sizeof(text), "%s %s %s", bytes.data ? bytes.data : "", n ? n->name : "?",
             line ? line : "");
    met_strbuf_deinitialize(&bytes);
    size_t fit = (size_t)((w - 6) / 6.2);
    // What does not fit goes from the end, its location first (never half of it).
    if (strlen(text) > fit && line) {
      char *at = strrchr(text, ' ');
      if (at) *at = '\0';
    }
    if (strlen(text) > fit) {
      size_t cut = fit;
      while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80) --cut;
      text[cut] = '\0';
    }
    met_strbuf_printf(sb, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" fill=\"#000\">",
                      x + 3, y + (h < 26 ? h / 2 + 4 : 13));
    xml(sb, text);
    MET_STRBUF_LIT(sb, "</text>\n");
  }
}

// The frame, the arena-offset ticks and the position ticks of a panel.
static void draw_axes(met_strbuf_t *sb, const panel_t *p, const char *xlabel) {
  double py = p->H / (double)p->arena, px = px_of(p);
  met_strbuf_printf(sb, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
                        "stroke=\"#000\"/>\n", p->L, p->T, p->W, p->H);
  for (int t = 0; t <= 4; ++t) {
    uint64_t off = p->arena / 4 * (uint64_t)t;
    double y = p->T + p->H - (double)off * py;
    met_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">", p->L - 4, y + 4);
    met_report_bytes(sb, off);
    MET_STRBUF_LIT(sb, "</text>\n");
    uint32_t pos = p->p0 + (uint32_t)((uint64_t)(p->p1 - p->p0) * (uint64_t)t / 4);
    met_strbuf_printf(sb, "<text x=\"%.2f\" y=\"%.0f\" text-anchor=\"middle\">%u</text>\n",
                      p->L + (pos - p->p0 + 0.5) * px, p->T + p->H + 14, pos);
  }
  met_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", p->L + p->W / 2,
                    p->T + p->H + 30);
  xml(sb, xlabel);
  MET_STRBUF_LIT(sb, "</text>\n");
  met_strbuf_printf(sb, "<text x=\"20\" y=\"%.0f\" transform=\"rotate(-90 20 %.0f)\" "
                        "text-anchor=\"middle\">arena offset</text>\n",
                    p->T + p->H / 2, p->T + p->H / 2);
}

// The peak position as a translucent band behind the slots (a slot as narrow as it
// stays visible over it), labelled above the panel.
static void draw_peak(met_strbuf_t *sb, const panel_t *p, uint32_t peak_at, uint64_t peak) {
  if (peak_at < p->p0 || peak_at > p->p1) return;
  double px = px_of(p), w = px < 3 ? 3 : px;
  double x = p->L + (peak_at - p->p0 + 0.5) * px;
  met_strbuf_printf(sb, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%.0f\" fill=\"#c00\" "
                        "fill-opacity=\"0.18\"/>\n", x - w / 2, p->T, w, p->H);
  bool right = x > p->L + p->W * 0.6;
  met_strbuf_printf(sb, "<text x=\"%.2f\" y=\"%.0f\" fill=\"#c00\" text-anchor=\"%s\">peak at "
                        "position %u: %" PRIu64 " B live (", right ? x - 4 : x + 4, p->T - 5,
                    right ? "end" : "start", peak_at, peak);
  met_report_bytes(sb, peak);
  MET_STRBUF_LIT(sb, ")</text>\n");
}

// The repeated block of a layered schedule (a transformer's layers): the longest run of
// k >= 3 consecutive copies of one block of q >= 8 positions, positions compared by the op
// at each (interned names: their pointers), when the copies cover half the schedule or
// more and it folds into at most 256 rows. O(positions x q) with q <= 4096, and only up to
// 200,000 positions; false when there is none.
typedef struct block_t { uint32_t start, q, k; } block_t;
static bool find_block(const void *const *tok, uint32_t n, block_t *out) {
  if (n < 24 || n > 200000) return false;
  uint64_t best = 0;
  uint32_t qmax = n / 3 < 4096 ? n / 3 : 4096;
  for (uint32_t q = 8; q <= qmax; ++q) {
    uint32_t run = 0;
    for (uint32_t i = n - q; i-- > 0;) {
      run = tok[i] == tok[i + q] ? run + 1 : 0;  // an empty position (a scalar op) too
      uint32_t k = (run + q) / q;
      if (k >= 3 && (uint64_t)k * q > best) {
        best = (uint64_t)k * q;
        *out = (block_t){i, q, k};
      }
    }
  }
  // A fold worth drawing: the copies cover half the schedule or more (a layered model;
  // a short block repeated in a corner is noise), in at most 256 rows.
  if (!best || best * 2 < n) return false;
  uint32_t rows = (n + out->q - 1) / out->q + 1;
  return rows <= 256;
}

// The whole schedule folded at the block's period as a heat map: row after row of q
// positions, aligned so that each copy of the block is one row (the rows before and after
// them hold what runs before and after the block), each cell shaded by the bytes live at
// its position; the peak's cell outlined.
static void draw_layers(met_strbuf_t *sb, double L, double T, double W, const block_t *b,
                        const uint64_t *live, uint32_t positions, uint32_t peak_at,
                        uint64_t peak, double *height) {
  uint32_t q = b->q;
  uint32_t lead = (b->start + q - 1) / q;            // rows before the first copy
  int64_t s0 = (int64_t)b->start - (int64_t)lead * q;  // the first row's first position
  uint32_t rows = (uint32_t)(((int64_t)positions - s0 + q - 1) / q);
  double rh = rows <= 20 ? 14 : rows <= 60 ? 8 : rows <= 150 ? 4 : 2, cw = W / q;
  uint32_t after = positions - b->start - b->k * q;
  met_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\" font-weight=\"bold\">the "
                        "schedule folded at its repeated block: %u positions before, %u copies "
                        "of %u positions (a row each), %u after</text>\n", L - 80, T - 26,
                    b->start, b->k, q, after);
  met_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">shade: the bytes live at "
                        "each position, darkest at the peak (", L - 80, T - 10);
  met_report_bytes(sb, peak);
  MET_STRBUF_LIT(sb, "); hover a cell for its position and bytes</text>\n");
  for (uint32_t row = 0; row < rows; ++row) {
    double y = T + row * rh;
    int64_t from = s0 + (int64_t)row * q;
    for (uint32_t i = 0; i < q; ++i) {
      int64_t pos = from + i;
      if (pos < 0 || pos >= (int64_t)positions) continue;
      double f = peak ? (double)live[pos] / (double)peak : 0;
      int shade = 255 - (int)(f * 215);
      met_strbuf_printf(sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                            "fill=\"rgb(%d,%d,255)\"%s><title>position %" PRId64 ": ",
                        L + i * cw, y, cw + 0.05, rh > 3 ? rh - 1 : rh, shade, shade,
                        pos == (int64_t)peak_at ? " stroke=\"#c00\" stroke-width=\"2\"" : "",
                        pos);
      met_report_bytes(sb, live[pos]);
      MET_STRBUF_LIT(sb, " live</title></rect>\n");
    }
    bool copy = row >= lead && row < lead + b->k;
    uint32_t c = row - lead + 1;
    // Every row labelled when rows are 12 px or more; else the first and last copy, every
    // 4th between (every 8th below 8 px), and one "before" and "after".
    uint32_t every = rh >= 12 ? 1 : rh >= 8 ? 4 : 8;
    if (copy && c != 1 && c != b->k && c % every) continue;
    if (!copy && rh < 12 && row != 0 && row != lead + b->k) continue;
    met_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\" font-size=\"%d\">",
                      L - 4, y + (rh < 8 ? rh : rh - 1), rh >= 12 ? 10 : 8);
    if (copy) met_strbuf_printf(sb, "copy %u", c);
    else met_strbuf_cstr(sb, row < lead ? "before" : "after");
    MET_STRBUF_LIT(sb, "</text>\n");
  }
  met_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"middle\">position within "
                        "the block (0 to %u)</text>\n", L + W / 2, T + rows * rh + 16, q - 1);
  *height = rows * rh + 24;
}

// The ten largest slots, numbered on their rectangles in panel |a| and listed beside it
// at |list_x|.
static void draw_largest(met_strbuf_t *body, const met_graph_t *g, const met_budget_report_t *r,
                         const panel_t *a_, double list_x) {
  const panel_t a = *a_;
  uint64_t arena = a.arena;
  size_t order[10], top = 0;
  for (; top < 10 && top < r->slot_count; ++top) {
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < r->slot_count; ++k) {
      bool taken = false;
      for (size_t t = 0; t < top && !taken; ++t) taken = order[t] == k;
      if (!taken && (best == SIZE_MAX || r->slots[k].bytes > r->slots[best].bytes)) best = k;
    }
    order[top] = best;
  }
  met_strbuf_printf(body, "<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\">largest slots</text>\n",
                    list_x, a.T + 6);
  for (size_t k = 0; k < top; ++k) {
    const met_slot_t *s = &r->slots[order[k]];
    const met_node_t *n = slot_node(g, s);
    double px = px_of(&a), py = a.H / (double)arena;
    double cx = a.L + ((s->first + s->last) / 2.0 + 0.5) * px;
    double cy = a.T + a.H - ((double)s->offset + (double)s->bytes / 2) * py;
    if (cx < a.L + 8) cx = a.L + 8;
    if (cx > a.L + a.W - 8) cx = a.L + a.W - 8;
    met_strbuf_printf(body, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"7\" fill=\"#fff\" stroke=\"#000\" "
                             "stroke-width=\"0.8\"/><text x=\"%.2f\" y=\"%.2f\" font-size=\"9\" "
                             "text-anchor=\"middle\">%zu</text>\n",
                      cx, cy, cx, cy + 3, k + 1);
    char where[160];
    short_loc(n ? met_graph_node_loc(g, (size_t)(n - g->nodes)) : NULL, where, sizeof(where));
    // At most 52 characters beside the plot (about 290 px at 10 px): a longer file name
    // loses its middle, the line and column stay ("buddy_buddytra...d.tosa1.mlir:86:12").
    size_t wl = strlen(where);
    if (wl > 52) {
      size_t head = 20, tail = wl - 29;
      while (head > 0 && ((unsigned char)where[head] & 0xC0) == 0x80) --head;
      while (tail < wl && ((unsigned char)where[tail] & 0xC0) == 0x80) ++tail;
      memmove(where + head + 3, where + tail, wl - tail + 1);
      memcpy(where + head, "...", 3);
    }
    double y = a.T + 26 + 27.0 * (double)k;
    met_strbuf_printf(body, "<text x=\"%.0f\" y=\"%.0f\">%zu  ", list_x, y, k + 1);
    met_report_bytes(body, s->bytes);
    MET_STRBUF_LIT(body, " ");
    xml(body, n ? n->name : "?");
    met_strbuf_printf(body, "</text>\n<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" fill=\"#555\">",
                      list_x + 14, y + 12);
    xml(body, where);
    MET_STRBUF_LIT(body, "</text>\n");
  }
}

// The legend beside panel |b| at |list_x|: the producer kinds its slots have.
static void draw_legend(met_strbuf_t *body, const met_graph_t *g, const met_budget_report_t *r,
                        const panel_t *b, double list_x) {
  bool seen[16] = {false}, seen_scratch = false;
  for (size_t k = 0; k < r->slot_count; ++k) {
    const met_slot_t *s = &r->slots[k];
    if (s->value == MET_SLOT_SCRATCH) { seen_scratch = true; continue; }
    if (s->node >= 0 && (size_t)s->node < g->node_count && g->nodes[s->node].op_class < 16)
      seen[g->nodes[s->node].op_class] = true;
  }
  int row = 0;
  met_strbuf_printf(body, "<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\">produced by</text>\n",
                    list_x, b->T + 6);
  for (int c = 0; c < 16 + 1; ++c) {
    bool scratch = c == 16;
    if (scratch ? !seen_scratch : !seen[c]) continue;
    double y = b->T + 16 + 16 * row++;
    met_strbuf_printf(body, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                             "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                      list_x, y, class_colour((uint8_t)c, scratch), list_x + 16, y + 9,
                      class_name((uint8_t)c, scratch));
  }
}

met_status_t met_plan_svg(met_strbuf_t *sb, const char *function, const met_target_t *target,
                          const met_graph_t *g, const met_budget_report_t *r) {
  uint32_t positions = g->position_count ? g->position_count : 1;
  uint64_t arena = r->budget.arena_bytes ? r->budget.arena_bytes : 1;
  // Live bytes by position from a difference array (the sum of all slots is the
  // Budget's materialized_bytes, checked to fit in 64 bits).
  uint64_t *live = calloc(positions + 1, sizeof(uint64_t));
  const void **tok = calloc(positions, sizeof(void *));
  if (!live || !tok) { free(live); free(tok); return MET_ENOMEM; }
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
    live[p] = run;
    if (run > peak) { peak = run; peak_at = p; }
  }
  for (size_t n = 0; n < g->node_count; ++n)
    if (g->nodes[n].position >= 0 && (uint32_t)g->nodes[n].position < positions)
      tok[g->nodes[n].position] = g->nodes[n].name;
  block_t blk = {0, 0, 0};
  bool layered = find_block(tok, positions, &blk);
  free(tok);

  // Panel A, the whole schedule; B, around the peak; C, the repeated block.
  const double L = 90, W = 900, list_x = L + W + 30;
  panel_t a = {L, 60, W, 300, 0, positions - 1, arena};
  // B: the positions around the peak, as far as the slots live there reach, at most 40
  // on each side, at least 10.
  uint32_t lo = peak_at, hi = peak_at;
  for (size_t k = 0; k < r->slot_count; ++k) {
    const met_slot_t *s = &r->slots[k];
    if (s->first > (int32_t)peak_at || s->last < (int32_t)peak_at) continue;
    if ((uint32_t)s->first < lo) lo = (uint32_t)s->first;
    if ((uint32_t)s->last > hi) hi = (uint32_t)s->last;
  }
  if (peak_at - lo > 40) lo = peak_at - 40;
  if (hi - peak_at > 40) hi = peak_at + 40;
  lo = lo + 10 > peak_at ? (peak_at > 10 ? peak_at - 10 : 0) : lo;
  hi = hi < peak_at + 10 ? (peak_at + 10 < positions ? peak_at + 10 : positions - 1) : hi;
  panel_t b = {L, a.T + a.H + 90, W, 260, lo, hi, arena};
  double c_top = b.T + b.H + 100;
  double height = c_top;

  met_strbuf_t body;
  met_strbuf_initialize(sb->allocator, &body);
  // A.
  draw_peak(&body, &a, peak_at, peak);
  draw_slots(&body, g, r, &a, false);
  double lb = a.T + a.H - (double)r->budget.peak_live_bytes * (a.H / (double)arena);
  met_strbuf_printf(&body, "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#000\" "
                           "stroke-dasharray=\"6 3\"/><text x=\"%.0f\" y=\"%.2f\">lower bound "
                           "(peak live) %" PRIu64 " B</text>\n",
                    a.L, lb, a.L + a.W, lb, a.L + 4, lb < a.T + 14 ? lb + 12 : lb - 4,
                    r->budget.peak_live_bytes);
  char xlabel[96];
  snprintf(xlabel, sizeof(xlabel), "schedule position (op order, 0 to %u)", positions - 1);
  draw_axes(&body, &a, xlabel);
  draw_largest(&body, g, r, &a, list_x);
  // B.
  met_strbuf_printf(&body, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\" font-weight=\"bold\">"
                           "around the peak: positions %u to %u, the slots live there labelled</text>\n",
                    L - 80, b.T - 24, lo, hi);
  draw_peak(&body, &b, peak_at, peak);
  draw_slots(&body, g, r, &b, true);
  snprintf(xlabel, sizeof(xlabel), "schedule position (%u to %u)", lo, hi);
  draw_axes(&body, &b, xlabel);
  draw_legend(&body, g, r, &b, list_x);
  // C.
  if (layered) {
    double h;
    draw_layers(&body, L, c_top, W, &blk, live, positions, peak_at, peak, &h);
    height = c_top + h + 20;
  } else {
    height = b.T + b.H + 50;
  }
  free(live);
  int width = (int)(list_x + 330);
  met_strbuf_printf(sb,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
                    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
                    width, (int)height, width, (int)height);
  MET_STRBUF_LIT(sb, "<title>");
  xml(sb, function);
  met_strbuf_printf(sb, " on %s: arena plan</title>\n", target->name);
  MET_STRBUF_LIT(sb, "<text x=\"10\" y=\"20\" font-size=\"14\">@");
  xml(sb, function);
  met_strbuf_printf(sb, " on %s: arena %" PRIu64 " B, peak live %" PRIu64 " B (the lower bound), "
                        "%zu slots, %u positions</text>\n",
                    target->name, r->budget.arena_bytes, r->budget.peak_live_bytes,
                    r->slot_count, g->position_count);
  if (body.status && !sb->status) sb->status = body.status;
  if (body.data) met_strbuf_append(sb, body.data, body.len);
  met_strbuf_deinitialize(&body);
  MET_STRBUF_LIT(sb, "</svg>\n");
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
