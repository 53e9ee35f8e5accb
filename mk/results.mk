# Results (issue 5): the test helper that writes synthetic serial logs and
# results logs through the product's writers, for tests/host/extract*.sh and
# the fuzz seed corpora. Never installed.
RESULTS_GEN := $(BUILD)/test-helpers/results_gen
RESULTS_GEN_LIBS := $(patsubst %,$(BUILD)/host/%.a,$(SHARED_STAGES))
$(RESULTS_GEN): tests/helpers/results_gen.c tests/unit/synth_record.h $(RESULTS_GEN_LIBS) $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $@";) $(CC) $(CFLAGS_ALL) -Itests/unit $< $(RESULTS_GEN_LIBS) -o $@ -lm

check check-host: $(RESULTS_GEN)
