# lit configuration for metrale: pass tests (test/Budget), CLI tests (test/CLI), the
# stock mlir-opt plugin test and the corpus tests (test/corpus, skipped when
# ../shared/corpus is absent, as in a user's clone).
import os
import sys

import lit.formats

config.name = "metrale"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "fuzz", "tsan"]
config.test_source_root = os.path.dirname(__file__)

# What the build is: from the lit.site.cfg.py CMake generates into build/test (run
# `lit build/test`), or from --param build_dir=... (and llvm_tools_dir, corpus,
# sanitized), which win when given.
site = lambda key: getattr(config, key, None)
build = lit_config.params.get("build_dir") or site("metrale_build_dir")
if not build:
    lit_config.fatal("run lit on <build>/test, or with --param build_dir=<metrale build dir>")
config.test_exec_root = os.path.join(build, "test")
# The LLVM tools (FileCheck, not, mlir-opt) of the MLIR the build used: from the
# llvm_tools_dir param or the site config, else from the file CMake writes.
llvm_bin = lit_config.params.get("llvm_tools_dir") or site("llvm_tools_dir")
if not llvm_bin:
    with open(os.path.join(build, "llvm-tools-dir.txt")) as f:
        llvm_bin = f.read().strip()
config.environment["PATH"] = os.pathsep.join(
    [os.path.join(build, "bin"), llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%{env_path}", config.environment["PATH"]))
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%build_dir", build))
config.substitutions.append(("%plugin", os.path.join(build, "lib", "MetralePlugin.so")))
config.substitutions.append(("%mlir_opt", os.path.join(llvm_bin, "mlir-opt")))
config.substitutions.append(("%llvm_remarkutil", os.path.join(llvm_bin, "llvm-remarkutil")))
config.substitutions.append(("%examples", os.path.join(os.path.dirname(config.test_source_root), "examples")))
config.substitutions.append(("%srcroot", os.path.dirname(config.test_source_root)))

corpus = lit_config.params.get("corpus", site("metrale_corpus") or "")
if corpus and os.path.isdir(corpus):
    config.available_features.add("corpus")
    config.substitutions.append(("%corpus", corpus))
else:
    lit_config.note("corpus folder '%s' not found: the corpus tests are skipped (UNSUPPORTED)" % corpus)
    config.substitutions.append(("%corpus", "/nonexistent-corpus"))
# The H200 measurements beside the corpus (../shared/gpu-reference): the GPU model's tests
# compare against them, and are skipped where the folder is absent.
gpuref = os.path.join(os.path.dirname(os.path.abspath(corpus)), "gpu-reference") if corpus else ""
if gpuref and os.path.isdir(gpuref):
    config.available_features.add("gpu-reference")
    config.substitutions.append(("%gpuref", gpuref))
else:
    lit_config.note("gpu-reference folder beside the corpus not found: its tests are skipped (UNSUPPORTED)")
    config.substitutions.append(("%gpuref", "/nonexistent-gpu-reference"))

# MiniMalloc's benchmark beside the corpus (../shared/planner-bench): the exact planner's
# test plans its eleven instances, and is skipped where the folder is absent.
pbench = os.path.join(os.path.dirname(os.path.abspath(corpus)), "planner-bench") if corpus else ""
if pbench and os.path.isdir(pbench):
    config.available_features.add("planner-bench")
    config.substitutions.append(("%pbench", pbench))
else:
    lit_config.note("planner-bench folder beside the corpus not found: its test is skipped (UNSUPPORTED)")
    config.substitutions.append(("%pbench", "/nonexistent-planner-bench"))

# The SARIF validator (scripts/install-deps.sh puts it in .deps/sarif).
sarif_modules = os.path.join(os.path.dirname(config.test_source_root), ".deps", "sarif", "node_modules")
if os.path.isdir(os.path.join(sarif_modules, "@microsoft", "jest-sarif")):
    config.available_features.add("sarif-validator")
    config.substitutions.append(("%sarif_validate", "env NODE_PATH=%s node %s" % (
        sarif_modules, os.path.join(config.test_source_root, "Sarif", "validate.js"))))
else:
    lit_config.note("the SARIF validator is not in %s (scripts/install-deps.sh installs it): "
                    "the SARIF tests are skipped (UNSUPPORTED)" % sarif_modules)

# Headless Chromium renders the plan pictures (test/Plan).
import shutil
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium_render", "%s %s" % (
        sys.executable, os.path.join(config.test_source_root, "Plan", "render.py"))))
else:
    lit_config.note("chromium not found (scripts/install-deps.sh installs it): the picture "
                    "tests are skipped (UNSUPPORTED)")

# Runs of the large corpus models (test/Slow): only with --param slow=1 (make check-slow).
if lit_config.params.get("slow"):
    config.available_features.add("slow")

if lit_config.params.get("sanitized") or site("metrale_sanitized"):
    # Stock mlir-opt is not instrumented: loading an ASan plugin into it cannot work.
    config.available_features.add("sanitized")
else:
    config.available_features.add("plain-build")
