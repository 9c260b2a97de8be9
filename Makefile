# metrale: the two commands a new user needs.
#   make demo   installs what is missing, builds, and runs the Budget on the bundled examples
#   make check  installs what is missing, builds, and runs every test (also under ASan+UBSan)
SHELL      := /bin/bash
.SHELLFLAGS := -o pipefail -c
BUILD      ?= build
ASAN_BUILD ?= build-asan
LLVM_BIN   := /usr/lib/llvm-22/bin
JOBS       ?= $(shell nproc)
CORPUS     ?= $(abspath ../shared/corpus)

.PHONY: all deps build demo check check-fast check-asan unit lit bench clean

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
	@echo "== the same block on a GPU that stores every float as f32"
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

unit: build
	@for t in $(BUILD)/bin/test_*; do $$t || exit 1; done

lit: build
	$(LLVM_BIN)/lit -sv --param build_dir=$(abspath $(BUILD)) --param corpus=$(CORPUS) test

check-fast: build
	@sh scripts/check.sh $(BUILD) $(CORPUS)

$(ASAN_BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DMETRALE_SANITIZE=ON

check-asan: deps $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  sh scripts/check.sh $(ASAN_BUILD) $(CORPUS) --param sanitized=1

# The release build, then the whole suite again under ASan+UBSan. Each prints a line
# "check: N passed, M failed"; the last line, "total: ...", sums both.
check: deps
	@$(MAKE) --no-print-directory check-fast 2>&1 | tee $(BUILD).check.log
	@$(MAKE) --no-print-directory check-asan 2>&1 | tee $(ASAN_BUILD).check.log
	@awk '/^check: [0-9]+ passed, [0-9]+ failed$$/ {p += $$2; f += $$4} END {print "total: " p " passed, " f " failed"; exit f > 0}' \
	  $(BUILD).check.log $(ASAN_BUILD).check.log

bench: build
	sh bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
