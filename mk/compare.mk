# Comparing result sets: the synthetic result-set generator and the demo.
#
#   make compare-demo   compare two synthetic result sets and show the report
#                       (build/compare-demo/: report.txt, report.html)
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
	@$(GEN_RESULTSET) $(COMPARE_DEMO)/base --profile mixed --seed 1 --kernel 6.1.0-base
	@$(GEN_RESULTSET) $(COMPARE_DEMO)/new --profile mixed --seed 2 --kernel 6.1.0-new \
		--change -8 --change-every 40 --injected $(COMPARE_DEMO)/injected.txt
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)/base $(COMPARE_DEMO)/new \
		-o $(COMPARE_DEMO)/report.txt; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)/base $(COMPARE_DEMO)/new --format html \
		-o $(COMPARE_DEMO)/report.html; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@cat $(COMPARE_DEMO)/report.txt
	@echo
	@echo "synthetic data: cells with an injected -8 % change are listed in $(COMPARE_DEMO)/injected.txt"
	@echo "HTML report: $(COMPARE_DEMO)/report.html"
