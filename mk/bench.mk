# make bench: iomatrix-runner against Debian's fio (bench/bench.c says how).
#   make bench                         all cases, 5 rounds of 3 s
#   make bench BENCH_ARGS="--cases a,b1 --rounds 3 --runtime 2 --cpu none"
#   (every program pinned to CPU 0 unless --cpu says otherwise: bench.c says why)
BENCH_ARGS ?=

$(BUILD)/bench/bench: bench/bench.c
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $<";) $(CC) $(STD) $(WARN) -O2 $< -o $@ -ljson-c

$(BUILD)/bench/pread_loop: bench/pread_loop.c
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $<";) $(CC) $(STD) $(WARN) -O2 $< -o $@

.PHONY: bench
bench: $(BUILD)/iomatrix-runner $(BUILD)/bench/bench $(BUILD)/bench/pread_loop
	@$(BUILD)/bench/bench --runner $(BUILD)/iomatrix-runner --bare $(BUILD)/bench/pread_loop $(BENCH_ARGS)
