# make install: the host command, the runner and the files the commands read
# at run time, at the places lib/dirs.h looks for them beside PREFIX/bin:
#   PREFIX/bin/iomatrix
#   PREFIX/libexec/iomatrix/iomatrix-runner     (the image's /init)
#   PREFIX/share/iomatrix/                      the data directory: each file at
#     matrix/*.matrix, matrix/README.md         its path in the tree, so readers
#     configs/jobs/*.fio, configs/jobs/README.md  look up DATA/PATH alike in both
#     initramfs/*.list                          (what the image builder reads)
# The work directory (images, QEMU's cache, logs) is not here but per user:
# iomatrix qemu --help says where.
#   make install                          into /usr/local
#   make install PREFIX=/opt/iomatrix DESTDIR=/tmp/stage
#   make uninstall PREFIX=...             removes what install put there
# DESTDIR only prefixes where files are copied to; the program finds its
# files from its own path, so a staged copy runs from the stage as well.
PREFIX  ?= /usr/local
DESTDIR ?=
INSTALL ?= install

# lib/dirs.h's DIRS_DATA and DIRS_RUNNER (tests/host/install.sh checks they agree)
INSTALL_BIN    := $(DESTDIR)$(PREFIX)/bin
INSTALL_RUNNER := $(DESTDIR)$(PREFIX)/libexec/iomatrix
INSTALL_DATA   := $(DESTDIR)$(PREFIX)/share/iomatrix

INSTALL_MATRICES := $(sort $(wildcard matrix/*.matrix)) matrix/README.md
INSTALL_JOBS     := $(sort $(wildcard configs/jobs/*.fio)) configs/jobs/README.md
# A list in initramfs/ is data the image builder reads: whichever there are.
INSTALL_LISTS    := $(sort $(wildcard initramfs/*.list))

.PHONY: install uninstall
install: $(BUILD)/iomatrix $(BUILD)/iomatrix-runner
	$(INSTALL) -d $(INSTALL_BIN) $(INSTALL_RUNNER)
	$(INSTALL) -m 0755 $(BUILD)/iomatrix $(INSTALL_BIN)/iomatrix
	$(INSTALL) -m 0755 $(BUILD)/iomatrix-runner $(INSTALL_RUNNER)/iomatrix-runner
	@# Replaced whole: a matrix gone from the tree must not linger in new images.
	rm -rf $(INSTALL_DATA)
	$(INSTALL) -d $(INSTALL_DATA)/matrix $(INSTALL_DATA)/configs/jobs
	$(INSTALL) -m 0644 $(INSTALL_MATRICES) $(INSTALL_DATA)/matrix/
	$(INSTALL) -m 0644 $(INSTALL_JOBS) $(INSTALL_DATA)/configs/jobs/
	$(if $(INSTALL_LISTS),$(INSTALL) -d $(INSTALL_DATA)/initramfs)
	$(if $(INSTALL_LISTS),$(INSTALL) -m 0644 $(INSTALL_LISTS) $(INSTALL_DATA)/initramfs/)

uninstall:
	rm -f $(INSTALL_BIN)/iomatrix $(INSTALL_RUNNER)/iomatrix-runner
	rm -rf $(INSTALL_DATA)
	-rmdir $(INSTALL_RUNNER) 2>/dev/null
