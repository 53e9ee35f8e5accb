# Comparing result sets: the demo on real boots, and the synthetic
# result-set generator the tests use.
#
#   make compare-demo   an A/A comparison in practice: boots the quick matrix
#                       with the installed kernel 3 times for each side, in
#                       alternation (base new base new base new; qemu/ab-boots),
#                       each cell repeated twice a boot (about 2.5-3 min a boot
#                       under TCG here), extracts each boot, compares
#                       base-1,base-2,base-3 with new-1,new-2,new-3 and prints the
#                       report (build/compare-demo/: report.txt, report.html with
#                       the charts, report-repeat.txt with --unit repeat, one
#                       result set and serial log per boot). Nothing changed
#                       between the sides: every flagged cell is a false alarm.
#     COMPARE_ROUNDS=3    boots a side
#     COMPARE_REPEATS=2   iomatrix.repeats of each boot
#     COMPARE_MATRIX=quick
#     COMPARE_BASE_ARGS= COMPARE_NEW_ARGS=  iomatrix qemu arguments of a side,
#                       e.g. '--kernel ../linux/arch/x86/boot/bzImage' (an A/B)
#   make compare-demo-synthetic
#                       the same report on synthetic result sets (3 runs a side
#                       with boot effects, a -15 % change in every 20th cell;
#                       seconds, no QEMU)
#
# gen-resultset writes result sets in the format of docs/records.md for the
# tests; it is a test helper, not part of the product.

GEN_RESULTSET := $(BUILD)/gen-resultset
$(GEN_RESULTSET): tests/synth/gen_resultset.c $(BUILD)/host/lib.a $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $@";) $(CC) $(CFLAGS_ALL) $< $(BUILD)/host/lib.a -o $@ -lm

# The host tests of compare run the generator: build it with the tests.
all: $(GEN_RESULTSET)

COMPARE_DEMO      ?= $(BUILD)/compare-demo
COMPARE_ROUNDS    ?= 3
COMPARE_REPEATS   ?= 2
COMPARE_MATRIX    ?= quick
COMPARE_BASE_ARGS ?=
COMPARE_NEW_ARGS  ?=

# base-1,base-2,...: the runs of a side, as iomatrix compare takes them.
comma := ,
empty :=
space := $(empty) $(empty)
compare_side = $(subst $(space),$(comma),$(strip $(foreach r,$(shell seq 1 $(COMPARE_ROUNDS)),$(COMPARE_DEMO)/$(1)-$(r))))
# Exit status 1 (a cell got worse) is a result here, not a failure.
compare_ok = rc=$$?; [ $$rc -le 1 ] || exit $$rc

.PHONY: compare-demo compare-demo-synthetic
compare-demo: all
	@rm -rf $(COMPARE_DEMO) && mkdir -p $(COMPARE_DEMO)
	$(BUILD)/iomatrix image --quiet
	qemu/ab-boots $(COMPARE_DEMO) --rounds $(COMPARE_ROUNDS) --matrix $(COMPARE_MATRIX) \
		--repeats $(COMPARE_REPEATS) --base-args "$(COMPARE_BASE_ARGS)" \
		--new-args "$(COMPARE_NEW_ARGS)"
	@$(BUILD)/iomatrix compare $(call compare_side,base) $(call compare_side,new) \
		-o $(COMPARE_DEMO)/report.txt; $(compare_ok)
	@$(BUILD)/iomatrix compare $(call compare_side,base) $(call compare_side,new) \
		--format html -o $(COMPARE_DEMO)/report.html; $(compare_ok)
	@$(BUILD)/iomatrix compare $(call compare_side,base) $(call compare_side,new) \
		--unit repeat -o $(COMPARE_DEMO)/report-repeat.txt; $(compare_ok)
	@cat $(COMPARE_DEMO)/report.txt
	@echo
	@echo "the same data with --unit repeat: $$(head -n 1 $(COMPARE_DEMO)/report-repeat.txt)"
	@echo "every row: $(COMPARE_DEMO)/report.txt; charts: $(COMPARE_DEMO)/report.html"

COMPARE_SYNTH := $(BUILD)/compare-demo-synthetic
compare-demo-synthetic: $(BUILD)/iomatrix $(GEN_RESULTSET)
	@rm -rf $(COMPARE_SYNTH) && mkdir -p $(COMPARE_SYNTH)
	@$(GEN_RESULTSET) $(COMPARE_SYNTH)/base --seed 1 --runs 3 --repeats 2 --cv 2-5 \
		--boot-cv 2-5 --kernel 6.1.0-base
	@$(GEN_RESULTSET) $(COMPARE_SYNTH)/new --seed 2 --runs 3 --repeats 2 --cv 2-5 \
		--boot-cv 2-5 --kernel 6.1.0-new --change -15 --change-every 20 \
		--injected $(COMPARE_SYNTH)/injected.txt
	@$(BUILD)/iomatrix compare $(COMPARE_SYNTH)/base $(COMPARE_SYNTH)/new \
		-o $(COMPARE_SYNTH)/report.txt; $(compare_ok)
	@$(BUILD)/iomatrix compare $(COMPARE_SYNTH)/base $(COMPARE_SYNTH)/new \
		--format html -o $(COMPARE_SYNTH)/report.html; $(compare_ok)
	@$(BUILD)/iomatrix compare $(COMPARE_SYNTH)/base $(COMPARE_SYNTH)/new \
		--only-significant --sort change; $(compare_ok)
	@echo
	@echo "synthetic data: the cells with an injected -15 % change: $(COMPARE_SYNTH)/injected.txt"
	@echo "every row: $(COMPARE_SYNTH)/report.txt; charts: $(COMPARE_SYNTH)/report.html"
