#!/usr/bin/env python3
"""blocks.py ROOT BUILD CORPUS: runs every command the README shows with its output (a
fenced block whose first line is `$ build/bin/metrale ...`, continued by trailing
backslashes) and compares what it prints today with the block, line by line. The
README's headline numbers are then the tool's, not text that went stale. Commands that
read ../shared/corpus run against CORPUS; when CORPUS is absent they are skipped, and the
script says which. Prints one line per block and exits 1 on the first difference."""
import os
import re
import shlex
import subprocess
import sys


def blocks(readme):
    for m in re.finditer(r"^```\n(\$ build/bin/metrale .*?)^```$", readme, re.S | re.M):
        lines = m.group(1).split("\n")
        cmd = []
        i = 0
        while True:
            part = lines[i][2:] if i == 0 else lines[i]
            cont = part.endswith("\\")
            cmd.append(part.rstrip("\\").strip())
            i += 1
            if not cont:
                break
        out = "\n".join(lines[i:]).rstrip("\n")
        line = readme[:m.start()].count("\n") + 2
        yield line, " ".join(cmd), out


def main():
    root, build, corpus = sys.argv[1:4]
    readme = open(os.path.join(root, "README.md")).read()
    n = 0
    for line, cmd, want in blocks(readme):
        n += 1
        argv = shlex.split(cmd)
        argv[0] = os.path.join(build, "bin", os.path.basename(argv[0]))
        uses_corpus = any("../shared/corpus" in a for a in argv)
        if uses_corpus and not os.path.isdir(corpus):
            print("README.md:%d: skipped (no corpus at %s): %s" % (line, corpus, cmd))
            continue
        argv = [a.replace("../shared/corpus", corpus) for a in argv]
        p = subprocess.run(argv, cwd=root, capture_output=True, text=True)
        # Trailing blanks are not kept in the README (the table pads an empty note).
        got = "\n".join(l.rstrip() for l in p.stdout.rstrip("\n").replace(corpus, "../shared/corpus").split("\n"))
        want = "\n".join(l.rstrip() for l in want.split("\n"))
        if p.returncode != 0:
            print("README.md:%d: `%s` exits %d:\n%s" % (line, cmd, p.returncode, p.stderr[-2000:]))
            sys.exit(1)
        if got != want:
            print("README.md:%d: the output of `%s` differs from the README's block:" % (line, cmd))
            for a, b in zip(want.split("\n") + [""] * 99, got.split("\n")):
                if a != b:
                    print("  README: %s\n  now:    %s" % (a, b))
                    break
            sys.exit(1)
        print("README.md:%d: same output: %s" % (line, cmd))
    print("blocks: %d" % n)


if __name__ == "__main__":
    main()
