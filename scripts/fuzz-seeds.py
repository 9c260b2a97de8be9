#!/usr/bin/env python3
"""Builds the seed corpus of the MLIR fuzzer (test/fuzz/fuzz_mlir.c).

    python3 scripts/fuzz-seeds.py OUT_DIR [CORPUS_DIR]

Seeds: every test/**/*.mlir outside test/fuzz, split on `// -----` lines as -split-input-file splits it
(each piece a seed, the whole file too), the regression inputs in test/fuzz/crashes/ that
are MLIR text, and the files of CORPUS_DIR/*.mlir smaller than 200 KB when that folder
exists. Each seed is named by the SHA-1 of its bytes, so reruns add nothing twice.
"""
import hashlib
import os
import re
import sys

MAX_CORPUS_BYTES = 200 * 1024
SPLIT = re.compile(rb"^// -----\s*$", re.M)


def write(out, data, counts):
    if not data.strip():
        return
    name = hashlib.sha1(data).hexdigest()
    path = os.path.join(out, name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        counts[0] += 1


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    corpus = sys.argv[2] if len(sys.argv) == 3 else None
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.makedirs(out, exist_ok=True)
    counts = [0]
    tests = 0
    for dirpath, dirs, files in sorted(os.walk(os.path.join(root, "test"))):
        # test/fuzz holds the fuzzers' own findings (upstream parser crashes among them).
        dirs[:] = sorted(d for d in dirs if os.path.join(dirpath, d) != os.path.join(root, "test", "fuzz"))
        for f in sorted(files):
            if not f.endswith(".mlir"):
                continue
            with open(os.path.join(dirpath, f), "rb") as fh:
                data = fh.read()
            tests += 1
            write(out, data, counts)
            pieces = SPLIT.split(data)
            if len(pieces) > 1:
                for p in pieces:
                    write(out, p, counts)
    crashes = os.path.join(root, "test", "fuzz", "crashes")
    if os.path.isdir(crashes):
        for f in sorted(os.listdir(crashes)):
            if f.startswith("mlir-"):
                with open(os.path.join(crashes, f), "rb") as fh:
                    write(out, fh.read(), counts)
    models = 0
    if corpus and os.path.isdir(corpus):
        for f in sorted(os.listdir(corpus)):
            p = os.path.join(corpus, f)
            if f.endswith(".mlir") and os.path.getsize(p) < MAX_CORPUS_BYTES:
                with open(p, "rb") as fh:
                    write(out, fh.read(), counts)
                models += 1
    elif corpus:
        print("fuzz-seeds: no corpus at %s (test inputs only)" % corpus)
    print("fuzz-seeds: %d test files, %d corpus models -> %d new seeds in %s"
          % (tests, models, counts[0], out))


if __name__ == "__main__":
    main()
