# make demo: build everything, build the image for the installed Debian
# kernel, boot it in QEMU with four sparse 1 GiB disks running the quick
# matrix, then extract the records into a result set, print its summary and
# `iomatrix report` of it. Everything lands in build/demo/.
# The screen is meant to be read: the records go to a serial port of their
# own (results.serial; --results-serial) and the kernel's messages are left
# off the live console (--hide-kernel), so it shows the banner, the progress
# lines with their ETA, the summary table and the power-off. serial.log
# keeps the whole console, kernel messages and all (the kernel's own
# loglevel would have kept them out of the log too). extract reads both
# files: were ttyS1 not there, the runner would put the records on the
# console.
#   make demo DEMO_QEMU_ARGS='--append iomatrix.debug'
#   make demo DEMO_MATRIX=seed003-btrfs-seqread
DEMO_DIR       ?= $(BUILD)/demo
DEMO_DISKS     ?= 4
DEMO_DISK_SIZE ?= 1G
DEMO_MATRIX    ?= quick
DEMO_QEMU_ARGS ?=

.PHONY: demo
demo: all | deps
	@mkdir -p $(DEMO_DIR)
	$(BUILD)/iomatrix image --quiet
	$(BUILD)/iomatrix qemu --disks $(DEMO_DISKS) --disk-size $(DEMO_DISK_SIZE) \
		--append iomatrix.matrix=$(DEMO_MATRIX) --serial-log $(DEMO_DIR)/serial.log \
		--results-serial $(DEMO_DIR)/results.serial --hide-kernel \
		--timeout 3600 $(DEMO_QEMU_ARGS)
	$(BUILD)/iomatrix extract $(DEMO_DIR)/results.serial $(DEMO_DIR)/serial.log \
		-o $(DEMO_DIR)/results --force
	$(BUILD)/iomatrix report $(DEMO_DIR)/results
