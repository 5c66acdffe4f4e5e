# Our QEMU (harness/qemu/README.md): Debian 13's QEMU source with our
# hardware models and emulator fixes, built once into $(CACHE)/qemu by
# harness/qemu/build.sh. Every guest boots on it: run-guest.sh takes the
# binaries from $(QEMU_BIN), a link that `make qemu` points at the build.
# Included by the Makefile.

QEMU_BIN := $(BUILD)/qemu-bin
export QEMU_BIN

# What the build needs from Debian (deps.sh): the tools and libraries of a
# system-emulator-only build, dpkg-source for the source package, and meson
# >= 1.5 from bookworm-backports (bookworm has 1.0).
DEPS_QEMU           := ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev \
	python3-venv dpkg-dev
DEPS_BACKPORTS_QEMU := meson:1.5

.PHONY: qemu qemu-checkpatch

qemu: deps
	@$(STAGE) "qemu (ours)" \
		$(H)/qemu/build.sh $(CACHE) $(QEMU_BIN)

# QEMU's scripts/checkpatch.pl on our QEMU patches (in `make check`).
qemu-checkpatch: qemu
	@$(STAGE) "checkpatch (our QEMU patches)" $(H)/qemu/checkpatch.sh $(CACHE)
