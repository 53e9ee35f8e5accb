# Comparing result sets: the synthetic result-set generator and the demo.
#
#   make compare-demo   compare two synthetic result sets and show the flagged
#                       changes (build/compare-demo/: report.txt with every row,
#                       report.html with the charts)
#
# For now the demo's result sets are synthetic (tests/synth/gen_resultset.c):
# 243 cells, 5 repeats, noise CV 2-5 %, and a -10 % change injected in every
# 20th cell of the new set. Once the appliance writes result sets, this target
# boots the `quick` matrix twice with the installed kernel and compares the
# two runs (an A/A comparison in practice).
#
# gen-resultset writes result sets in the format of docs/records.md for the
# tests; it is a test helper, not part of the product.

GEN_RESULTSET := $(BUILD)/gen-resultset
$(GEN_RESULTSET): tests/synth/gen_resultset.c common/json_out.c common/json_out.h
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $@";) $(CC) $(CFLAGS_ALL) $< common/json_out.c -o $@ -lm

# The host tests of compare run the generator: build it with the tests.
all: $(GEN_RESULTSET)

COMPARE_DEMO := $(BUILD)/compare-demo
.PHONY: compare-demo
compare-demo: $(BUILD)/iomatrix $(GEN_RESULTSET)
	@rm -rf $(COMPARE_DEMO) && mkdir -p $(COMPARE_DEMO)
	@$(GEN_RESULTSET) $(COMPARE_DEMO)/base --seed 1 --cv 2-5 --kernel 6.1.0-base
	@$(GEN_RESULTSET) $(COMPARE_DEMO)/new --seed 2 --cv 2-5 --kernel 6.1.0-new \
		--change -10 --change-every 20 --injected $(COMPARE_DEMO)/injected.txt
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)/base $(COMPARE_DEMO)/new \
		-o $(COMPARE_DEMO)/report.txt; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)/base $(COMPARE_DEMO)/new --format html \
		-o $(COMPARE_DEMO)/report.html; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)/base $(COMPARE_DEMO)/new --only-significant \
		--sort change; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@echo
	@echo "synthetic data: the cells with an injected -10 % change: $(COMPARE_DEMO)/injected.txt"
	@echo "every row: $(COMPARE_DEMO)/report.txt; charts: $(COMPARE_DEMO)/report.html"
