#!/usr/bin/env python3
"""check-layers.py ROOT BUILD: the structure of the tree, read from the object files'
symbols (`nm`), not from includes: which source file calls or reads a symbol that
another defines. Fails (exit 1) when:
  - two or more source files call each other, directly or round a longer circle;
  - a call goes against the layers of docs/ARCHITECTURE.md: a file may use its own
    room, and the rooms listed after its room's name in LAYERS below, nothing else
    (tools -> passes -> passes/report -> passes/adapter -> passes/ir -> lib, the JIT
    runner tools/run only from the tools, lib/ using nothing of ours);
  - a folder of passes/ or tools/ holds more than MAX_SOURCES source files;
  - a source file of lib/, passes/ or tools/ has no object in the build (a file the
    build forgot is a file this check cannot see), or lies in no room of LAYERS;
  - two source files define the same strong symbol (but main, one per program);
  - the plugin (lib/MetralePlugin.so) or metrale-opt holds ExecutionEngine code;
  - a header of the pure core (include/metrale/) includes an MLIR or LLVM header, or a
    header of the MLIR layer (its types would then leak into lib/);
  - a function of lib/, passes/ or tools/ is longer than MAX_FUNCTION_LINES (its
    signature to its closing brace: one that long does several things, and each wants
    a name);
  - a file of passes/adapter/ reads a target's backend model (its fusion, dispatch or
    allocation model, any field of met_target_t that no other struct has, its fast path):
    the adapter records what the IR says, as met_target_graph_facts (lib/target.c) asks,
    and lib/ decides what a target does with it.
Prints the rooms with their files and the arrows between rooms, then one line per
problem.

What symbols cannot show, this check does not see: a call through a function pointer
(the passes' callbacks), a type or a static inline function used only through a header,
and C++ inline code. Those are reviewed by reading (docs/ARCHITECTURE.md).
  python3 scripts/check-layers.py ROOT BUILD [--dot | --json]"""
import collections
import os
import subprocess
import sys

# The products whose objects are the tree (a test binary compiles some sources again).
TARGETS = ["metrale_core", "metrale_mlir", "metrale_run", "metrale", "metrale-opt", "MetralePlugin"]
# room -> the rooms it may use (its own always). A room is the longest prefix that
# matches a source's path.
LAYERS = collections.OrderedDict([
    ("tools/", ["tools/run/", "passes/", "passes/report/", "passes/adapter/", "passes/ir/", "lib/"]),
    ("tools/run/", ["passes/ir/", "lib/"]),
    ("passes/", ["passes/report/", "passes/adapter/", "passes/ir/", "lib/"]),
    ("passes/report/", ["passes/adapter/", "passes/ir/", "lib/"]),
    ("passes/adapter/", ["passes/ir/", "lib/"]),
    ("passes/ir/", ["lib/"]),
    ("lib/", []),
])
MAX_SOURCES = 15
MAX_FUNCTION_LINES = 120
SOURCE_EXT = (".c", ".cpp", ".cc")


def room_of(path):
    best = None
    for r in LAYERS:
        if path.startswith(r) and (best is None or len(r) > len(best)):
            best = r
    return best


def objects(root, build):
    """{source path relative to ROOT: object file}, one object per source that exists
    (a build directory keeps the objects of files since moved)."""
    out = {}
    for t in TARGETS:
        d = os.path.join(build, "CMakeFiles", t + ".dir")
        for dirpath, _, files in os.walk(d):
            for f in files:
                if f.endswith(".o"):
                    rel = os.path.relpath(os.path.join(dirpath, f), d)[:-2]
                    if os.path.exists(os.path.join(root, rel)):
                        out.setdefault(rel, os.path.join(dirpath, f))
    return out


def symbols(obj):
    p = subprocess.run(["nm", "--defined-only", "-g", obj], capture_output=True, text=True)
    defined = {l.split()[-1] for l in p.stdout.splitlines() if len(l.split()) >= 3}
    strong = {l.split()[-1] for l in p.stdout.splitlines()
              if len(l.split()) >= 3 and l.split()[-2] in ("T", "D", "B", "R")}
    symbols.strong[obj] = strong
    p = subprocess.run(["nm", "-u", obj], capture_output=True, text=True)
    used = {l.split()[-1] for l in p.stdout.splitlines() if l.split()}
    return defined, used


symbols.strong = {}


def execution_engine(path):
    """ExecutionEngine symbols of a binary, from its symbol table or, stripped, its
    dynamic one."""
    found = set()
    for args in (["nm", "-C", path], ["nm", "-D", "-C", path]):
        p = subprocess.run(args, capture_output=True, text=True)
        found |= {l.split()[-1] for l in p.stdout.splitlines() if "ExecutionEngine" in l}
    return sorted(found)


