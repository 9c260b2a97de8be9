#!/usr/bin/env python3
"""draw-architecture.py ROOT BUILD > docs/architecture.svg: the rooms of the tree as
boxes, top to bottom in the order the layers allow calls (scripts/check-layers.py,
LAYERS), each with its source files, and an arrow from a room to every room
whose symbols its object files use (`nm`), numbered with the file-to-file arrows it
stands for. Drawn from the build, so the picture is the code's: test/Gate/layers.test
checks that docs/architecture.svg is what this draws (no line counts, so only a change
of the structure, a file or an arrow, asks for it to be drawn again)."""
import json
import os
import subprocess
import sys
from xml.sax.saxutils import escape

WHAT = {
    "tools/": "the drivers: metrale-opt, and the metrale command (main, a file per command, cli.c)",
    "tools/run/": "metrale run's JIT runner: lowering with upstream MLIR, the JIT, counting hooks",
    "passes/": "the passes: registration (C++), the three runners, the per-function jobs",
    "passes/report/": "where results leave the process: MLIR diagnostics and remarks, SARIF, files",
    "passes/adapter/": "the walk: one func.func into a met_graph_t, with the facts of each op",
    "passes/ir/": "what MLIR says of types, attributes, DLTI, locations; located diagnostics",
    "lib/": "the pure C core: graph, fusion, planner, Budget, memory model, dispatch stats, renderers",
}
W_BOX, X0, COLS = 760, 20, 4
ROW_H, HEAD_H, GAP = 17, 44, 26


def main():
    root, build = sys.argv[1], sys.argv[2]
    p = subprocess.run([sys.executable, os.path.join(root, "scripts", "check-layers.py"), root, build, "--json"],
                       capture_output=True, text=True)
    data = json.loads(p.stdout)
    rooms = [r for r in data["rooms"] if r["files"]]
    arrows = data["arrows"]
    ys, y = {}, 80
    for r in rooms:
        rows = -(-len(r["files"]) // COLS)
        h = HEAD_H + rows * ROW_H + 8
        ys[r["room"]] = (y, h)
        y += h + GAP
    lanes = len(arrows)
    width = X0 + W_BOX + 30 + lanes * 16 + 30
    height = y + 60
    out = []
    out.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
               'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">' % (width, height, width, height))
    out.append('<rect width="100%" height="100%" fill="#ffffff"/>')
    out.append('<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
               'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>')
    out.append('<text x="%d" y="30" font-size="20" font-weight="bold">metrale: the rooms and the calls between them</text>' % X0)
    out.append('<text x="%d" y="48" font-size="12" fill="#444">Calls go down only: tools -&gt; passes -&gt; '
               'report -&gt; adapter -&gt; ir -&gt; lib, and tools/run from the tools alone. An arrow: a room\'s '
               'object files</text>' % X0)
    out.append('<text x="%d" y="63" font-size="12" fill="#444">use symbols the other room defines (nm), in '
               'the colour of the room it leaves; its number: the file-to-file arrows it stands for.</text>' % X0)
    for r in rooms:
        y0, h = ys[r["room"]]
        fill = "#eef4fb" if r["room"].startswith("passes") else ("#f3f0fa" if r["room"].startswith("tools") else "#eefaf0")
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="#6b7b8c"/>' % (X0, y0, W_BOX, h, fill))
        out.append('<text x="%d" y="%d" font-size="15" font-weight="bold">%s</text>' % (X0 + 10, y0 + 19, escape(r["room"])))
        out.append('<text x="%d" y="%d" font-size="12" fill="#333">%s</text>' % (X0 + 10 + 9 * len(r["room"]) + 14, y0 + 19, escape(WHAT.get(r["room"], ""))))
        out.append('<text x="%d" y="%d" font-size="11" fill="#555">%d source files</text>' % (X0 + 10, y0 + 35, len(r["files"])))
        colw = (W_BOX - 20) // COLS
        for i, f in enumerate(r["files"]):
            name = f["path"][len(r["room"]):]
            cx = X0 + 10 + (i % COLS) * colw
            cy = y0 + HEAD_H + (i // COLS) * ROW_H + 10
            out.append('<text x="%d" y="%d" font-size="11.5" font-family="DejaVu Sans Mono, monospace">%s</text>'
                       % (cx, cy, escape(name)))
    # Arrows in lanes right of the boxes, one colour per room they leave, grouped by that
    # room (top to bottom), each group's lanes nearest first.
    colours = ["#7b3fa0", "#8e6bb8", "#1f5fa8", "#138d90", "#d35400", "#2e8b57", "#555555"]
    colour_of = {r["room"]: colours[i % len(colours)] for i, r in enumerate(rooms)}
    index = {r["room"]: i for i, r in enumerate(rooms)}
    order = sorted((a for a in arrows if a["from"] in ys and a["to"] in ys),
                   key=lambda a: (index[a["from"]], -index[a["to"]]))
    leaving = {}
    arriving = {}
    for a in order:
        leaving.setdefault(a["from"], []).append(a)
        arriving.setdefault(a["to"], []).append(a)
    lane = 0
    for a in order:
        fy, fh = ys[a["from"]]
        ty, th = ys[a["to"]]
        out_i = leaving[a["from"]].index(a)
        in_i = arriving[a["to"]].index(a)
        sy = fy + 12 + (fh - 24) * (out_i + 0.5) / len(leaving[a["from"]])
        ey = ty + 10 + min(th - 20, 7 * in_i)
        lx = X0 + W_BOX + 24 + lane * 16
        lane += 1
        c = colour_of[a["from"]]
        out.append('<path d="M%d,%.0f H%d V%.0f H%d" fill="none" stroke="%s" stroke-width="1.5" '
                   'marker-end="url(#head)"><title>%s -&gt; %s: %d file arrows (%s)</title></path>'
                   % (X0 + W_BOX, sy, lx, ey, X0 + W_BOX + 2, c, escape(a["from"]), escape(a["to"]),
                      a["count"], escape(", ".join(a["symbols"]))))
        out.append('<circle cx="%d" cy="%.0f" r="3" fill="%s"/>' % (X0 + W_BOX, sy, c))
        out.append('<rect x="%d" y="%.0f" width="14" height="12" fill="#ffffff"/>' % (lx - 7, (sy + ey) / 2 - 9))
        out.append('<text x="%d" y="%.0f" font-size="10" fill="%s" text-anchor="middle">%d</text>'
                   % (lx, (sy + ey) / 2, c, a["count"]))
    for r in rooms:  # each box's edge in the colour of the arrows that leave it
        y0, h = ys[r["room"]]
        out.append('<rect x="%d" y="%d" width="5" height="%d" fill="%s"/>' % (X0 + W_BOX - 5, y0 + 6, h - 12,
                                                                                   colour_of[r["room"]]))
    foot = "%d source files, %d arrows between rooms; %s" % (
        sum(len(r["files"]) for r in rooms), len(arrows),
        "no circle between files, no call against the layers" if not data["problems"] else
        "%d problem(s): see scripts/check-layers.py" % len(data["problems"]))
    out.append('<text x="%d" y="%d" font-size="12" fill="#333">%s. Drawn by scripts/draw-architecture.py from the build\'s object files.</text>'
               % (X0, height - 25, escape(foot)))
    out.append('</svg>')
    print("\n".join(out))


if __name__ == "__main__":
    main()
