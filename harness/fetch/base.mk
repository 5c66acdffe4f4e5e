# The pinned base of the series: the one place that names it.
#
# The kernel source comes from Debian's linux-source-6.1 package; the
# tarball it carries (/usr/src/linux-source-6.1.tar.xz) must match
# BASE_SHA256. To try another version, override all three on the command
# line, e.g.:
#   make check BASE_VERSION=6.1.190-1 BASE_SHA256=<sha256 of its tarball>
# (`make base-versions` lists what the archive offers.)
BASE_PACKAGE ?= linux-source-6.1
BASE_VERSION ?= 6.1.192-2
BASE_SHA256  ?= 4d415b3d364834fd818270e88813e90323bbfce4f519a0e6bd4940ddcd7df693

# The peer of `make compare` (harness/compare/): upstream's kernel, which
# has AUX pause/resume (6.13) and vpa_dtl (6.18) of its own, from Debian
# unstable's linux-source package (the suite of upstream perf, fetched
# through the same private apt configuration), pinned the same way.
UPSTREAM_KERNEL_PACKAGE ?= linux-source-7.2
UPSTREAM_KERNEL_VERSION ?= 7.2.13-1
UPSTREAM_KERNEL_SHA256  ?= ecb3877b9988c936dcc64c63af8a54c2fa6df7f717d4e5ee429d0f4c4859e68b
