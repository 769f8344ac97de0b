// SPDX-License-Identifier: MIT
/*
 * fuzz-perf.c - libFuzzer target: the perf.data reader on arbitrary
 * bytes, read as a file (normal or pipe mode), every record and sample
 * parsed. It must return an error or records, never crash.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memfd_create(), when built without config.h */
#endif
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libtraceevent 1.7 leaks what it allocated for formats it then fails to
 * parse: not ours to fix, so LeakSanitizer is told to ignore it. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ehd__perf_record *rec;
	struct ehd__perf_file *f;
	int fd, r, n = 0;

	fd = memfd_create("fuzz-perf", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	r = ehd__perf_new(&f);
	if (!r)
		r = ehd__perf_open_fd(f, fd, "fuzz");
	while (r >= 0 && n++ < 100000 && (r = ehd__perf_next(f, &rec)) > 0)
		;
	ehd__perf_free(f);
	close(fd);
	return 0;
}
