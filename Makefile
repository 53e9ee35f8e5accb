# iomatrix — top-level build.
#
#   make          build/iomatrix-runner (static, PID 1 and fio-style CLI)
#                 build/iomatrix        (host command: image, qemu, plan, ...)
#   make check    every test; ends with one line "N passed, N failed"
#   make deps     install the Debian packages the project needs; every build
#                 runs it first (one line and no root needed when all is there)
#   make install  PREFIX=/usr/local DESTDIR=: the commands and their data (mk/install.mk)
#   make demo     build, boot Debian's kernel in QEMU, run the quick matrix
#
# Sources are found by directory, so adding a file needs no Makefile edit.
# Each stage folder builds into an archive of its own, and a binary links
# the archives of the stages it uses: the linker takes from an archive only
# the objects something calls, so neither binary carries code it never runs.
#   lib/ matrix/ records/      both binaries (the runner: musl, static)
#   runner/**                  the runner (runner/main.c holds main())
#   compare/ initramfs/ qemu/  the host command (host/main.c holds main())
# Headers are included by their path from the top (#include "lib/ini.h").
# Area-specific targets live in mk/*.mk, one file per area.

BUILD      ?= build
CC         ?= gcc
MUSL_CC    ?= musl-gcc
V          ?= 0

WARN       := -Wall -Wextra -Werror
STD        := -std=gnu11 -D_GNU_SOURCE
OPT        ?= -O2 -g
INC        := -I.
CFLAGS     ?=
CFLAGS_ALL := $(STD) $(WARN) $(OPT) $(INC) $(CFLAGS)

MULTIARCH  := /usr/lib/x86_64-linux-gnu
# Linked by full path: -L$(MULTIARCH) would drag glibc's libc.a into a musl link.
RUNNER_STATIC_LIBS := $(MULTIARCH)/liburing.a $(MULTIARCH)/libaio.a
HOST_LIBS  := -ljson-c -lkmod -lzstd -llzma -lz -lgsl -lgslcblas -lm -lpthread
# The runner built with glibc (unit tests, sanitizers) links the same engines.
RUNNER_GLIBC_LIBS := -luring -laio -lpthread -lm

# The stages, each folder's sources (subfolders too), and the order a link
# takes their archives in: a stage before the stages it uses.
srcs_of      = $(sort $(filter-out %/main.c,$(wildcard $(1)/*.c $(1)/*/*.c $(1)/*/*/*.c)))
SHARED_STAGES := records matrix lib
RUNNER_STAGES := runner $(SHARED_STAGES)
HOST_STAGES   := compare qemu initramfs $(SHARED_STAGES)
STAGES        := $(sort $(RUNNER_STAGES) $(HOST_STAGES))
ALL_SRC       := $(foreach s,$(STAGES),$(call srcs_of,$(s)))
HEADERS       := $(wildcard $(addsuffix /*.h,$(STAGES) host) $(addsuffix /*/*.h,$(STAGES)) \
		   $(addsuffix /*/*/*.h,$(STAGES)))

# $(call stage_archive,DIR,STAGE): DIR/STAGE.a from that stage's objects in DIR.
define stage_archive
$(BUILD)/$(1)/$(2).a: $(patsubst %.c,$(BUILD)/$(1)/%.o,$(call srcs_of,$(2)))
	@rm -f $$@
	$$(if $$(filter 1,$$(V)),,@echo "  AR      $$@";) ar rcs $$@ $$^
endef

.PHONY: all
all: $(BUILD)/iomatrix-runner $(BUILD)/iomatrix

# --- the runner: static, musl ------------------------------------------------
# musl-gcc sees no system headers; give it the kernel UAPI, the two AIO
# libraries' headers and those of the host libraries the shared stages'
# host-only files include, through a private directory of symlinks. Those
# files compile here but are never linked into the runner: nothing in it
# calls them.
MUSL_INC := $(BUILD)/musl-include
MUSL_INC_FROM := /usr/include/linux /usr/include/asm-generic /usr/include/liburing \
	/usr/include/liburing.h /usr/include/libaio.h /usr/include/json-c /usr/include/zstd.h \
	/usr/include/zstd_errors.h /usr/include/lzma.h /usr/include/lzma /usr/include/zlib.h \
	/usr/include/zconf.h
$(MUSL_INC)/.stamp: | deps
	@mkdir -p $(MUSL_INC)
	@for p in $(MUSL_INC_FROM); do \
		test -e $$p || { echo "missing $$p: run 'make deps'" >&2; exit 1; }; \
		ln -sfn $$p $(MUSL_INC)/; done
	@ln -sfn /usr/include/x86_64-linux-gnu/asm $(MUSL_INC)/asm
	@touch $@

