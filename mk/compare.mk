# Comparing result sets: the synthetic result-set generator and the demo.
#
#   make compare-demo            boot quick twice in QEMU and compare (A/A)
#   make compare-demo-synthetic  the same on generated result sets, no QEMU
#
# gen-resultset writes result sets in the format of docs/records.md for the
# tests; it is a test helper, not part of the product.

GEN_RESULTSET := $(BUILD)/gen-resultset
$(GEN_RESULTSET): tests/synth/gen_resultset.c common/json_out.c common/json_out.h
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $@";) $(CC) $(CFLAGS_ALL) $< common/json_out.c -o $@ -lm

# The host tests of compare run the generator: build it with the tests.
all: $(GEN_RESULTSET)

# make compare-demo: the A/A comparison in practice. Boot the quick matrix
# twice with the installed kernel (each cell repeated COMPARE_REPEATS times,
# so the statistics can judge), extract both serial logs, and compare: with
# the same kernel on both sides, every flagged cell is a false alarm.
# Everything lands in build/compare-demo/ (report.txt, report.html).
COMPARE_DEMO    := $(BUILD)/compare-demo
COMPARE_REPEATS ?= 3
COMPARE_MATRIX  ?= quick
.PHONY: compare-demo
compare-demo: all
	@rm -rf $(COMPARE_DEMO) && mkdir -p $(COMPARE_DEMO)
	$(BUILD)/iomatrix image --quiet
	@for side in base new; do \
		echo "compare-demo: booting $(COMPARE_MATRIX) for '$$side' (repeats=$(COMPARE_REPEATS))"; \
		$(BUILD)/iomatrix qemu --quiet --disks 4 --disk-size 1G --timeout 3600 \
			--append "iomatrix.matrix=$(COMPARE_MATRIX) iomatrix.repeats=$(COMPARE_REPEATS)" \
			--serial-log $(COMPARE_DEMO)/$$side.log || exit 1; \
		$(BUILD)/iomatrix extract -q $(COMPARE_DEMO)/$$side.log -o $(COMPARE_DEMO)/$$side \
			|| exit 1; \
	done
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)/base $(COMPARE_DEMO)/new \
		-o $(COMPARE_DEMO)/report.txt; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)/base $(COMPARE_DEMO)/new --format html \
		-o $(COMPARE_DEMO)/report.html; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@cat $(COMPARE_DEMO)/report.txt
	@echo
	@echo "both sides ran the same kernel: every flagged cell above is a false alarm"
	@echo "charts: $(COMPARE_DEMO)/report.html"

# The same comparison on synthetic result sets (no QEMU, seconds): 243 cells,
# 5 repeats, noise CV 2-5 %, a -10 % change injected in every 20th cell.
COMPARE_SYNTH := $(BUILD)/compare-demo-synthetic
.PHONY: compare-demo-synthetic
compare-demo-synthetic: $(BUILD)/iomatrix $(GEN_RESULTSET)
	@rm -rf $(COMPARE_SYNTH) && mkdir -p $(COMPARE_SYNTH)
	@$(GEN_RESULTSET) $(COMPARE_SYNTH)/base --seed 1 --cv 2-5 --kernel 6.1.0-base
	@$(GEN_RESULTSET) $(COMPARE_SYNTH)/new --seed 2 --cv 2-5 --kernel 6.1.0-new \
		--change -10 --change-every 20 --injected $(COMPARE_SYNTH)/injected.txt
	@$(BUILD)/iomatrix compare $(COMPARE_SYNTH)/base $(COMPARE_SYNTH)/new --only-significant \
		--sort change; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@echo
	@echo "synthetic data: the cells with an injected -10 % change: $(COMPARE_SYNTH)/injected.txt"
