#!/usr/bin/env python3
"""snapshot.py BUILD OUT [--corpus DIR] [--jobs N]: writes what every command and pass
prints for the corpus, the examples and the test inputs into OUT, one file per
(input, command, target), so that a change that must not move a number (a refactor,
a speed-up) can be checked with `diff -r OLD NEW`; a command past --timeout seconds
is recorded as timed out, and --keep resumes a snapshot that was stopped:
  - `metrale budget|memory|dispatch MODEL --target T --json -` (stdout and stderr),
  - `metrale-opt MODEL --split-input-file --metrale-budget|memory|dispatch=target=T`
    (the IR with its attributes, and every diagnostic),
  - `metrale plan MODEL --svg -` and `metrale run EXAMPLE --json -` with the measured
    times masked (they are the one thing that moves between two runs).
Corpus models get the parameter options their tests use. Paths are written relative to
the project, so two checkouts' snapshots compare."""
import argparse
import concurrent.futures
import os
import re
import subprocess

TARGETS = ["host-cpu", "h100", "mobile-gpu-f32", "npu", "h100-megakernel", "mlir-cpu"]
# The corpus models and the parameter specs their tests give.
CORPUS = {
    "buddy_dlmodel_bert.fixed.mlir": "",
    "buddy_buddybert_bert.tosa1.mlir": "0",
    "buddy_buddydeepseekr1_subgraph0_decode_linalg.mlir": "0",
    "buddy_buddylenet_lenet.tosa1.mlir": "0",
    "buddy_buddyllama_llama-bf16.tosa1.mlir": "0",
    "buddy_profiler_llama_annotation_linalg.fixed.mlir": "0",
    "buddy_mlirllama_buddy_llama_linalg.tosa1.mlir": "0",
    "heir_examples_common_lola.mlir": "",
    "heir_micro_speech_pipeline.mlir": "",
    "heir_transforms_tosa_to_arith_mnist_2fc.mlir": "",
    "buddy_resnet18_subgraph0.tosa1.mlir": "1-",
    "buddy_buddytransformer_subgraph0_decode_timed.tosa1.mlir": "",
    "buddy_buddytransformer_subgraph0_prefill_timed.tosa1.mlir": "",
    "buddy_buddyvgg_manual_forward.tosa1.mlir": "0-31",
}
TIMES = re.compile(r'"((?:[a-z_]*_)?ns(?:_[a-z]+)?|[a-z_]*_per_second)": [0-9.e+-]+')


def jobs_for(root, build, corpus):
    bin_ = os.path.join(build, "bin")
    inputs = []
    if corpus and os.path.isdir(corpus):
        inputs += [(os.path.join(corpus, f), p, "corpus/" + f) for f, p in sorted(CORPUS.items())]
    for d, sub, fs in os.walk(os.path.join(root, "examples")):
        inputs += [(os.path.join(d, f), "", os.path.relpath(os.path.join(d, f), root)) for f in sorted(fs) if f.endswith(".mlir")]
    for d, sub, fs in sorted(os.walk(os.path.join(root, "test"))):
        sub.sort()
        if "fuzz" in d.split(os.sep):
            continue
        inputs += [(os.path.join(d, f), "", os.path.relpath(os.path.join(d, f), root)) for f in sorted(fs) if f.endswith(".mlir")]
    out = []
    for path, params, name in inputs:
        extra = ["--params", params] if params else []
        opt_extra = " params=%s" % params if params else ""
        for t in TARGETS:
            for cmd in ("budget", "memory", "dispatch"):
                out.append(("%s.%s.%s.json" % (name, cmd, t),
                            [os.path.join(bin_, "metrale"), cmd, path, "--target", t, "--json", "-"] + extra))
                out.append(("%s.opt-%s.%s.txt" % (name, cmd, t),
                            [os.path.join(bin_, "metrale-opt"), path, "--split-input-file",
                             "--allow-unregistered-dialect", "--metrale-%s=target=%s%s" % (cmd, t, opt_extra)]))
        out.append(("%s.plan.svg" % name, [os.path.join(bin_, "metrale"), "plan", path, "--svg", "-"] + extra))
    for f in ("convnet.mlir",):
        out.append(("examples/%s.run.json" % f, [os.path.join(bin_, "metrale"), "run",
                                                  os.path.join(root, "examples", f), "--runs", "1", "--json", "-"]))
    return out


def run(root, corpus, outdir, name, argv, timeout, keep):
    path = os.path.join(outdir, name)
    if keep and os.path.exists(path):
        return
    try:
        p = subprocess.run(argv, cwd=root, capture_output=True, text=True, errors="replace",
                           timeout=timeout)
        text = "rc %d\n--- stdout\n%s--- stderr\n%s" % (p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired:
        # Upstream's one-shot bufferization doubles per nested loop (test/Run/probes.test's
        # 26 loops on mlir-cpu take hours): what does not finish is recorded as such.
        text = "timed out after %d s\n" % timeout
    if corpus:
        text = text.replace(corpus, "CORPUS")
    text = text.replace(root, "ROOT")
    if name.endswith(".run.json"):
        text = TIMES.sub(lambda m: '"%s": T' % m.group(1), text)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("out")
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per command (default 120)")
    ap.add_argument("--keep", action="store_true", help="leave outputs already in OUT (resume)")
    a = ap.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    build = os.path.abspath(a.build)
    corpus = os.path.abspath(a.corpus) if os.path.isdir(a.corpus) else ""
    todo = jobs_for(root, build, corpus)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        list(ex.map(lambda j: run(root, corpus, a.out, j[0], j[1], a.timeout, a.keep), todo))
    print("snapshot: %d outputs in %s" % (len(todo), a.out))


if __name__ == "__main__":
    main()
