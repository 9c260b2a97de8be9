# metrale: the two commands a new user needs.
#   make demo   installs what is missing, builds, and runs the Budget on the bundled examples
#   make check  installs what is missing, builds, and runs every test (also under ASan+UBSan),
#               the fuzzers briefly and the ThreadSanitizer runs
SHELL      := /bin/bash
.SHELLFLAGS := -o pipefail -c
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
TSAN_BUILD ?= build-tsan
FUZZ_SECONDS ?= 60
CHECK_FUZZ_SECONDS ?= 15
CLANG_FLAGS := -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
JOBS       ?= $(shell nproc)
CORPUS     ?= $(abspath ../shared/corpus)

.PHONY: all deps build demo check check-fast check-asan check-slow unit lit bench clean fuzz check-fuzz check-tsan

all: build

deps:
	@sh scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@echo "== metrale budget examples/gpt2_block.mlir --target h100"
	@$(BUILD)/bin/metrale budget examples/gpt2_block.mlir --target h100
	@echo
	@echo "== the same block on a WebGL GPU running TensorFlow.js (floats stored as f32, a program per op)"
	@$(BUILD)/bin/metrale budget examples/gpt2_block.mlir --target mobile-gpu-f32
	@echo
	@echo "== metrale budget examples/convnet.mlir --target npu --remarks"
	@$(BUILD)/bin/metrale budget examples/convnet.mlir --target npu --remarks
	@echo
	@echo "== the memory model: the block with a GPT-2-small KV cache (12 layers, 12 heads of 64, f16)"
	@echo "== on a 4 GiB mobile GPU: how many sequences of 1024 tokens fit?"
	@$(BUILD)/bin/metrale memory examples/gpt2_block.mlir --target mobile-gpu-f32 \
	  --kv-pool layers=12,kv_heads=12,head_dim=64,block_size=16 --kv-dtype f16 \
	  --sequences 8 --tokens 1024
	@echo
	@echo "== dispatch stats: the block on an H100 running it as one persistent kernel"
	@$(BUILD)/bin/metrale dispatch examples/gpt2_block.mlir --target h100-megakernel
	@echo
	@echo "== metrale run: the convnet lowered with upstream MLIR and run on this CPU, beside the prediction"
	@$(BUILD)/bin/metrale run examples/convnet.mlir --runs 5

unit: build
	@for t in $(BUILD)/bin/test_*; do $$t || exit 1; done

lit: build
	$$(cat $(BUILD)/llvm-tools-dir.txt)/lit -sv --param build_dir=$(abspath $(BUILD)) --param corpus=$(CORPUS) test

check-fast: build
	@sh scripts/check.sh $(BUILD) $(CORPUS)

$(ASAN_BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DMETRALE_SANITIZE=ON

check-asan: deps $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  sh scripts/check.sh $(ASAN_BUILD) $(CORPUS) --param sanitized=1

# libFuzzer (clang-22, -fsanitize=fuzzer,address,undefined): the harnesses of test/fuzz.
$(FUZZ_BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMETRALE_FUZZ=ON $(CLANG_FLAGS)

# `make fuzz FUZZ_SECONDS=N`: each fuzzer N seconds; corpora stay in $(FUZZ_BUILD)/corpus-*.
fuzz: deps $(FUZZ_BUILD)/CMakeCache.txt
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_planner fuzz_budget fuzz_mlir
	@sh scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(CORPUS)

# The regression inputs of test/fuzz/crashes, then each fuzzer a short fixed time.
check-fuzz: deps $(FUZZ_BUILD)/CMakeCache.txt
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_planner fuzz_budget fuzz_mlir
	@FUZZERS="planner budget mlir" sh scripts/fuzz.sh $(FUZZ_BUILD) $(CHECK_FUZZ_SECONDS) $(CORPUS)

# ThreadSanitizer (clang-22): metrale-opt, multi-threaded, on multi-function models.
$(TSAN_BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMETRALE_TSAN=ON $(CLANG_FLAGS)

check-tsan: deps $(TSAN_BUILD)/CMakeCache.txt
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target metrale-opt
	@sh scripts/check-tsan.sh $(TSAN_BUILD) $(CORPUS)

# The release build, then the whole suite again under ASan+UBSan, then each fuzzer for
# $(CHECK_FUZZ_SECONDS) s, then the ThreadSanitizer runs. Each part ends with its tallies
# ("tally: lit-tests N passed, M failed ...") and "check: passed" or "check: FAILED (why)",
# and exits non-zero on any failure, which stops the recipe here (pipefail); the last
# line, "total: ...", is scripts/check-total.sh's sum by kind, which fails again when any
# log lacks its "check: passed". test/Gate/gate.test injects failures into each part.
CHECK_LOGS = $(BUILD).check.log $(ASAN_BUILD).check.log $(FUZZ_BUILD).check.log $(TSAN_BUILD).check.log
check: deps
	@rm -f $(CHECK_LOGS)
	@$(MAKE) --no-print-directory check-fast 2>&1 | tee $(BUILD).check.log
	@$(MAKE) --no-print-directory check-asan 2>&1 | tee $(ASAN_BUILD).check.log
	@$(MAKE) --no-print-directory check-fuzz 2>&1 | tee $(FUZZ_BUILD).check.log
	@$(MAKE) --no-print-directory check-tsan 2>&1 | tee $(TSAN_BUILD).check.log
	@sh scripts/check-total.sh $(CHECK_LOGS)

# Real runs of the large corpus models (BERT, the DeepSeek decode graph: minutes, ~7 GB of
# inputs): not part of `make check`.
check-slow: build
	$$(cat $(BUILD)/llvm-tools-dir.txt)/lit -sv --param build_dir=$(abspath $(BUILD)) --param corpus=$(CORPUS) --param slow=1 test/Slow

bench: build
	sh bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD)
