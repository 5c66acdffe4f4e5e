// SPDX-License-Identifier: GPL-2.0
/*
 * msr-poke: read or write one MSR of one CPU through the kernel's msr
 * driver (/dev/cpu/CPU/msr, CONFIG_X86_MSR), for the tests of our QEMU's
 * register models (harness/guests/in-guest/pt-model-test), which check that an
 * access the manual forbids raises #GP.
 *
 *   msr-poke CPU MSR           print the MSR's value (hex)
 *   msr-poke CPU MSR VALUE     write VALUE (MSR and VALUE: C numbers)
 *
 * The driver does the access with rdmsr_safe/wrmsr_safe on that CPU, and
 * returns EIO where it raised #GP. Exit status: 0 done, 3 #GP (EIO),
 * 1 any other failure (no such CPU, no driver, a write the driver
 * refused: msr.allow_writes=off), 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int number(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || !*s || *end ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t cpu, msr, val;
	char path[64];
	ssize_t n;
	int fd;

	if (argc < 3 || argc > 4 || number(argv[1], &cpu) || number(argv[2], &msr) ||
	    msr > UINT32_MAX || (argc == 4 && number(argv[3], &val))) {
		fprintf(stderr, "usage: msr-poke CPU MSR [VALUE]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/dev/cpu/%" PRIu64 "/msr", cpu);
	fd = open(path, argc == 4 ? O_WRONLY : O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "msr-poke: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (argc == 4)
		n = pwrite(fd, &val, sizeof(val), msr);
	else
		n = pread(fd, &val, sizeof(val), msr);
	if (n == sizeof(val)) {
		if (argc == 3)
			printf("0x%" PRIx64 "\n", val);
		return 0;
	}
	if (n < 0 && errno == EIO)
		return 3;
	fprintf(stderr, "msr-poke: %s of MSR 0x%" PRIx64 " on CPU %" PRIu64 ": %s\n",
		argc == 4 ? "write" : "read", msr, cpu, n < 0 ? strerror(errno) : "short");
	return 1;
}
