#!/usr/bin/env python3
"""layers.py [--function F]: reads `metrale dispatch --per-dispatch --json -` on stdin and
splits the function's dispatches into the repeated block of a layered model: the longest
run of k >= 2 consecutive copies of one block of p dispatches (a dispatch compared by its
ops and byte count), and what comes before and after it. Prints
  FUNCTION: BEFORE + K x P + AFTER = TOTAL dispatches; block ops: first..last
so that a test can check a dispatch count against facts of the model (its layer count)
and a block worked out by reading one layer, instead of one opaque total."""
import argparse
import json
import sys


def best_block(seq):
    n = len(seq)
    best = (0, 0, 0)  # (covered, start, p), then k = covered // p
    for p in range(1, n // 2 + 1):
        # runs of positions where seq[i] == seq[i + p]
        run = 0
        for i in range(n - p - 1, -1, -1):
            run = run + 1 if seq[i] == seq[i + p] else 0
            k = (run + p) // p
            if k >= 2 and k * p > best[0]:
                best = (k * p, i, p)
    return best


def name(d):
    return d if isinstance(d, str) else d[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--function")
    ap.add_argument("--slack", type=int, default=1, help="dispatches a copy beside the run may differ in")
    ap.add_argument("--ops-only", action="store_true", help="compare dispatches by their ops alone")
    a = ap.parse_args()
    doc = json.load(sys.stdin)
    for f in doc["functions"]:
        if a.function and f["name"] != a.function:
            continue
        seq = [d["ops"] if a.ops_only else (d["ops"], d["bytes"]) for d in f["dispatches"]]
        covered, start, p = best_block(seq)
        if not covered:
            print("%s: no repeated block; %d dispatches" % (f["name"], len(seq)))
            continue
        k = covered // p
        # A layered model's first and last layers may differ from the others in a
        # dispatch or two (what runs once before the layers, or the last layer's epilogue
        # fused with what follows): a copy beside the run that differs from the block in
        # at most --slack dispatches joins it, and the line says how many differed.
        block = seq[start:start + p]
        differ = []
        while p >= 4 and start >= p:
            d = sum(1 for x, y in zip(seq[start - p:start], block) if x != y)
            if d > a.slack:
                break
            start -= p; k += 1; differ.append(d)
        while p >= 4 and start + (k + 1) * p <= len(seq):
            d = sum(1 for x, y in zip(seq[start + k * p:start + (k + 1) * p], block) if x != y)
            if d > a.slack:
                break
            k += 1; differ.append(d)
        after = len(seq) - start - k * p
        print("%s: %d + %d x %d + %d = %d dispatches (%d copies differ, in %d dispatches); block ops: %s .. %s" % (
            f["name"], start, k, p, after, len(seq), sum(1 for d in differ if d), sum(differ),
            name(block[0]), name(block[-1])))


if __name__ == "__main__":
    main()
