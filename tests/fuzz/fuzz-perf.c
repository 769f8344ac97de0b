// SPDX-License-Identifier: MIT
/*
 * fuzz-perf.c - libFuzzer target: the perf.data reader on arbitrary
 * bytes, read as a file (normal or pipe mode), every record and sample
 * parsed; and the same bytes as a session's pipe-mode stream made into a
 * normal-mode file (ehd_session_perf_file()), which is then read too.
 * They must return an error or records, never crash.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memfd_create(), when built without config.h */
#endif
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ehdecode/session.h>

#include "formats/perf/perf-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "fuzz-touch.h"

/* Read every record of the perf.data at @fd. */
static void read_all(int fd)
{
	const struct ehd__perf_record *rec;
	struct ehd__perf_file *f;
	int r, n = 0;

	r = ehd__perf_new(&f);
	if (!r)
		r = ehd__perf_open_fd(f, fd, "fuzz");
	while (r >= 0 && n++ < 100000 && (r = ehd__perf_next(f, &rec)) > 0)
		;
	ehd__perf_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[256];
	int fd, out;

	fd = fuzz_input(NULL, 0, data, size);
	if (fd < 0)
		return 0;
	read_all(fd);
	out = memfd_create("fuzz-perf-out", MFD_CLOEXEC);
	if (out >= 0 && lseek(fd, 0, SEEK_SET) == 0 &&
	    !ehd_session_perf_file(fd, out, why, sizeof(why)))
		read_all(out);
	if (out >= 0)
		close(out);
	close(fd);
	return 0;
}
