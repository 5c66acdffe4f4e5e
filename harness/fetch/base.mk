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
