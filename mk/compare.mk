# Comparing result sets: the demo on real boots, and the synthetic
# result-set generator the tests use.
#
#   make compare-demo   an A/A comparison in practice: boots the quick matrix
#                       with the installed kernel 3 times for each side, in
#                       alternation (base new base new base new, iomatrix.repeats=1,
#                       about 90 s a boot under TCG here), extracts each boot,
#                       compares base-1,base-2,base-3 with new-1,new-2,new-3
#                       and prints the report (build/compare-demo/: report.txt,
#                       report.html with the charts, one result set per boot).
#                       Nothing changed between the sides, so every flag would
#                       be a false alarm.
#     COMPARE_ROUNDS=3 COMPARE_REPEATS=1 COMPARE_MATRIX=quick
#     COMPARE_BASE_ARGS= COMPARE_NEW_ARGS=  (iomatrix qemu arguments of a side,
#                       e.g. '--kernel ../linux/arch/x86/boot/bzImage --initrd ...')
#   make compare-demo-synth
#                       the same report on synthetic result sets with a known
#                       -15 % change in every 20th cell (seconds, no QEMU)
#
# gen-resultset writes result sets in the format of docs/records.md for the
# tests; it is a test helper, not part of the product.

GEN_RESULTSET := $(BUILD)/gen-resultset
$(GEN_RESULTSET): tests/synth/gen_resultset.c common/json_out.c common/json_out.h
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $@";) $(CC) $(CFLAGS_ALL) $< common/json_out.c -o $@ -lm

# The host tests of compare run the generator: build it with the tests.
all: $(GEN_RESULTSET)

COMPARE_DEMO      ?= $(BUILD)/compare-demo
COMPARE_ROUNDS    ?= 3
COMPARE_REPEATS   ?= 1
COMPARE_MATRIX    ?= quick
COMPARE_BASE_ARGS ?=
COMPARE_NEW_ARGS  ?=

# base-1,base-2,...: the runs of a side, as iomatrix compare takes them.
comma := ,
empty :=
space := $(empty) $(empty)
compare_side = $(subst $(space),$(comma),$(strip $(foreach r,$(shell seq 1 $(COMPARE_ROUNDS)),$(COMPARE_DEMO)/$(1)-$(r))))

.PHONY: compare-demo compare-demo-synth
compare-demo: all
	@rm -rf $(COMPARE_DEMO) && mkdir -p $(COMPARE_DEMO)
	$(BUILD)/iomatrix image --quiet
	tools/ab-boots $(COMPARE_DEMO) --rounds $(COMPARE_ROUNDS) --matrix $(COMPARE_MATRIX) \
		--repeats $(COMPARE_REPEATS) --base-args "$(COMPARE_BASE_ARGS)" \
		--new-args "$(COMPARE_NEW_ARGS)"
	@$(BUILD)/iomatrix compare $(call compare_side,base) $(call compare_side,new) \
		-o $(COMPARE_DEMO)/report.txt; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@$(BUILD)/iomatrix compare $(call compare_side,base) $(call compare_side,new) \
		--format html -o $(COMPARE_DEMO)/report.html; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@cat $(COMPARE_DEMO)/report.txt
	@echo
	@echo "every row: $(COMPARE_DEMO)/report.txt; charts: $(COMPARE_DEMO)/report.html"

compare-demo-synth: $(BUILD)/iomatrix $(GEN_RESULTSET)
	@rm -rf $(COMPARE_DEMO)-synth && mkdir -p $(COMPARE_DEMO)-synth
	@$(GEN_RESULTSET) $(COMPARE_DEMO)-synth/base --seed 1 --runs 3 --repeats 2 --cv 2-5 \
		--boot-cv 5-10 --kernel 6.1.0-base
	@$(GEN_RESULTSET) $(COMPARE_DEMO)-synth/new --seed 2 --runs 3 --repeats 2 --cv 2-5 \
		--boot-cv 5-10 --kernel 6.1.0-new --change -15 --change-every 20 \
		--injected $(COMPARE_DEMO)-synth/injected.txt
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)-synth/base $(COMPARE_DEMO)-synth/new \
		-o $(COMPARE_DEMO)-synth/report.txt; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)-synth/base $(COMPARE_DEMO)-synth/new \
		--format html -o $(COMPARE_DEMO)-synth/report.html; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@$(BUILD)/iomatrix compare $(COMPARE_DEMO)-synth/base $(COMPARE_DEMO)-synth/new \
		--only-significant --sort change; rc=$$?; [ $$rc -le 1 ] || exit $$rc
	@echo
	@echo "synthetic data: the cells with an injected -15 % change: $(COMPARE_DEMO)-synth/injected.txt"
	@echo "every row: $(COMPARE_DEMO)-synth/report.txt; charts: $(COMPARE_DEMO)-synth/report.html"
