// SPDX-License-Identifier: MIT
/*
 * producer-capture.c - the benchmark event's bytes, by the interceptor
 *
 * This translation unit alone uses the interceptor backend: it writes
 * BENCH_EVENT to a temporary file, so the benchmark can writev() exactly
 * the bytes EH_WRITE sends, with no hand-made copy of the format.
 *
 * A backend is meant to be chosen for the whole program; the other
 * translation unit uses the kernel's. The runtime's functions are static
 * inline (one copy per translation unit) and its only shared object is
 * eh__state, which is given another name here: the two backends then have
 * separate state and do not meet.
 */
#define EH_INTERCEPTOR 1
#define eh__state bench_capture_state

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "producer.h"

EH_DEFINE_PROVIDER(bench_capture_provider, BENCH_PROVIDER_NAME);

long bench_capture(uint32_t i, unsigned char *buf, size_t size)
{
	static const char *const names[] = BENCH_NAMES;
	unsigned char rec[4 + EH_NAME_MAX + EH_EVENT_MAX + 4];
	char path[] = "/tmp/eh-bench-capture.XXXXXX";
	uint32_t rec_size;
	size_t name_len;
	ssize_t got;
	long len = -1;
	int fd, err;

	fd = mkstemp(path);
	if (fd < 0) {
		fprintf(stderr, "capture: mkstemp: %s\n", strerror(errno));
		return -1;
	}
	if (setenv("EH_INTERCEPTOR_FILE", path, 1) != 0)
		goto out;
	err = EH_REGISTER(bench_capture_provider);
	if (err) {
		fprintf(stderr, "capture: register: %s\n", strerror(err));
		goto out;
	}
	err = BENCH_EVENT(bench_capture_provider, i, names);
	EH_UNREGISTER(bench_capture_provider);
	unsetenv("EH_INTERCEPTOR_FILE");
	if (err) {
		fprintf(stderr, "capture: write: %s\n", strerror(err));
		goto out;
	}

	/* One record: {u32 LE size, tracepoint name, NUL, event bytes}. */
	got = pread(fd, rec, sizeof(rec), 0);
	if (got < 4) {
		fprintf(stderr, "capture: short interceptor file (%zd bytes)\n",
			got);
		goto out;
	}
	rec_size = (uint32_t)rec[0] | (uint32_t)rec[1] << 8 |
		   (uint32_t)rec[2] << 16 | (uint32_t)rec[3] << 24;
	name_len = strnlen((const char *)rec + 4, (size_t)got - 4);
	if (rec_size != (uint32_t)got || 4 + name_len + 1 > (size_t)got) {
		fprintf(stderr, "capture: bad record (size %u, file %zd)\n",
			rec_size, got);
		goto out;
	}
	len = (long)((size_t)got - 4 - name_len - 1);
	if ((size_t)len > size) {
		fprintf(stderr, "capture: event of %ld bytes too large\n", len);
		len = -1;
		goto out;
	}
	memcpy(buf, rec + 4 + name_len + 1, (size_t)len);
out:
	close(fd);
	unlink(path);
	return len;
}
