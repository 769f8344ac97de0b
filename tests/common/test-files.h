/* SPDX-License-Identifier: MIT */
/*
 * test-files.h - reading test input files (tests only)
 *
 * tf_slurp() reads a whole file, tf_slurp_fd() a whole memfd;
 * tf_dat_next() walks the records of an interceptor capture: {u32
 * little-endian size including itself, NUL-terminated tracepoint name,
 * event bytes}; tf_capture() starts one the producer writes to.
 */
#ifndef TEST_FILES_H
#define TEST_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A new empty file /tmp/NAME.XXXXXX, its name in @path (at least 64
 * bytes), made the producer's interceptor capture (EH_INTERCEPTOR_FILE).
 * Returns 0, or -1.
 */
static inline int tf_capture(char *path, const char *name)
{
	int fd;

	snprintf(path, 64, "/tmp/%.40s.XXXXXX", name);
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return setenv("EH_INTERCEPTOR_FILE", path, 1);
}

/*
 * The bytes of the file open as @fd (a memfd: read with pread from 0),
 * NUL-terminated; their count in *@size (may be NULL). NULL on failure.
 */
static inline char *tf_slurp_fd(int fd, size_t *size)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *s = len >= 0 ? calloc(1, (size_t)len + 1) : NULL;

	if (!s || pread(fd, s, (size_t)len, 0) != len) {
		free(s);
		return NULL;
	}
	if (size)
		*size = (size_t)len;
	return s;
}

/*
 * The path of the reference corpus's FILE in @path (@n bytes), under
 * $EH_SHARED_DIR (default ../shared). Returns 0 when it can be read, -1
 * when not (the tests skip then, saying so).
 */
static inline int tf_corpus(char *path, size_t n, const char *file)
{
	const char *shared = getenv("EH_SHARED_DIR");

	snprintf(path, n, "%s/conformance/eventheader/%s",
		 shared ? shared : "../shared", file);
	return access(path, R_OK) ? -1 : 0;
}

/* The file's bytes (NUL-terminated, not counted in *size), or NULL. */
static inline unsigned char *tf_slurp(const char *path, size_t *size)
{
	unsigned char *p;
	FILE *f = fopen(path, "rb");
	long n;

	*size = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	p = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	if (p) {
		p[n] = 0;
		*size = (size_t)n;
	}
	return p;
}

struct tf_record {
	const char *name;		/* tracepoint name, NUL-terminated */
	size_t name_len;
	const unsigned char *event;	/* the event bytes */
	size_t event_size;
	const unsigned char *record;	/* name and event: what follows the size */
	size_t record_size;
};

/*
 * The record at *@off of an interceptor capture; advances *@off.
 * Return: 1, 0 at the end, -1 if the framing is damaged at *@off.
 */
static inline int tf_dat_next(const unsigned char *buf, size_t size,
			      size_t *off, struct tf_record *r)
{
	size_t at = *off;
	uint32_t len;

	if (at == size)
		return 0;
	if (size - at < 4)
		return -1;
	len = buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16 |
	      (uint32_t)buf[at + 3] << 24;
	if (len < 5 || len > size - at)
		return -1;
	r->record = buf + at + 4;
	r->record_size = len - 4;
	r->name = (const char *)r->record;
	r->name_len = strnlen(r->name, r->record_size);
	if (r->name_len == r->record_size)
		return -1;
	r->event = r->record + r->name_len + 1;
	r->event_size = r->record_size - r->name_len - 1;
	*off = at + len;
	return 1;
}

#endif /* TEST_FILES_H */
