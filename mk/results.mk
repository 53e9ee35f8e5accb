# Results (issue 5): the test helper that writes synthetic serial logs and
# results logs through the product's writers, for tests/host/extract*.sh and
# the fuzz seed corpora. Never installed.
RESULTS_GEN := $(BUILD)/test-helpers/results_gen
$(RESULTS_GEN): tests/helpers/results_gen.c tests/unit/synth_record.h $(COMMON_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $@";) $(CC) $(CFLAGS_ALL) -Itests/unit $< $(COMMON_SRC) -o $@ -lm

check check-host: $(RESULTS_GEN)
