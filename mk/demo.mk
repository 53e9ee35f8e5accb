# make demo: build everything, build the image for the installed Debian
# kernel, boot it in QEMU with four sparse 1 GiB disks running the quick
# matrix (the console shown live, ending with the summary table and the
# appliance's clean power-off), then extract the records from the serial
# log into a result set, print its summary and `iomatrix report` of it.
# Everything lands in build/demo/.
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
		--timeout 3600 $(DEMO_QEMU_ARGS)
	$(BUILD)/iomatrix extract $(DEMO_DIR)/serial.log -o $(DEMO_DIR)/results --force
	$(BUILD)/iomatrix report $(DEMO_DIR)/results
