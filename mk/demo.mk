# make demo: build everything, build the image for the installed Debian kernel,
# and boot it in QEMU with four sparse disks, the console shown live, ending
# with the appliance's clean power-off. (Later the appliance runs the quick
# matrix here.) DEMO_QEMU_ARGS adds options to `iomatrix qemu`, e.g.
#   make demo DEMO_QEMU_ARGS='--append iomatrix.debug'
DEMO_DISKS     ?= 4
DEMO_DISK_SIZE ?= 1G
DEMO_QEMU_ARGS ?=

.PHONY: demo
demo: all
	$(BUILD)/iomatrix image
	$(BUILD)/iomatrix qemu --disks $(DEMO_DISKS) --disk-size $(DEMO_DISK_SIZE) $(DEMO_QEMU_ARGS)