def circles(edges, nodes):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    root, build = argv[1], argv[2]
    objs = objects(root, build)
    if not objs:
        print("check-layers: no object files under %s/CMakeFiles (build first)" % build)
        return 1
    defs, uses, strong_def = {}, {}, {}
    problems = []
    for src, obj in sorted(objs.items()):
        d, u = symbols(obj)
        uses[src] = u
        for s in d:
            defs.setdefault(s, src)
        for s in sorted(symbols.strong.get(obj, ())):
            if s == "main":  # each program has its own
                continue
            if s in strong_def and strong_def[s] != src:
                problems.append("%s and %s both define %s" % (strong_def[s], src, s))
            strong_def.setdefault(s, src)
    for top in ("lib", "passes", "tools"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                if f.endswith(SOURCE_EXT) and rel not in objs:
                    problems.append("%s has no object in %s (not built, so not checked)" % (rel, build))
    edges = collections.defaultdict(dict)  # src -> {dst: [symbols]}
    for src, u in uses.items():
        for s in sorted(u):
            dst = defs.get(s)
            if dst and dst != src:
                edges[src].setdefault(dst, []).append(s)
    for comp in circles(edges, list(objs)):
        ties = ["%s -> %s: %s" % (a, b, ", ".join(edges[a][b][:4])) for a in comp for b in comp
                if b in edges.get(a, {})]
        problems.append("a circle of %d files: %s" % (len(comp), "; ".join(ties)))
    room_edges = collections.defaultdict(set)
    for src, dsts in edges.items():
        rs = room_of(src)
        if rs is None:
            problems.append("%s is in no room of LAYERS" % src)
            continue
        for dst, syms in dsts.items():
            rd = room_of(dst)
            if rd != rs:
                room_edges[rs].add(rd)
            if rd != rs and rd not in LAYERS[rs]:
                problems.append("%s (%s) uses %s (%s), which its room may not: %s" % (
                    src, rs, dst, rd, ", ".join(syms[:4])))
    # Rooms' sizes: source files per folder, on disk.
    for top in ("passes", "tools"):
        for dirpath, subdirs, files in os.walk(os.path.join(root, top)):
            n = sum(1 for f in files if f.endswith(SOURCE_EXT))
            if n > MAX_SOURCES:
                problems.append("%s holds %d source files (at most %d)" % (
                    os.path.relpath(dirpath, root), n, MAX_SOURCES))
    for what, path in (("the plugin", os.path.join(build, "lib", "MetralePlugin.so")),
                       ("metrale-opt", os.path.join(build, "bin", "metrale-opt"))):
        if os.path.exists(path):
            ee = execution_engine(path)
            if ee:
                problems.append("%s holds ExecutionEngine code: %s" % (what, ", ".join(ee[:4])))
        else:
            problems.append("no %s at %s" % (what, path))
    # The pure core's headers: plain C, nothing of MLIR.
    inc = os.path.join(root, "include", "metrale")
    for name in sorted(os.listdir(inc)) if os.path.isdir(inc) else []:
        with open(os.path.join(inc, name)) as f:
            for k, line in enumerate(f, 1):
                t = line.strip()
                if t.startswith("#include") and ('"mlir' in t or "<mlir" in t or '"llvm' in t
                                                 or "<llvm" in t or '"ir/' in t or '"adapter/' in t
                                                 or '"report/' in t or '"run/' in t):
                    problems.append("include/metrale/%s:%d includes %s: the pure core's headers "
                                    "include nothing of MLIR or the MLIR layer" % (name, k, t.split(None, 1)[1]))
    # Functions past MAX_FUNCTION_LINES, by brace depth over the code with comments and
    # literals blanked: a function starts at a line at depth 0 that begins a declaration
    # and ends at the brace that closes it.
    import re
    for top in ("lib", "passes", "tools"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(dirpath, name)
                depth, start, sig = 0, None, None
                with open(path, errors="replace") as f:
                    lines = f.read().split("\n")
                for k, line in enumerate(lines):
                    code = re.sub(r"//.*", "", line)
                    code = re.sub(r'"(\\.|[^"\\])*"', '""', code)
                    code = re.sub(r"'(\\.|[^'\\])*'", "''", code)
                    if depth == 0 and re.match(r"^[A-Za-z_]", line) and "(" in line and \
                            not line.startswith(("typedef", "struct", "enum", "#")):
                        sig = (k, line.split("(")[0].split()[-1].lstrip("*"))
                    if depth == 0 and code.rstrip().endswith("{") and sig and \
                            not re.search(r"=\s*\{$", code.strip()):
                        start = sig
                    depth += code.count("{") - code.count("}")
                    if depth == 0 and start is not None and "}" in code:
                        n = k - start[0] + 1
                        if n > MAX_FUNCTION_LINES:
                            problems.append("%s:%d: %s is %d lines (at most %d)" % (
                                os.path.relpath(path, root), start[0] + 1, start[1], n,
                                MAX_FUNCTION_LINES))
                        start, sig = None, None
    # The adapter decides nothing of a target's backend: no MET_FUSION_/ALLOC_/EXEC_
    # constant, no met_target_is_fast, and no read of a met_target_t field (target.h's
    # struct, its nested structs' fields too) whose name no other struct of the project's
    # headers uses (`->name` is an op's as often: the adapter may pass the target on, to
    # met_type_size and lib/, and read nothing of it).
    import re
    fields, others = set(), set()
    hdrs = [os.path.join(d, f) for d in (os.path.join(root, "include", "metrale"),)
            for f in os.listdir(d) if f.endswith(".h")]
    for dp, _, fs in os.walk(os.path.join(root, "passes")):
        hdrs += [os.path.join(dp, f) for f in fs if f.endswith(".h")]
    member = re.compile(r"^\s+(?:const\s+)?[A-Za-z_][A-Za-z0-9_ ]*[\s*]+(?:const\s+)?\**([a-z_][a-z0-9_]*)(?:\[[^]]*\])?\s*[;,]")
    for h in hdrs:
        with open(h) as f:
            text = f.read()
        for m in re.finditer(r"typedef struct (\w+) \{(.*?)\} \w+;", text, re.S):
            names = set()
            for line in m.group(2).splitlines():
                mm = member.match(line.split("//", 1)[0])
                if mm:
                    names.add(mm.group(1))
            target_side = h.endswith(os.path.join("metrale", "target.h")) and m.group(1) in (
                "met_target_t", "met_dispatch_params_t", "met_workspace_rules_t")
            (fields if target_side else others).update(names)
    own = sorted((fields - others) | {"fusion", "dispatch", "attention_fusion", "epilogue_fusion"})
    model = re.compile(r"MET_FUSION_|MET_ALLOC_|MET_EXEC_|met_target_is_fast|(?:->|\.)(?:%s)\b"
                       % "|".join(own))
    adir = os.path.join(root, "passes", "adapter")
    for name in sorted(os.listdir(adir)) if os.path.isdir(adir) else []:
        with open(os.path.join(adir, name)) as f:
            for k, line in enumerate(f, 1):
                code = line.split("//", 1)[0]
                m = model.search(code)
                if m:
                    problems.append("passes/adapter/%s:%d reads the target's backend model (%s): "
                                    "the adapter records facts, lib/ decides" % (name, k, m.group(0)))
    by_room = collections.defaultdict(list)
    for src in objs:
        by_room[room_of(src)].append(src)
    if "--json" in argv:
        # What scripts/draw-architecture.py draws: rooms, their files (lines) and the
        # arrows between rooms (how many file-to-file arrows, and a few of the symbols).
        import json
        rooms = []
        for r in LAYERS:
            files = sorted(by_room.get(r, []))
            rooms.append({"room": r, "files": [{"path": f, "lines": sum(1 for _ in open(os.path.join(root, f)))} for f in files]})
        arrows = collections.defaultdict(lambda: {"count": 0, "symbols": []})
        for src, dsts in edges.items():
            for dst, syms in dsts.items():
                a, b = room_of(src), room_of(dst)
                if a == b:
                    continue
                e = arrows[(a, b)]
                e["count"] += 1
                e["symbols"] = sorted(set(e["symbols"]) | set(syms))[:6]
        json.dump({"rooms": rooms, "arrows": [{"from": a, "to": b, **v} for (a, b), v in sorted(arrows.items())],
                   "problems": problems}, sys.stdout, indent=1)
        print()
        return 1 if problems else 0
    for r in LAYERS:
        if r in by_room:
            print("room %s (%d files) uses %s" % (r, len(by_room[r]),
                  ", ".join(sorted(room_edges[r])) or "nothing of ours"))
    if "--dot" in argv:
        print("digraph files {")
        for src, dsts in sorted(edges.items()):
            for dst in sorted(dsts):
                print('  "%s" -> "%s";' % (src, dst))
        print("}")
    for p in problems:
        print("check-layers: " + p)
    print("check-layers: %d source files, %d arrows between them, %d problem(s)" % (
        len(objs), sum(len(d) for d in edges.values()), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
