#!/usr/bin/env python3
"""ci.py ROOT BUILD WORK: runs the README's CI section as a new user would (issue 39): its
shell blocks, marked <!-- ci:limit -->, <!-- ci:baseline --> and <!-- ci:step -->, each
in bash in WORK, where build/, examples/ and test/ point at the build and the checkout
(the commands write baseline.json, new.json and comment.md there, not in the checkout).
The limit's output must be the text block after it, the step must exit 1 (its rule
breaks) and print the block marked <!-- ci:comment -->. One line per step; exit 1 on the
first difference."""
import os
import re
import subprocess
import sys


def block(readme, name):
    m = re.search(r"<!-- ci:%s -->\n```\w*\n(.*?)```\n" % name, readme, re.S)
    if not m:
        sys.exit("README.md has no block marked ci:%s" % name)
    return m.group(1), readme[m.end():]


def run(script, work):
    return subprocess.run(["bash", "-c", script], cwd=work, capture_output=True, text=True)


def same(what, want, got):
    want = want.rstrip("\n").split("\n")
    got = got.rstrip("\n").split("\n")
    if want != got:
        for a, b in zip(want + [""] * 99, got + [""] * 99):
            if a != b:
                print("%s: the README says\n  %s\nbut it prints\n  %s" % (what, a, b))
                sys.exit(1)
    print("%s: same output" % what)


def main():
    root, build, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    for name, target in (("build", build), ("examples", os.path.join(root, "examples")),
                         ("test", os.path.join(root, "test"))):
        link = os.path.join(work, name)
        if not os.path.lexists(link):
            os.symlink(target, link)
    readme = open(os.path.join(root, "README.md")).read()
    limit, rest = block(readme, "limit")
    text = re.match(r"```text\n(.*?)```\n", rest, re.S)
    if not text:
        sys.exit("README.md: no text block after ci:limit")
    p = run(limit, work)
    same("ci:limit", text.group(1), p.stdout)
    baseline, _ = block(readme, "baseline")
    p = run(baseline, work)
    print("ci:baseline: exit status %d" % p.returncode)
    step, _ = block(readme, "step")
    comment, _ = block(readme, "comment")
    p = run(step, work)
    print("ci:step: exit status %d" % p.returncode)
    same("ci:step", comment, p.stdout)


if __name__ == "__main__":
    main()
