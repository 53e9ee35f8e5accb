# make image: the appliance's initramfs for the installed Debian kernel (the
# newest release in /lib/modules with a /boot/vmlinuz-R), written to
# image/initramfs-R.cpio.zst in the work directory ($(BUILD)/ in the tree, or
# $IOMATRIX_WORK_DIR), where iomatrix qemu looks. More options through IMAGE_FLAGS:
#   make image IMAGE_FLAGS="--release 6.1.0-57-amd64 --compress xz"
#   make image IMAGE_FLAGS="--modules-dir ~/linux/mods -o /tmp/i.cpio.zst"
IMAGE_FLAGS ?=

.PHONY: image
image: $(BUILD)/iomatrix $(BUILD)/iomatrix-runner
	$(BUILD)/iomatrix image $(IMAGE_FLAGS)
