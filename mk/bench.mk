# make bench: iomatrix-runner against Debian's fio (bench/bench.c says how).
#   make bench                         all cases, 5 rounds of 3 s, idle CPUs polling
#   make bench BENCH_ARGS="--cases a,b1 --rounds 3 --runtime 2 --cpu 0 --idle native"
#   (why idle CPUs are held polling by default: bench/bench.c)
BENCH_ARGS ?=

$(BUILD)/bench/bench: bench/bench.c bench/idle_poll.c bench/idle_poll.h | deps
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $<";) $(CC) $(STD) $(WARN) -O2 $(filter %.c,$^) -o $@ -ljson-c

$(BUILD)/bench/pread_loop: bench/pread_loop.c | deps
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $<";) $(CC) $(STD) $(WARN) -O2 $< -o $@

.PHONY: bench
bench: $(BUILD)/iomatrix-runner $(BENCH_BIN)
	@$(BUILD)/bench/bench --runner $(BUILD)/iomatrix-runner --bare $(BUILD)/bench/pread_loop $(BENCH_ARGS)