$(BUILD)/musl/%.o: %.c $(HEADERS) $(MUSL_INC)/.stamp
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  MUSLCC  $<";) $(MUSL_CC) $(CFLAGS_ALL) -isystem $(MUSL_INC) -c $< -o $@
$(foreach s,$(RUNNER_STAGES),$(eval $(call stage_archive,musl,$(s))))

$(BUILD)/iomatrix-runner: $(BUILD)/musl/runner/main.o $(patsubst %,$(BUILD)/musl/%.a,$(RUNNER_STAGES))
	$(if $(filter 1,$(V)),,@echo "  LD      $@";) $(MUSL_CC) -static -o $@ $^ $(RUNNER_STATIC_LIBS)

# --- the host command: glibc, dynamic, Debian libraries --------------------
$(BUILD)/host/%.o: %.c $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC      $<";) $(CC) $(CFLAGS_ALL) -c $< -o $@
$(foreach s,$(HOST_STAGES),$(eval $(call stage_archive,host,$(s))))

$(BUILD)/iomatrix: $(BUILD)/host/host/main.o $(patsubst %,$(BUILD)/host/%.a,$(HOST_STAGES))
	$(if $(filter 1,$(V)),,@echo "  LD      $@";) $(CC) -o $@ $^ $(HOST_LIBS)

# --- everything under sanitizers, for unit tests ------------------------------
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_OBJ   := $(patsubst %.c,$(BUILD)/san/%.o,$(ALL_SRC))
$(BUILD)/san/%.o: %.c $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  SANCC   $<";) $(CC) $(CFLAGS_ALL) -O1 $(SAN_FLAGS) -c $< -o $@

$(BUILD)/san/libiomatrix.a: $(SAN_OBJ)
	@rm -f $@
	@ar rcs $@ $^

UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
$(BUILD)/tests/%: tests/unit/%.c tests/unit/check.h $(BUILD)/san/libiomatrix.a
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  TEST    $@";) $(CC) $(CFLAGS_ALL) -O1 $(SAN_FLAGS) -Itests/unit \
		$< -o $@ $(BUILD)/san/libiomatrix.a $(HOST_LIBS) $(RUNNER_GLIBC_LIBS)

# --- fuzz targets (libFuzzer, clang) ------------------------------------------
# The code under test is compiled once (instrumented, without libFuzzer's
# main) into a library that every target links.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
FUZZ_CFLAGS := $(STD) -Wall -Wextra -Werror -O1 -g $(INC) -fsanitize=fuzzer-no-link,address,undefined
FUZZ_OBJ := $(patsubst %.c,$(BUILD)/fuzzlib/%.o,$(ALL_SRC))
$(BUILD)/fuzzlib/%.o: %.c $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  FUZZCC  $<";) clang $(FUZZ_CFLAGS) -c $< -o $@

$(BUILD)/fuzzlib/libiomatrix.a: $(FUZZ_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/fuzzlib/libiomatrix.a
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  FUZZ    $@";) clang $(FUZZ_CFLAGS) -fsanitize=fuzzer $< \
		$(BUILD)/fuzzlib/libiomatrix.a -o $@ $(HOST_LIBS) $(RUNNER_GLIBC_LIBS)

.PHONY: unit fuzz
unit: $(UNIT_BIN)
fuzz: $(FUZZ_BIN)

# --- tests --------------------------------------------------------------------
# tests/run runs every test it finds and prints "N passed, N failed" last.
# TESTS=pattern narrows the run (a substring of the test's path).
.PHONY: check check-unit check-host check-boot
# (the bench's programs too: tests/host/bench.sh runs them briefly)
BENCH_BIN := $(BUILD)/bench/bench $(BUILD)/bench/pread_loop
# (deps: the tests need packages that nothing compiled with, QEMU and jq)
check: all unit fuzz $(BENCH_BIN) | deps
	@tests/run all
check-unit: all unit fuzz | deps
	@tests/run unit
check-host: all $(BENCH_BIN) | deps
	@tests/run host
check-boot: all | deps
	@tests/run boot

# --- installing what the project needs ---------------------------------------
# An order-only prerequisite of every compile (and of check and demo): a
# fresh machine's first make installs what is missing before anything is
# compiled, even under -j, and nothing is rebuilt for it. As root it
# installs; otherwise it only checks, and a missing package stops the build
# with one line naming it. Phony, so it runs once each make.
.PHONY: deps
deps:
	@tools/install-deps

.PHONY: clean
clean:
	rm -rf $(BUILD)

.PHONY: format
format:
	clang-format -i $(ALL_SRC) runner/main.c host/main.c $(HEADERS)

-include $(sort $(wildcard mk/*.mk))
